import Foundation

/// How a container adds one store: where, of what type, with which options.
///
/// ## Topics
/// - ``url``
/// - ``type``
/// - ``isReadOnly``
/// - ``shouldAddStoreAsynchronously``
/// - ``shouldMigrateStoreAutomatically``
/// - ``shouldInferMappingModelAutomatically``
open class NSPersistentStoreDescription: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread before `loadPersistentStores`.

    /// The store's file (for the in-memory store, any URL or nil).
    open var url: URL?
    /// `NSSQLiteStoreType` (default) or `NSInMemoryStoreType`.
    open var type: String = NSSQLiteStoreType
    /// The model configuration whose entities the store holds; nil for all of them.
    open var configuration: String?
    /// The options passed to the coordinator when the store is added, keyed by the `NS…Option`
    /// constants. The typed properties below read and write this dictionary.
    open private(set) var options: [String: NSObject] = [:]
    /// `NSReadOnlyPersistentStoreOption`: the store is only read; saving into it fails
    /// with `NSPersistentStoreSaveError`, and a store that does not exist is an error.
    ///
    /// - Note: Apple parity: a SQLite store opened read-only writes nothing, not even
    ///   SQLite's `-wal` and `-shm` files, so it opens in a folder the process cannot
    ///   write, and its WAL's content is read. A store in WAL mode is then read without
    ///   locks, as of the moment it opens: another process writing it meanwhile is not
    ///   seen, and may make a read fail.
    open var isReadOnly: Bool {
        get { (options[NSReadOnlyPersistentStoreOption] as? NSNumber)?.boolValue ?? false }
        set { options[NSReadOnlyPersistentStoreOption] = NSNumber(value: newValue) }
    }
    /// `NSPersistentStoreTimeoutOption`: how long, in seconds, the store waits for
    /// another connection's lock (when it opens and on every read or save); 240 unless set.
    open var timeout: TimeInterval {
        get { (options[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue ?? 240 }
        set { options[NSPersistentStoreTimeoutOption] = NSNumber(value: newValue) }
    }
    /// Adds the store on a background queue: ``NSPersistentContainer/loadPersistentStores(completionHandler:)``
    /// returns at once and calls its handler from that queue. Default false.
    open var shouldAddStoreAsynchronously = false
    /// `NSMigratePersistentStoresAutomaticallyOption` (default true).
    open var shouldMigrateStoreAutomatically: Bool {
        get { (options[NSMigratePersistentStoresAutomaticallyOption] as? NSNumber)?.boolValue ?? true }
        set { options[NSMigratePersistentStoresAutomaticallyOption] = NSNumber(value: newValue) }
    }
    /// `NSInferMappingModelAutomaticallyOption` (default true).
    open var shouldInferMappingModelAutomatically: Bool {
        get { (options[NSInferMappingModelAutomaticallyOption] as? NSNumber)?.boolValue ?? true }
        set { options[NSInferMappingModelAutomaticallyOption] = NSNumber(value: newValue) }
    }
    /// The SQLite pragmas run when the store opens (``NSSQLitePragmasOption``); set them with
    /// ``setValue(_:forPragmaNamed:)``.
    open var sqlitePragmas: [String: NSObject] {
        (options[NSSQLitePragmasOption] as? NSDictionary as? [String: NSObject]) ?? [:]
    }

    public override init() {
        super.init()
        shouldMigrateStoreAutomatically = true
        shouldInferMappingModelAutomatically = true
    }

    /// Describes a SQLite store at `url`, migrated automatically with an inferred mapping when
    /// its model version differs.
    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    /// Sets (or, with nil, removes) the store option `key`.
    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

    /// Sets (or, with nil, removes) the SQLite pragma `name`, run when the store opens:
    /// `setValue("DELETE" as NSString, forPragmaNamed: "journal_mode")`.
    open func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        options[NSSQLitePragmasOption] = pragmas as NSDictionary
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreDescription()
        copy.url = url
        copy.type = type
        copy.configuration = configuration
        copy.options = options
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        return copy
    }

    open override var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.path ?? "nil"))"
    }
}
