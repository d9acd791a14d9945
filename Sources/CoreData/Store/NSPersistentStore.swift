import Foundation

/// One store of a coordinator: a SQLite file or an in-memory store.
///
/// ## Topics
/// - ``type``
/// - ``url``
/// - ``identifier``
/// - ``metadata``
/// - ``isReadOnly``
open class NSPersistentStore: NSObject, @unchecked Sendable {
    // @unchecked Sendable: mutable state is reached only under the coordinator's lock.

    /// The kinds of store, in the newer struct spelling (`.sqlite`, `.inMemory`).
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
    }

    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    open var type: String { backend.storeType }
    open var url: URL?
    /// The store UUID (`NSStoreUUID`), also the host part of object ID URIs.
    open var identifier: String! {
        get { metadata[NSStoreUUIDKey] as? String }
        set { metadata[NSStoreUUIDKey] = newValue }
    }
    open var configurationName: String
    open private(set) var options: [AnyHashable: Any]?
    open var isReadOnly: Bool
    /// The store's metadata: `NSStoreType`, `NSStoreUUID`, model version hashes, and any
    /// keys the app set. Written to the store on the next save.
    open var metadata: [String: Any]! {
        get { backend.metadata }
        set { backend.metadata = newValue ?? [:] }
    }

    let backend: StoreBackend
    /// The weak reference every object ID of this store shares.
    /// (Set once, in init.)
    private(set) var reference: StoreReference!

    init(backend: StoreBackend, configurationName: String?, url: URL?, options: [AnyHashable: Any]?) {
        self.backend = backend
        self.url = url
        self.configurationName = configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        super.init()
        reference = StoreReference(self)
    }

    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try SQLiteStoreBackend.readMetadata(at: url)
    }

    open override var description: String {
        "<\(Swift.type(of: self))> (URL: \(url?.absoluteString ?? "nil"))"
    }
}

/// A weak reference to a store, shared by the store's object IDs.
final class StoreReference: @unchecked Sendable {
    // @unchecked Sendable: `store` is a weak reference set once (the runtime makes weak
    // loads thread-safe); `identifier` never changes.
    private(set) weak var store: NSPersistentStore?
    /// `ObjectIdentifier(store)`, fixed at creation.
    let identifier: ObjectIdentifier

    init(_ store: NSPersistentStore) {
        self.store = store
        self.identifier = ObjectIdentifier(store)
    }

    /// The store's identifier while the store exists.
    var liveIdentifier: ObjectIdentifier? { store == nil ? nil : identifier }
}
