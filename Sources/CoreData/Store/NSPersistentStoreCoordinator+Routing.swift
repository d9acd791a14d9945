import Foundation

// MARK: - Routing, rows and saving

/// What contexts and requests ask of the coordinator below its public API: which store holds
/// an entity, rows read through the row cache, keys for new objects, and saves applied to
/// one store.
extension NSPersistentStoreCoordinator {
    /// The store that holds objects of `entity`: the first whose configuration has it.
    func store(for entity: NSEntityDescription) -> NSPersistentStore? {
        stateLock.lock()
        defer { stateLock.unlock() }
        let root = entity.runtime.root
        return persistentStores.first { store in
            let members = managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []
            return members.contains { $0 === entity || $0 === root }
        } ?? persistentStores.first
    }

    /// The stores whose configuration holds `entity` (its inheritance root), among
    /// `candidates` (every store when nil). Throws when the coordinator has no store at all.
    func stores(for entity: NSEntityDescription, among candidates: [NSPersistentStore]?) throws -> [NSPersistentStore] {
        stateLock.lock()
        defer { stateLock.unlock() }
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

    /// Runs a fetch on one store and caches its rows (read outside the coordinator's lock
    /// when the store has readers: ``readOutsideLock(_:_:keep:)``).
    func fetchRows(_ plan: FetchPlan, in store: NSPersistentStore) throws -> [StoreRow] {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, generation) = pinnedReader(for: store) {
            let rows = try reader.fetch(plan)
            for row in rows { generation.rowCache[cacheKey(store, row.entity, row.pk)] = row }
            return rows
        }
        return try readOutsideLock(store, { try $0.fetch(plan) }, keep: { rows in
            // Filled through a local: a write to the stored property per row would begin
            // and end a dynamic exclusivity access each time.
            var cache: [RowCacheKey: StoreRow] = [:]
            swap(&cache, &rowCache)
            defer { swap(&cache, &rowCache) }
            cache.reserveCapacity(cache.count + rows.count)
            let storeID = ObjectIdentifier(store)
            var last: (entity: NSEntityDescription?, root: ObjectIdentifier?) = (nil, nil)
            for row in rows {
                if last.entity !== row.entity { last = (row.entity, row.entity.runtime.rootID) }
                cache[RowCacheKey(store: storeID, root: last.root!, pk: row.pk)] = row
            }
        })
    }

