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

    open var url: URL?
    /// `NSSQLiteStoreType` (default) or `NSInMemoryStoreType`.
    open var type: String = NSSQLiteStoreType
    open var configuration: String?
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
    open var sqlitePragmas: [String: NSObject] {
        (options[NSSQLitePragmasOption] as? NSDictionary as? [String: NSObject]) ?? [:]
    }

    public override init() {
        super.init()
        shouldMigrateStoreAutomatically = true
        shouldInferMappingModelAutomatically = true
    }

    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    open func setOption(_ option: NSObject?, forKey key: String) {
        options[key] = option
    }

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
