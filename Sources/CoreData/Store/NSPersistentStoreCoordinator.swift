import Foundation

/// Connects contexts to stores: it owns the stores, routes each entity to the store of
/// its configuration, and keeps one row cache that all its contexts fulfil faults from.
///
/// Thread-safe: every entry point takes the coordinator's lock.
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
/// ### Metadata
/// - ``metadata(for:)``
/// - ``metadataForPersistentStore(ofType:at:options:)``
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is guarded by `lock`.

    public let managedObjectModel: NSManagedObjectModel
    open private(set) var persistentStores: [NSPersistentStore] = []
    open var name: String?

    let lock = NSRecursiveLock()
    /// Rows read from the stores, shared by every context of this coordinator.
    private var rowCache: [RowCacheKey: StoreRow] = [:]

    /// Row cache access for the coordinator's extensions (call with `lock` held).
    func rowCacheEntry(_ key: RowCacheKey) -> StoreRow? { rowCache[key] }
    func setRowCacheEntry(_ row: StoreRow, for key: RowCacheKey) { rowCache[key] = row }
    /// Keys of batched fetch results whose rows are not read yet
    /// (`NSPersistentStoreCoordinator+Batches.swift`).
    var faultBatches = FaultBatches()

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

    /// Adds a store (Apple's older spelling).
    @discardableResult
    open func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
        options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        lock.lock()
        defer { lock.unlock() }
        let entities = managedObjectModel.entities(forConfigurationName: configuration) ?? []
        if let configuration, configuration != "Default",
           managedObjectModel.entities(forConfigurationName: configuration) == nil {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The model has no configuration named \(configuration).")
        }
        let backend: StoreBackend
        switch storeType {
        case NSSQLiteStoreType:
            guard let storeURL, storeURL.isFileURL || storeURL.scheme == nil else {
                throw CoreDataError.make(
                    NSPersistentStoreOpenError,
                    "A SQLite store needs a file URL, not \(storeURL?.absoluteString ?? "nil").")
            }
            if let existing = persistentStores.first(where: { $0.url?.standardizedFileURL == storeURL.standardizedFileURL }) {
                _ = existing
                throw CoreDataError.store(NSPersistentStoreOpenError, "The store at \(storeURL.path) is already added to this coordinator.", url: storeURL)
            }
            backend = SQLiteStoreBackend(url: storeURL, options: options ?? [:])
        case NSInMemoryStoreType:
            backend = InMemoryStoreBackend()
        default:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type \(storeType); use NSSQLiteStoreType or NSInMemoryStoreType.")
        }
        let store = NSPersistentStore(backend: backend, configurationName: configuration, url: storeURL, options: options)
        try backend.load(model: managedObjectModel, entities: entities)
        store.persistentStoreCoordinator = self
        persistentStores.append(store)
        return store
    }

    /// Adds a store (the `StoreType` spelling of the seeds).
    @discardableResult
    open func addPersistentStore(
        type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    open func remove(_ store: NSPersistentStore) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let index = persistentStores.firstIndex(where: { $0 === store }) else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The store at \(store.url?.path ?? "(no URL)") is not added to this coordinator.")
        }
        persistentStores.remove(at: index)
        let id = ObjectIdentifier(store)
        rowCache = rowCache.filter { $0.key.store != id }
        faultBatches.removeAll(store: id)
        store.backend.close()
        store.persistentStoreCoordinator = nil
    }

    open func persistentStore(for url: URL) -> NSPersistentStore? {
        lock.lock()
        defer { lock.unlock() }
        return persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    // MARK: - Metadata

    open func metadata(for store: NSPersistentStore) -> [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        return store.metadata
    }

    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        lock.lock()
        defer { lock.unlock() }
        var merged = metadata ?? [:]
        merged[NSStoreUUIDKey] = store.identifier
        merged[NSStoreTypeKey] = store.type
        store.metadata = merged
    }

    /// Reads a store's metadata without adding it.
    open class func metadataForPersistentStore(
        ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Only SQLite stores have metadata on disk (got \(storeType)).")
        }
        return try SQLiteStoreBackend.readMetadata(at: url, options: options)
    }

    open class func metadataForPersistentStore(
        type: NSPersistentStore.StoreType, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    // MARK: - Destroying and replacing

    /// Deletes a store's files (the database, its `-wal` and `-shm`).
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        lock.lock()
        defer { lock.unlock() }
        if let store = persistentStores.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
            try remove(store)
        }
        guard storeType == NSSQLiteStoreType else { return }
        try SQLiteStoreBackend.destroyFiles(at: url, busyTimeout: SQLiteStoreBackend.busyTimeout(options))
    }

    open func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    /// Replaces the store at `destinationURL` with a copy of the one at `sourceURL`.
    open func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        ofType storeType: String
    ) throws {
        lock.lock()
        defer { lock.unlock() }
        guard storeType == NSSQLiteStoreType else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Only SQLite stores can be replaced (got \(storeType)).")
        }
        try SQLiteStoreBackend.copyStore(
            from: sourceURL, to: destinationURL, busyTimeout: SQLiteStoreBackend.busyTimeout(destinationOptions))
    }

    open func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        type: NSPersistentStore.StoreType
    ) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions,
                                   withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions,
                                   ofType: type.rawValue)
    }

    // MARK: - Object IDs

    /// The object ID that a URI from `uriRepresentation()` names, or nil when the URI
    /// does not name an entity of one of this coordinator's stores.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let pk = Int64(parts[1].dropFirst()), pk > 0,
              let entity = managedObjectModel.entitiesByName[String(parts[0])] else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let store = persistentStores.first(where: { $0.identifier == host }) else { return nil }
        return NSManagedObjectID(entity: entity, store: store, reference: .permanent(pk))
    }

    // MARK: - Serialising work

    open func performAndWait(_ block: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        block()
    }

    open func perform(_ block: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { [self] in performAndWait(block) }
    }

    // MARK: - Internal: routing, rows and saving

    /// The store that holds objects of `entity`: the first whose configuration has it.
    func store(for entity: NSEntityDescription) -> NSPersistentStore? {
        lock.lock()
        defer { lock.unlock() }
        let root = entity.runtime.root
        return persistentStores.first { store in
            let members = managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []
            return members.contains { $0 === entity || $0 === root }
        } ?? persistentStores.first
    }

    /// The stores whose configuration holds `entity` (its inheritance root), among
    /// `candidates` (every store when nil). Throws when the coordinator has no store at all.
    func stores(for entity: NSEntityDescription, among candidates: [NSPersistentStore]?) throws -> [NSPersistentStore] {
        lock.lock()
        defer { lock.unlock() }
        let root = entity.runtime.root
        let stores = (candidates ?? persistentStores).filter { store in
            guard store.persistentStoreCoordinator === self else { return false }
            let members = managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []
            return members.contains { $0 === entity || $0 === root }
        }
        if stores.isEmpty && persistentStores.isEmpty {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The context's coordinator has no persistent stores.")
        }
        return stores
    }

    func cacheKey(_ store: NSPersistentStore, _ entity: NSEntityDescription, _ pk: Int64) -> RowCacheKey {
        RowCacheKey(store: ObjectIdentifier(store), root: entity.runtime.rootID, pk: pk)
    }

    /// Runs a fetch on one store and caches its rows.
    func fetchRows(_ plan: FetchPlan, in store: NSPersistentStore) throws -> [StoreRow] {
        lock.lock()
        defer { lock.unlock() }
        let rows = try store.backend.fetch(plan)
        rowCache.reserveCapacity(rowCache.count + rows.count)
        for row in rows { rowCache[cacheKey(store, row.entity, row.pk)] = row }
        return rows
    }

    /// A store's ``StoreBackend/fetchColumns(_:slots:_:)`` under the coordinator's lock.
    func fetchColumns(_ plan: FetchPlan, slots: [Int32], in store: NSPersistentStore,
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return try store.backend.fetchColumns(plan, slots: slots, body)
    }

    func count(_ plan: FetchPlan, in store: NSPersistentStore) throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        return try store.backend.count(plan)
    }

    /// The row of an object: from the cache, or read from its store (and cached).
    ///
    /// A cached row older than `maxAge` seconds is read again (a context's
    /// `stalenessInterval`; negative means any age).
    func row(for objectID: NSManagedObjectID, maxAge: TimeInterval = -1) throws -> StoreRow? {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let key = cacheKey(store, objectID.entity, pk)
        if let row = rowCache[key] {
            if maxAge < 0 || ProcessInfo.processInfo.systemUptime - row.loadedAt <= maxAge { return row }
            rowCache.removeValue(forKey: key)
        }
        if let batch = faultBatches.take(key) {
            for row in try store.backend.rows(entity: batch.entity, pks: batch.pks) {
                rowCache[cacheKey(store, row.entity, row.pk)] = row
            }
            if let row = rowCache[key] { return row }
        }
        guard let row = try store.backend.row(entity: objectID.entity, pk: pk) else { return nil }
        rowCache[key] = row
        return row
    }

    func relatedKeys(_ relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [StoreKey] {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return [] }
        lock.lock()
        defer { lock.unlock() }
        if let rows = try store.backend.relatedRows(relationship: relationship, pk: pk) {
            // The members' faults will fire from the cache instead of a query each.
            for row in rows { rowCache[cacheKey(store, row.entity, row.pk)] = row }
            return rows.map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) }
        }
        return try store.backend.relatedKeys(relationship: relationship, pk: pk)
    }

    func allocateKeys(entity: NSEntityDescription, count: Int, in store: NSPersistentStore) throws -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        return try store.backend.allocateKeys(entity: entity, count: count)
    }

    /// Applies one save to one store, then refreshes the row cache with what was written.
    func apply(_ changes: StoreChanges, to store: NSPersistentStore) throws {
        lock.lock()
        defer { lock.unlock() }
        try store.backend.save(changes)
        for write in changes.inserts + changes.updates {
            rowCache[cacheKey(store, write.entity, write.pk)] = write.values
        }
        for delete in changes.deletes {
            rowCache.removeValue(forKey: cacheKey(store, delete.entity, delete.pk))
        }
    }

    /// Forgets cached rows (used when a context refreshes objects from the store).
    func evictRow(for objectID: NSManagedObjectID) {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return }
        lock.lock()
        defer { lock.unlock() }
        rowCache.removeValue(forKey: cacheKey(store, objectID.entity, pk))
    }
}