    /// A store's ``StoreBackend/fetchColumns(_:slots:_:)``: on one of its readers outside
    /// the coordinator's lock when it has them (`body` then runs outside it too).
    func fetchColumns(_ plan: FetchPlan, slots: [Int32], in store: NSPersistentStore,
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, _) = pinnedReader(for: store) { return try reader.fetchColumns(plan, slots: slots, body) }
        return try readOutsideLock(store, { try $0.fetchColumns(plan, slots: slots, body) })
    }

    /// A store's ``AggregatingStoreBackend/fetchAggregates(_:)``, read as
    /// ``fetchColumns(_:slots:in:_:)`` reads; nil when the store computes no aggregates.
    func fetchAggregates(_ query: StoreAggregateQuery, in store: NSPersistentStore) throws -> [[StoreAggregateValue]]? {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, _) = pinnedReader(for: store) { return try (reader as? AggregatingStoreBackend)?.fetchAggregates(query) }
        return try readOutsideLock(store, { try ($0 as? AggregatingStoreBackend)?.fetchAggregates(query) })
    }

    func count(_ plan: FetchPlan, in store: NSPersistentStore) throws -> Int {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, _) = pinnedReader(for: store) { return try reader.count(plan) }
        return try readOutsideLock(store, { try $0.count(plan) })
    }

    /// The row of an object: from the cache, or read from its store (and cached).
    ///
    /// A cached row older than `maxAge` seconds is read again (a context's
    /// `stalenessInterval`; negative means any age).
    func row(for objectID: NSManagedObjectID, maxAge: TimeInterval = -1) throws -> StoreRow? {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return nil }
        stateLock.lock()
        defer { stateLock.unlock() }
        let key = cacheKey(store, objectID.entity, pk)
        if let (reader, generation) = pinnedReader(for: store) {
            return try pinnedRow(key, objectID, reader, generation)
        }
        if let row = rowCache[key] {
            if maxAge < 0 || StoreRow.now() - row.loadedAt <= maxAge { return row }
            rowCache.removeValue(forKey: key)
        }
        if let batch = faultBatches.take(key) {
            let rows = try readOutsideLock(store, { try $0.rows(entity: batch.entity, pks: batch.pks) }, keep: { rows in
                for row in rows { rowCache[cacheKey(store, row.entity, row.pk)] = row }
            })
            if let row = rows.first(where: { cacheKey(store, $0.entity, $0.pk) == key }) { return row }
        }
        return try readOutsideLock(store, { try $0.row(entity: objectID.entity, pk: pk) }, keep: { row in
            if let row { rowCache[key] = row }
        })
    }

    /// ``row(for:maxAge:)`` for a context pinned to `generation`: the generation's cache, or
    /// its reader (a pending fault batch is read there too). Rows of a snapshot never age.
    private func pinnedRow(_ key: RowCacheKey, _ objectID: NSManagedObjectID, _ reader: StoreBackend,
                           _ generation: QueryGeneration) throws -> StoreRow? {
        if let row = generation.rowCache[key] { return row }
        guard let store = objectID.persistentStore, let pk = objectID.primaryKey else { return nil }
        if let batch = faultBatches.take(key) {
            for row in try reader.rows(entity: batch.entity, pks: batch.pks) {
                generation.rowCache[cacheKey(store, row.entity, row.pk)] = row
            }
            if let row = generation.rowCache[key] { return row }
        }
        guard let row = try reader.row(entity: objectID.entity, pk: pk) else { return nil }
        generation.rowCache[key] = row
        return row
    }

    func relatedKeys(_ relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [StoreKey] {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return [] }
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, generation) = pinnedReader(for: store) {
            if let rows = try reader.relatedRows(relationship: relationship, pk: pk) {
                for row in rows { generation.rowCache[cacheKey(store, row.entity, row.pk)] = row }
                return rows.map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) }
            }
            return try reader.relatedKeys(relationship: relationship, pk: pk)
        }
        let (rows, keys) = try readOutsideLock(store, { backend -> ([StoreRow]?, [StoreKey]) in
            if let rows = try backend.relatedRows(relationship: relationship, pk: pk) { return (rows, []) }
            return (nil, try backend.relatedKeys(relationship: relationship, pk: pk))
        }, keep: { rows, _ in
            // The members' faults will fire from the cache instead of a query each.
            for row in rows ?? [] { rowCache[cacheKey(store, row.entity, row.pk)] = row }
        })
        return rows.map { $0.map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) } } ?? keys
    }

    /// Keys a store chooses for new objects itself (``StoreBackend/obtainKeys(for:)``).
    func obtainKeys(for objects: [AnyObject], in store: NSPersistentStore) throws -> [StoreKey]? {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try store.backend.obtainKeys(for: objects)
    }

    func allocateKeys(entity: NSEntityDescription, count: Int, in store: NSPersistentStore) throws -> Int64 {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try store.backend.allocateKeys(entity: entity, count: count)
    }

    /// Applies one save to one store, then refreshes the row cache with what was written.
    ///
    /// For a store that does not check optimistic locking itself, the versions the context
    /// read are checked here against the cached rows (this coordinator's last read or write
    /// of each): a row another context of this coordinator saved since is a conflict. A row
    /// not cached is left to the store.
    func apply(_ changes: StoreChanges, to store: NSPersistentStore) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        if !store.backend.checksVersions {
            try changes.checkVersions { check in
                rowCache[cacheKey(store, check.entity, check.pk)]?.version ?? check.expectedVersion
            }
        }
        rowEpoch &+= 1
        try store.backend.save(changes)
        // Filled through a local (a write per row to the stored property would begin a
        // dynamic exclusivity access each time), the inserts and updates without joining
        // them into a new array first, each entity's root looked up once per run.
        var cache: [RowCacheKey: StoreRow] = [:]
        swap(&cache, &rowCache)
        defer { swap(&cache, &rowCache) }
        cache.reserveCapacity(cache.count + changes.inserts.count + changes.updates.count)
        let storeID = ObjectIdentifier(store)
        var last: (entity: NSEntityDescription?, root: ObjectIdentifier) = (nil, storeID)
        for writes in [changes.inserts, changes.updates] {
            for write in writes {
                if last.entity !== write.entity { last = (write.entity, write.entity.runtime.rootID) }
                cache[RowCacheKey(store: storeID, root: last.root, pk: write.pk)] = write.values
            }
        }
        for delete in changes.deletes {
            cache.removeValue(forKey: cacheKey(store, delete.entity, delete.pk))
        }
    }

    /// Forgets cached rows (used when a context refreshes objects from the store).
    func evictRow(for objectID: NSManagedObjectID) {
        guard let pk = objectID.primaryKey, let store = objectID.persistentStore else { return }
        stateLock.lock()
        defer { stateLock.unlock() }
        rowEpoch &+= 1
        rowCache.removeValue(forKey: cacheKey(store, objectID.entity, pk))
    }
}
