import Foundation

/// The batches of a `fetchBatchSize` fetch whose rows have not been read: the first
/// fault fired in a batch reads the rows of the whole batch with one statement.
///
/// Guarded by the coordinator's lock, like the row cache. A batch nobody touches stays
/// until its store is removed (a few bytes per key).
struct FaultBatches {
    struct Batch {
        let entity: NSEntityDescription
        let pks: [Int64]
        let keys: [NSPersistentStoreCoordinator.RowCacheKey]
    }
    private var batchOf: [NSPersistentStoreCoordinator.RowCacheKey: Int] = [:]
    private var batches: [Int: Batch] = [:]
    private var nextID = 0

    mutating func add(_ batch: Batch) {
        nextID += 1
        batches[nextID] = batch
        for key in batch.keys { batchOf[key] = nextID }
    }

    /// The pending batch holding `key`, now forgotten (its rows are about to be read).
    mutating func take(_ key: NSPersistentStoreCoordinator.RowCacheKey) -> Batch? {
        guard let id = batchOf[key], let batch = batches.removeValue(forKey: id) else { return nil }
        for other in batch.keys where batchOf[other] == id { batchOf.removeValue(forKey: other) }
        return batch
    }

    /// Forgets the batches of one store (when it is removed).
    mutating func removeAll(store: ObjectIdentifier) {
        batchOf = batchOf.filter { $0.key.store != store }
        batches = batches.filter { $0.value.keys.first?.store != store }
    }
}

// MARK: - Fetching keys

extension NSPersistentStoreCoordinator {
    /// The keys a fetch selects, without their rows. With a `batchSize`, the keys are
    /// remembered in batches of that size (per inheritance root, in result order) so that
    /// touching one object reads its whole batch.
    func fetchKeys(_ plan: FetchPlan, in store: NSPersistentStore, batchSize: Int) throws -> [StoreKey] {
        stateLock.lock()
        defer { stateLock.unlock() }
        let keys = try (pinnedReader(for: store)?.0 ?? store.backend).fetchKeys(plan)
        guard batchSize > 0 else { return keys }
        let model = managedObjectModel
        var start = 0
        while start < keys.count {
            let slice = keys[start..<min(keys.count, start + batchSize)]
            start += slice.count
            var byRoot: [ObjectIdentifier: (NSEntityDescription, [Int64], [RowCacheKey])] = [:]
            for key in slice {
                guard let entity = model.entity(forID: key.entityID) else { continue }
                let root = entity.runtime.root
                let cacheKey = cacheKey(store, entity, key.pk)
                byRoot[ObjectIdentifier(root), default: (root, [], [])].1.append(key.pk)
                byRoot[ObjectIdentifier(root), default: (root, [], [])].2.append(cacheKey)
            }
            for (_, group) in byRoot {
                faultBatches.add(FaultBatches.Batch(entity: group.0, pks: group.1, keys: group.2))
            }
        }
        return keys
    }
}
