import Foundation

/// Connects contexts to stores: it owns the stores, routes each entity to the store of
/// its configuration, and keeps one row cache that all its contexts fulfil faults from.
///
/// Thread-safe: every entry point takes the coordinator's lock. A SQLite store in WAL mode
/// is read on read-only connections of its own with the lock released (a few per store,
/// opened when needed), so that contexts on different threads fetch and fire faults at
/// once; saves and other writes hold the lock throughout.
///
/// ```swift
/// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
/// try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
/// ```
///
/// ## Topics
/// ### Stores
/// - ``addPersistentStore(type:configuration:at:options:)``
/// - ``addPersistentStore(ofType:configurationName:at:options:)``
/// - ``remove(_:)``
/// - ``persistentStores``
/// - ``addPersistentStore(with:completionHandler:)``
/// - ``url(for:)``
/// - ``setURL(_:for:)``
/// - ``migratePersistentStore(_:to:options:withType:)``
/// - ``destroyPersistentStore(at:ofType:options:)``
/// ### Store types
/// - ``registerStoreClass(_:forStoreType:)``
/// - ``registeredStoreTypes``
/// ### Metadata
/// - ``metadata(for:)``
/// - ``setMetadata(_:for:)``
/// - ``metadataForPersistentStore(ofType:at:options:)``
/// - ``setMetadata(_:forPersistentStoreOfType:at:options:)``
/// ### Locking
/// - ``lock()``
/// - ``unlock()``
/// - ``tryLock()``
/// ### Object IDs
/// - ``managedObjectID(forURIRepresentation:)``
/// - ``managedObjectID(for:)``
open class NSPersistentStoreCoordinator: NSObject, NSLocking, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is guarded by `stateLock`.

    /// The model of every store the coordinator holds (frozen by the coordinator).
    public let managedObjectModel: NSManagedObjectModel
    /// The stores added, in the order they were added.
    open internal(set) var persistentStores: [NSPersistentStore] = []
    /// A name for the coordinator, for debugging.
    open var name: String?

    let stateLock = NSRecursiveLock()
    /// The context on whose behalf the coordinator is calling its stores (see
    /// ``serving(_:_:)``); guarded by `stateLock`.
    private(set) var requestingContext: AnyObject?
    /// Rows read from the stores, shared by every context of this coordinator; guarded by
    /// `stateLock` (the routing extension reads and fills it).
    var rowCache: [RowCacheKey: StoreRow] = [:]

    /// Row cache access for the coordinator's extensions (call with `stateLock` held).
    func rowCacheEntry(_ key: RowCacheKey) -> StoreRow? { rowCache[key] }
    func setRowCacheEntry(_ row: StoreRow, for key: RowCacheKey) { rowCache[key] = row }
    /// Keys of batched fetch results whose rows are not read yet
    /// (`NSPersistentStoreCoordinator+Batches.swift`).
    var faultBatches = FaultBatches()
    /// Counts the changes to stored rows this coordinator made or learnt of (saves, batch
    /// requests, evictions, stores removed): a read made outside the lock caches its rows
    /// only when the count did not move meanwhile
    /// (`NSPersistentStoreCoordinator+Readers.swift`); guarded by `stateLock`.
    var rowEpoch: UInt64 = 0
    /// Whether a context of this coordinator was ever pinned to a query generation (until
    /// then reads skip asking their context for one); guarded by `stateLock`.
    var hasPinnedContexts = false

    struct RowCacheKey: Hashable {
        let store: ObjectIdentifier
        let root: ObjectIdentifier
        let pk: Int64

        func hash(into hasher: inout Hasher) { hasher.combine(_rawHashValue(seed: 0)) }
        func _rawHashValue(seed: Int) -> Int { mixKeyHash(store, root, pk, seed: seed) }
    }

    /// Creates a coordinator and freezes `model`: from now on it cannot change.
    ///
    /// - Note: Apple parity: an inconsistent model (an inverse or destination that does
    ///   not exist) traps here, as Apple raises; models loaded from files are checked
    ///   when they load.
    public init(managedObjectModel model: NSManagedObjectModel) {
        self.managedObjectModel = model
        super.init()
        do { try model.freeze() } catch { coreDataMisuse("\(error.localizedDescription)") }
    }

    // MARK: - Adding and removing stores

    /// Adds a store of a built-in or registered type (Apple's older spelling).
    ///
    /// `storeURL` may be nil for an in-memory store. A SQLite store at `/dev/null` is an
    /// in-memory SQLite database of its own (Apple's idiom for tests).
    ///
    /// - Throws: `NSError` in `NSCocoaErrorDomain`: `NSPersistentStoreInvalidTypeError`
    ///   (134000) for a type nobody registered, a registered class that is not a store
    ///   class, or a custom store whose metadata has no type or UUID;
    ///   `NSPersistentStoreTypeMismatchError` (134010) when a custom store's metadata names
    ///   another type; the store's own errors otherwise.
    @discardableResult
    open func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
        options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        stateLock.lock()
        defer { stateLock.unlock() }
        let entities = managedObjectModel.entities(forConfigurationName: configuration) ?? []
        if let configuration, configuration != "Default",
           managedObjectModel.entities(forConfigurationName: configuration) == nil {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The model has no configuration named \(configuration).")
        }
        let store = try makeStore(ofType: storeType, configurationName: configuration, at: storeURL, options: options)
        // The store must know its coordinator while it loads (an incremental store may ask
        // for the model), but it is not one of the coordinator's stores until it loaded.
        store.persistentStoreCoordinator = self
        do {
            try runStagedMigration(for: store, options: options)
            try store.backend.load(model: managedObjectModel, entities: entities)
        } catch {
            store.persistentStoreCoordinator = nil
            store.backend.close()
            throw error
        }
        if (store.backend as? any HistoryKeeping)?.forcedReadOnlyByHistory == true { store.isReadOnly = true }
        do {
            try startRemoteChangeNotifications(for: store)
        } catch {
            store.persistentStoreCoordinator = nil
            store.backend.close()
            throw error
        }
        persistentStores.append(store)
        store.didAdd(to: self)
        return store
    }

    /// Runs the staged migration an `NSPersistentStoreStagedMigrationManagerOptionKey`
    /// option carries, on a SQLite store that exists, before the store opens (automatic
    /// migration then finishes whatever the stages leave).
    private func runStagedMigration(for store: NSPersistentStore, options: [AnyHashable: Any]?) throws {
        guard let options, let value = options[NSPersistentStoreStagedMigrationManagerOptionKey] else { return }
        guard let staged = value as? any StagedStoreMigration else {
            throw CoreDataError.make(
                NSMigrationError,
                "The NSPersistentStoreStagedMigrationManagerOptionKey option holds \(type(of: value)), not an NSStagedMigrationManager.")
        }
        guard let backend = store.backend as? SQLiteStoreBackend, !SQLiteStoreBackend.isInMemoryPath(backend.url),
              FileManager.default.fileExists(atPath: backend.url.path), !backend.isReadOnly else { return }
        try staged.migrateStore(at: backend.url, options: options, toModel: managedObjectModel)
    }

    /// A new, unloaded store of a type.
    func makeStore(ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
                   options: [AnyHashable: Any]?) throws -> NSPersistentStore {
        guard let kind = StoreTypeRegistry.kind(of: storeType) else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "Unknown store type \(storeType): use NSSQLiteStoreType, NSInMemoryStoreType, NSPostgreSQLStoreType or a type registered with registerStoreClass(_:forStoreType:).")
        }
        switch kind {
        case .sqlite:
            guard let storeURL, storeURL.isFileURL || storeURL.scheme == nil else {
                throw CoreDataError.make(
                    NSPersistentStoreOpenError,
                    "A SQLite store needs a file URL, not \(storeURL?.absoluteString ?? "nil").")
            }
            if !SQLiteStoreBackend.isInMemoryPath(storeURL),
               persistentStores.contains(where: { $0.url?.standardizedFileURL == storeURL.standardizedFileURL }) {
                throw CoreDataError.store(NSPersistentStoreOpenError, "The store at \(storeURL.path) is already added to this coordinator.", url: storeURL)
            }
            let backend = SQLiteStoreBackend(url: storeURL, options: options ?? [:])
            backend.mappingMigration = Self.runMappingMigration
            return NSPersistentStore(backend: backend, configurationName: configuration, url: storeURL, options: options)
        case .inMemory:
            return NSPersistentStore(backend: InMemoryStoreBackend(), configurationName: configuration,
                                     url: storeURL, options: options)
        case .postgreSQL:
            guard let storeURL, storeURL.scheme == "postgresql" || storeURL.scheme == "postgres" else {
                throw CoreDataError.make(
                    NSPersistentStoreOpenError,
                    "A PostgreSQL store needs a postgresql:// URL, not \(storeURL?.absoluteString ?? "nil").")
            }
            if persistentStores.contains(where: { $0.url == storeURL }) {
                throw CoreDataError.make(NSPersistentStoreOpenError, "The PostgreSQL store at \(storeURL.absoluteString) is already added to this coordinator.")
            }
            return NSPersistentStore(backend: PostgreSQLStoreBackend(url: storeURL, options: options ?? [:]),
                                     configurationName: configuration, url: storeURL, options: options)
        case .registered(let storeClass):
            guard let type = storeClass as? NSPersistentStore.Type else {
                throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                    "The class registered for the store type \(storeType), \(storeClass), is not a subclass of NSPersistentStore.")
            }
            // Apple hands custom stores a URL even when none was given.
            let store = type.init(persistentStoreCoordinator: self, configurationName: configuration,
                                  at: storeURL ?? URL(fileURLWithPath: "/dev/null"), options: options)
            if storeURL == nil { store.url = nil }
            store.addedAsType = storeType
            return store
        }
    }

    /// Adds a store (Apple's `NSPersistentStore.StoreType` spelling).
    @discardableResult
    open func addPersistentStore(
        type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Adds the store a description describes, then calls `block` with the description and
    /// the error, if any: at once, or on a background queue when the description's
    /// `shouldAddStoreAsynchronously` is true.
    open func addPersistentStore(with storeDescription: NSPersistentStoreDescription,
                                 completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        let add = { [self] () -> Error? in
            var options: [AnyHashable: Any] = [:]
            for (key, value) in storeDescription.options { options[key] = value }
            do {
                try addPersistentStore(ofType: storeDescription.type, configurationName: storeDescription.configuration,
                                       at: storeDescription.url, options: options)
                return nil
            } catch {
                return error
            }
        }
        guard storeDescription.shouldAddStoreAsynchronously else {
            block(storeDescription, add())
            return
        }
        let box = UncheckedSendableBox((add, storeDescription, block))
        DispatchQueue.global().async {
            let value = box.value
            value.2(value.1, value.0())
        }
    }

    /// Removes a store: its objects' IDs stop resolving, its files stay.
    open func remove(_ store: NSPersistentStore) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let index = persistentStores.firstIndex(where: { $0 === store }) else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The store at \(store.url?.path ?? "(no URL)") is not added to this coordinator.")
        }
        store.willRemove(from: self)
        persistentStores.remove(at: index)
        forgetRows(of: store)
        store.backend.close()
        store.persistentStoreCoordinator = nil
    }

    /// Drops a store's cached rows and pending fault batches.
    func forgetRows(of store: NSPersistentStore) {
        rowEpoch &+= 1
        let id = ObjectIdentifier(store)
        rowCache = rowCache.filter { $0.key.store != id }
        faultBatches.removeAll(store: id)
    }

    /// Drops a store's cached rows of some inheritance roots (a batch request changed them
    /// in the store, behind the cache).
    func forgetRows(of store: NSPersistentStore, roots: Set<ObjectIdentifier>) {
        rowEpoch &+= 1
        guard !roots.isEmpty else { return }
        let id = ObjectIdentifier(store)
        rowCache = rowCache.filter { $0.key.store != id || !roots.contains($0.key.root) }
    }

    /// The store at `url`, if one was added from there.
    open func persistentStore(for url: URL) -> NSPersistentStore? {
        stateLock.lock()
        defer { stateLock.unlock() }
        return persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    /// Where a store lives (`/dev/null` for an in-memory store added without a URL).
    open func url(for store: NSPersistentStore) -> URL {
        stateLock.lock()
        defer { stateLock.unlock() }
        return store.url ?? URL(fileURLWithPath: "/dev/null")
    }

    /// Points an added store at another URL.
    ///
    /// A SQLite store reopens on the store already at `url` (which must exist: a new store
    /// is not created) and forgets its cached rows; an in-memory or custom store only takes
    /// the new URL (an atomic store writes there on its next save).
    ///
    /// - Returns: false when the store is not this coordinator's, or when no usable SQLite
    ///   store is at `url` (the store then stays where it was).
    @discardableResult
    open func setURL(_ url: URL, for store: NSPersistentStore) -> Bool {
        relocate(store, to: url)
    }

    /// Copies an added store's content to a new store of `storeType` at `URL`, adds that
    /// store in its place (the old one is removed; its files stay) and returns it: Apple's
    /// "save as". Objects keep their primary keys, and the store keeps its UUID and
    /// metadata, so object IDs from the new store name the same objects.
    ///
    /// ```swift
    /// let moved = try coordinator.migratePersistentStore(store, to: newURL, options: nil, withType: NSSQLiteStoreType)
    /// ```
    ///
    /// - Throws: `NSPersistentStoreOperationError` when the store is not this coordinator's
    ///   or a store already exists at `URL`; `NSPersistentStoreInvalidTypeError` for an
    ///   unknown type or a custom store type as destination; the destination's errors.
    ///   Nothing changes in the coordinator when it throws.
    ///
    /// - Note: Apple parity: the destination is SQLite or in memory (a custom store class
    ///   can be the source, not the destination).
    @discardableResult
    open func migratePersistentStore(_ store: NSPersistentStore, to URL: URL, options: [AnyHashable: Any]? = nil,
                                     withType storeType: String) throws -> NSPersistentStore {
        try migrate(store, to: URL, options: options, storeType: storeType)
    }

    /// The `StoreType` spelling of ``migratePersistentStore(_:to:options:withType:)``.
    @discardableResult
    open func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                     type storeType: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try migrate(store, to: url, options: options, storeType: storeType.rawValue)
    }

    // MARK: - Store types

    /// Registers a store class (a subclass of `NSIncrementalStore` or `NSAtomicStore`) for a
    /// type string, for every coordinator; nil unregisters the type. Register before adding
    /// a store of the type.
    ///
    /// ```swift
    /// NSPersistentStoreCoordinator.registerStoreClass(JSONStore.self, forStoreType: JSONStore.type)
    /// try coordinator.addPersistentStore(ofType: JSONStore.type, configurationName: nil, at: url)
    /// ```
    open class func registerStoreClass(_ storeClass: AnyClass?, forStoreType storeType: String) {
        StoreTypeRegistry.register(storeClass, for: storeType)
    }

    /// The `StoreType` spelling of ``registerStoreClass(_:forStoreType:)``.
    ///
    /// ```swift
    /// extension NSPersistentStore.StoreType { static let json = Self(rawValue: "JSONStore") }
    /// NSPersistentStoreCoordinator.registerStoreClass(JSONStore.self, type: .json)
    /// ```
    open class func registerStoreClass(_ storeClass: AnyClass?, type: NSPersistentStore.StoreType) {
        registerStoreClass(storeClass, forStoreType: type.rawValue)
    }

    /// The registered store types, the built-in ones included: type string → the class,
    /// wrapped in an `NSValue` as Apple does.
    open class var registeredStoreTypes: [String: NSValue] {
        StoreTypeRegistry.all.mapValues(StoreTypeRegistry.value(for:))
    }

    // MARK: - Metadata

    /// The metadata of an added store (what its next save writes).
    open func metadata(for store: NSPersistentStore) -> [String: Any] {
        stateLock.lock()
        defer { stateLock.unlock() }
        return store.metadata
    }

    /// Replaces an added store's metadata; the next save that reaches the store writes it.
    /// `NSStoreTypeKey` is always the store's type, and `NSStoreUUIDKey` stays the store's
    /// unless `metadata` names another.
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        stateLock.lock()
        defer { stateLock.unlock() }
        var merged = metadata ?? [:]
        if merged[NSStoreUUIDKey] == nil { merged[NSStoreUUIDKey] = store.identifier }
        merged[NSStoreTypeKey] = store.type
        store.metadata = merged
    }

    /// Reads a store's metadata without adding it: a SQLite store's `Z_METADATA`, or what a
    /// registered store class's `metadataForPersistentStore(with:)` answers.
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` for an in-memory or unknown type, or
    ///   the store's error (`NSFileReadNoSuchFileError` when nothing is there).
    open class func metadataForPersistentStore(
        ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        switch StoreTypeRegistry.kind(of: storeType) {
        case .sqlite?:
            return try SQLiteStoreBackend.readMetadata(at: url, options: options)
        case .registered(let storeClass as NSPersistentStore.Type)?:
            return try storeClass.metadataForPersistentStore(with: url)
        default:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A store of type \(storeType) has no metadata on disk.")
        }
    }

    /// The `StoreType` spelling of ``metadataForPersistentStore(ofType:at:options:)``.
    open class func metadataForPersistentStore(
        type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    /// Writes the metadata of a store that is not added: a SQLite store's `Z_METADATA` (its
    /// UUID and type stay unless `metadata` names others), or through a registered class's
    /// `setMetadata(_:forPersistentStoreAt:)`.
    open class func setMetadata(
        _ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws {
        switch StoreTypeRegistry.kind(of: storeType) {
        case .sqlite?:
            try SQLiteStoreBackend.writeMetadata(metadata ?? [:], at: url, busyTimeout: SQLiteStoreBackend.busyTimeout(options))
        case .registered(let storeClass as NSPersistentStore.Type)?:
            try storeClass.setMetadata(metadata, forPersistentStoreAt: url)
        default:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "A store of type \(storeType) has no metadata on disk.")
        }
    }

    /// Reads the metadata of the store at `url` without adding it, finding its type from
    /// the file: a SQLite database, else the first registered store class that can read it.
    ///
    /// Apple deprecates it in favour of ``metadataForPersistentStore(ofType:at:options:)``.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` when nothing is at `url`;
    ///   `NSPersistentStoreInvalidTypeError` when no store type reads the file.
    open class func metadataForPersistentStore(with url: URL) throws -> [AnyHashable: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(NSFileReadNoSuchFileError, "No persistent store at \(url.path).")
        }
        if SQLiteStoreBackend.looksLikeDatabase(at: url) {
            return try metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        }
        for entry in StoreTypeRegistry.all.sorted(by: { $0.key < $1.key }) {
            guard let storeClass = entry.value as? NSPersistentStore.Type,
                  ObjectIdentifier(storeClass) != ObjectIdentifier(NSPersistentStore.self),
                  let metadata = try? storeClass.metadataForPersistentStore(with: url) else { continue }
            return metadata
        }
        throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "No store type reads the file at \(url.path).")
    }

    /// ``metadataForPersistentStore(ofType:at:options:)`` without options; a nil type is
    /// found from the file, as ``metadataForPersistentStore(with:)`` finds it.
    ///
    /// Apple deprecates it in favour of the spelling with options.
    open class func metadataForPersistentStore(ofType storeType: String?, at url: URL) throws -> [String: Any] {
        guard let storeType else {
            let metadata = try metadataForPersistentStore(with: url)
            return Dictionary(metadata.compactMap { key, value in (key as? String).map { ($0, value) } },
                              uniquingKeysWith: { a, _ in a })
        }
        return try metadataForPersistentStore(ofType: storeType, at: url, options: nil)
    }

    /// ``setMetadata(_:forPersistentStoreOfType:at:options:)`` without options; a nil type
    /// means the SQLite store (the only on-disk type Core Data finds by itself).
    ///
    /// Apple deprecates it in favour of the spelling with options.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String?, at url: URL) throws {
        try setMetadata(metadata, forPersistentStoreOfType: storeType ?? NSSQLiteStoreType, at: url, options: nil)
    }

    /// The `StoreType` spelling of ``setMetadata(_:forPersistentStoreOfType:at:options:)``.
    open class func setMetadata(
        _ metadata: [String: Any]?, type storeType: NSPersistentStore.StoreType, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws {
        try setMetadata(metadata, forPersistentStoreOfType: storeType.rawValue, at: url, options: options)
    }

    // MARK: - Destroying and replacing

    /// Destroys the store at `url`, removing it from this coordinator first when it was
    /// added. As Apple's, a SQLite store is emptied in place, under SQLite's locks, rather
    /// than unlinked (a connection another coordinator or process still has open then
    /// sees an empty database, never a vanished file): the database file stays, holding no
    /// tables, and adding a store there makes a new, empty one. A registered store type's
    /// file is deleted.
    ///
    /// ```swift
    /// try coordinator.destroyPersistentStore(at: storeURL, ofType: NSSQLiteStoreType, options: nil)
    /// try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL)
    /// ```
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` for an unknown type,
    ///   `NSPersistentStoreOperationError` when the files cannot be emptied.
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let kind = StoreTypeRegistry.kind(of: storeType) else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type \(storeType).")
        }
        if !SQLiteStoreBackend.isInMemoryPath(url),
           let store = persistentStores.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
            try remove(store)
        }
        switch kind {
        case .sqlite:
            guard !SQLiteStoreBackend.isInMemoryPath(url) else { return }
            try SQLiteStoreBackend.emptyStore(at: url, busyTimeout: SQLiteStoreBackend.busyTimeout(options))
        case .inMemory:
            return
        case .postgreSQL:
            try PostgreSQLStoreBackend.destroyStore(at: url, entities: managedObjectModel.entities)
        case .registered:
            guard url.isFileURL, FileManager.default.fileExists(atPath: url.path) else { return }
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw CoreDataError.store(NSPersistentStoreOperationError,
                    "The store file \(url.path) cannot be deleted.", url: url, underlying: error)
            }
        }
    }

    /// The `StoreType` spelling of ``destroyPersistentStore(at:ofType:options:)``.
    open func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    /// Replaces the store at `destinationURL` with a copy of the one at `sourceURL`.
    open func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        ofType storeType: String
    ) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Only SQLite stores can be replaced (got \(storeType)).")
        }
        try SQLiteStoreBackend.copyStore(
            from: sourceURL, to: destinationURL, busyTimeout: SQLiteStoreBackend.busyTimeout(destinationOptions))
    }

    /// The `StoreType` spelling of ``replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)``.
    open func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        type: NSPersistentStore.StoreType
    ) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions,
                                   withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions,
                                   ofType: type.rawValue)
    }

    // MARK: - Locking

    /// Takes the coordinator's lock, waiting while another thread holds it. Every
    /// coordinator operation (fetches, saves, adding and removing stores, `perform`) takes
    /// the same lock, so while a thread holds it other threads' contexts wait. The lock is
    /// recursive: the holding thread may go on using the coordinator (its reads then keep
    /// the lock throughout); balance each call with ``unlock()``.
    ///
    /// Apple deprecates it in favour of ``perform(_:)->()`` and ``performAndWait(_:)->()``.
    open func lock() { stateLock.lock() }

    /// Releases the lock taken with ``lock()`` or ``tryLock()``.
    ///
    /// Apple deprecates it in favour of ``perform(_:)->()`` and ``performAndWait(_:)->()``.
    open func unlock() { stateLock.unlock() }

    /// Takes the coordinator's lock if no other thread holds it; true when it did (balance
    /// it with ``unlock()``), false at once otherwise.
    ///
    /// Apple deprecates it in favour of ``perform(_:)->()`` and ``performAndWait(_:)->()``.
    open func tryLock() -> Bool { stateLock.try() }

    // MARK: - Object IDs

    /// The object ID that a URI from `uriRepresentation()` names, or nil when the URI
    /// does not name an entity of one of this coordinator's stores.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host else { return nil }
        // "/<Entity>/p<key>": a custom store's key may itself contain slashes.
        let parts = url.path.drop(while: { $0 == "/" }).split(separator: "/", maxSplits: 1)
        guard parts.count == 2, parts[1].first == "p",
              let entity = managedObjectModel.entitiesByName[String(parts[0])] else { return nil }
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let store = persistentStores.first(where: { $0.identifier == host }),
              let pk = store.primaryKey(forURIKey: String(parts[1].dropFirst()), entity: entity) else { return nil }
        return NSManagedObjectID(entity: entity, store: store, reference: .permanent(pk))
    }

    /// The object ID that a URI string (`uriRepresentation().absoluteString`) names, or nil.
    open func managedObjectID(for string: String) -> NSManagedObjectID? {
        URL(string: string).flatMap(managedObjectID(forURIRepresentation:))
    }

    // MARK: - Serialising work

    /// Runs `block` with the coordinator's lock held, on the calling thread (re-entrant).
    open func performAndWait(_ block: () -> Void) {
        stateLock.lock()
        defer { stateLock.unlock() }
        block()
    }

    /// Runs `block` with the coordinator's lock held and returns its result.
    ///
    /// - Note: Apple parity: Apple's block is `@Sendable`; ours need not be.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try block()
    }

    /// Runs `block` on a background queue with the coordinator's lock held.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { [self] in performAndWait(block) }
    }

    /// Runs `block` on a background queue with the coordinator's lock held and returns its
    /// result.
    ///
    /// - Note: Apple parity: declared with typed throws (`throws(E)`), which behaves as
    ///   Apple's `rethrows`.
    public func perform<T, E: Error>(_ block: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: UncheckedSendableBox<Result<T, E>> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                stateLock.lock()
                defer { stateLock.unlock() }
                let outcome: Result<T, E>
                do throws(E) { outcome = .success(try block()) } catch { outcome = .failure(error) }
                continuation.resume(returning: UncheckedSendableBox(outcome))
            }
        }
        return try result.value.get()
    }

    /// Runs `body` (coordinator calls made for `context`) with `context` as the requesting
    /// context that custom stores receive (`NSIncrementalStore.execute(_:with:)`).
    func serving<T>(_ context: AnyObject, _ body: () throws -> T) rethrows -> T {
        stateLock.lock()
        defer { stateLock.unlock() }
        let previous = requestingContext
        requestingContext = context
        defer { requestingContext = previous }
        return try body()
    }
}
