import Foundation

/// One store of a coordinator: a SQLite file, an in-memory store, or a store written by the
/// app (a subclass of `NSIncrementalStore` or `NSAtomicStore`, registered with
/// ``NSPersistentStoreCoordinator/registerStoreClass(_:forStoreType:)``).
///
/// The coordinator creates stores; apps do not call the initializer themselves, but a
/// custom store class may override it (see ``init(persistentStoreCoordinator:configurationName:at:options:)``).
///
/// ## Topics
/// ### Identity
/// - ``type``
/// - ``url``
/// - ``identifier``
/// - ``configurationName``
/// - ``options``
/// - ``isReadOnly``
/// - ``persistentStoreCoordinator``
/// ### Metadata
/// - ``metadata``
/// - ``loadMetadata()``
/// - ``metadataForPersistentStore(with:)``
/// - ``setMetadata(_:forPersistentStoreAt:)``
/// ### Life cycle
/// - ``didAdd(to:)``
/// - ``willRemove(from:)``
open class NSPersistentStore: NSObject, @unchecked Sendable {
    // @unchecked Sendable: mutable state is reached only under the coordinator's lock.

    /// The kinds of store, in the newer struct spelling (`.sqlite`, `.inMemory`, or a
    /// custom type's string).
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The type string (`NSSQLiteStoreType`, `NSInMemoryStoreType`, a registered type);
        /// settable, as Apple's is.
        public var rawValue: String
        /// A store type from its string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The SQLite store.
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        /// The in-memory store.
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        /// The PostgreSQL store (``NSPostgreSQLStoreType``), added with a `postgresql://` URL.
        ///
        /// - Note: Apple parity: OpenCoreData's own store type; Apple has none for PostgreSQL.
        public static let postgresql = StoreType(rawValue: NSPostgreSQLStoreType)
        /// Apple's binary store (not available here: adding one fails with
        /// `NSPersistentStoreInvalidTypeError`).
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
    }

    /// The coordinator the store is added to (nil before it is added and after removal).
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// The store's type string. A custom store class may override it; by default it is
    /// the type the store was added as (or its metadata's `NSStoreTypeKey`).
    open var type: String { backend.storeType }
    /// Where the store lives (nil for an in-memory store added without a URL).
    open var url: URL?
    /// The store UUID (`NSStoreUUID`), also the host part of object ID URIs.
    open var identifier: String! {
        get { metadata[NSStoreUUIDKey] as? String }
        set { metadata[NSStoreUUIDKey] = newValue }
    }
    /// The model configuration whose entities the store holds.
    open var configurationName: String
    /// The options the store was added with.
    open private(set) var options: [AnyHashable: Any]?
    /// Whether saves to the store are refused (`NSReadOnlyPersistentStoreOption`).
    open var isReadOnly: Bool
    /// The store's metadata: `NSStoreType`, `NSStoreUUID`, model version hashes, and any
    /// keys the app set. Written to the store by the next save that reaches it.
    ///
    /// A dictionary without `NSStoreUUIDKey` or `NSStoreTypeKey` keeps the store's (the
    /// store's identity does not change by accident); a SQLite store also keeps its model
    /// version hashes.
    open var metadata: [String: Any]! {
        get { backend.metadata }
        set {
            var value = newValue ?? [:]
            let current = backend.metadata
            for key in [NSStoreUUIDKey, NSStoreTypeKey] where value[key] == nil { value[key] = current[key] }
            backend.metadata = value
        }
    }

    /// How the coordinator reads and writes this store: the SQLite or in-memory backend, or
    /// the adapter over a custom store class (set once, when the store is created; replaced
    /// only by `setURL(_:for:)` on a SQLite store).
    var backend: StoreBackend
    /// The type string a custom store was added as (what ``type`` answers unless overridden).
    var addedAsType: String?
    /// The weak reference every object ID of this store shares. (Set once, in init.)
    private(set) var reference: StoreReference!
    /// Whether the store is a class written by an app (``NSIncrementalStore``,
    /// ``NSAtomicStore``), whose methods may ask which context a read is for: contexts then
    /// name themselves for every read (``NSPersistentStoreCoordinator/serving(_:_:)``),
    /// which holds the coordinator's lock across the read. (Set once, in init.)
    let readsForContexts: Bool

    /// Creates a store. The coordinator calls this initializer on the class registered for
    /// the type being added, so it is `required`.
    ///
    /// - Note: Apple parity: `required` here (Apple's is a plain designated initializer)
    ///   because the coordinator makes registered classes from their type, which Swift
    ///   allows only through a required initializer. A subclass that overrides it writes
    ///   `required init(persistentStoreCoordinator:configurationName:at:options:)` where
    ///   Apple code writes `override init(...)`.
    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
                         at url: URL, options: [AnyHashable: Any]? = nil) {
        self.url = url
        self.configurationName = name ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool)
            ?? (options?[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue ?? false
        self.persistentStoreCoordinator = root
        self.backend = UnsupportedStoreBackend()
        self.readsForContexts = true
        super.init()
        if let made = makeBackend() { backend = made }
        reference = StoreReference(self, talksToContexts: talksToContexts)
    }

    /// A built-in store (SQLite, in memory) over its backend.
    init(backend: StoreBackend, configurationName: String?, url: URL?, options: [AnyHashable: Any]?) {
        self.backend = backend
        self.url = url
        self.configurationName = configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool)
            ?? (options?[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue ?? false
        self.readsForContexts = false
        super.init()
        reference = StoreReference(self, talksToContexts: false)
    }

    // MARK: - Hooks for store classes written by apps (NSIncrementalStore, NSAtomicStore)

    /// The backend of a store created through the required initializer: the custom store
    /// classes answer with their adapter; a direct subclass of `NSPersistentStore` has none
    /// (adding it fails with `NSPersistentStoreInvalidTypeError`, as Apple supports only
    /// the two abstract subclasses).
    func makeBackend() -> StoreBackend? { nil }

    /// Whether the store talks to contexts (an `NSIncrementalStore`): contexts tell it when
    /// they register and unregister its objects
    /// (`managedObjectContextDidRegisterObjects(with:)`), and name themselves to the
    /// coordinator (``NSPersistentStoreCoordinator/serving(_:_:)``) before reading its
    /// objects, for its `newValuesForObject(with:with:)`.
    var talksToContexts: Bool { false }

    /// Called by contexts for stores that ``talksToContexts``.
    func contextDidRegister(_ objectIDs: [NSManagedObjectID]) {}
    /// Called by contexts for stores that ``talksToContexts``.
    func contextDidUnregister(_ objectIDs: [NSManagedObjectID]) {}

    /// The part after `p` in an object ID's URI (`x-coredata://<UUID>/<Entity>/p<key>`): the
    /// primary key, or a custom store's reference object.
    func uriKey(forPrimaryKey pk: Int64, entity: NSEntityDescription) -> String { String(pk) }

    /// The primary key a URI's key names (the reverse of ``uriKey(forPrimaryKey:entity:)``),
    /// or nil when it names nothing this store could hold.
    func primaryKey(forURIKey key: String, entity: NSEntityDescription) -> Int64? {
        guard let pk = Int64(key), pk > 0 else { return nil }
        return pk
    }

    // MARK: - Metadata

    /// Loads the store's metadata into ``metadata``. The coordinator calls it when the store
    /// is added; custom stores override it to read their own files.
    open func loadMetadata() throws {}

    /// The metadata of the store at `url`, read without adding it. The base class reads a
    /// SQLite store; `NSIncrementalStore` and `NSAtomicStore` load an instance of the class.
    ///
    /// - Throws: `NSError` in `NSCocoaErrorDomain` (`NSFileReadNoSuchFileError` when there is
    ///   no file, `NSFileReadCorruptFileError` when it is not a store).
    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try SQLiteStoreBackend.readMetadata(at: url)
    }

    /// Replaces the metadata of the store at `url` without adding it (the base class writes a
    /// SQLite store's `Z_METADATA`; its UUID stays unless `metadata` names one).
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try SQLiteStoreBackend.writeMetadata(metadata ?? [:], at: url)
    }

    /// The class of the migration manager that migrates stores of this type:
    /// `NSMigrationManager`.
    ///
    /// ```swift
    /// let managerClass = NSPersistentStore.migrationManagerClass() as? NSMigrationManager.Type
    /// ```
    open class func migrationManagerClass() -> AnyClass {
        NSMigrationManager.self
    }

    // MARK: - Life cycle

    /// Called once the store is added to `coordinator` (after its metadata loaded).
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}

    /// Called before the store leaves `coordinator` (removal, `destroyPersistentStore`,
    /// `migratePersistentStore`).
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}

    open override var description: String {
        "<\(Swift.type(of: self))> (URL: \(url?.absoluteString ?? "nil"))"
    }
}

/// The backend of a store class that has none (a direct subclass of `NSPersistentStore`):
/// loading it fails, so the coordinator never adds it.
final class UnsupportedStoreBackend: StoreBackend {
    let storeType = ""
    var metadata: [String: Any] = [:]

    private func unsupported() -> NSError {
        CoreDataError.make(NSPersistentStoreInvalidTypeError,
            "Only subclasses of NSIncrementalStore and NSAtomicStore can be registered as store classes.")
    }

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws { throw unsupported() }
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] { throw unsupported() }
    func count(_ plan: FetchPlan) throws -> Int { throw unsupported() }
    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? { throw unsupported() }
    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] { throw unsupported() }
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 { throw unsupported() }
    func save(_ changes: StoreChanges) throws { throw unsupported() }
    func close() {}
}

/// A weak reference to a store, shared by the store's object IDs.
final class StoreReference: @unchecked Sendable {
    // @unchecked Sendable: `store` is a weak reference set once (the runtime makes weak
    // loads thread-safe); the other fields never change.
    private(set) weak var store: NSPersistentStore?
    /// `ObjectIdentifier(store)`, fixed at creation.
    let identifier: ObjectIdentifier
    /// The store's ``NSPersistentStore/talksToContexts`` (read on every registration and
    /// fault, so kept here instead of behind the weak reference).
    let talksToContexts: Bool

    init(_ store: NSPersistentStore, talksToContexts: Bool) {
        self.store = store
        self.identifier = ObjectIdentifier(store)
        self.talksToContexts = talksToContexts
    }

    /// The store's identifier while the store exists.
    var liveIdentifier: ObjectIdentifier? { store == nil ? nil : identifier }
}
