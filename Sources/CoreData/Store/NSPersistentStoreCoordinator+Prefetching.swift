import Foundation

// MARK: - Reading many rows and relationships at once (relationship prefetching)

extension NSPersistentStoreCoordinator {
    /// Member keys of a to-many relationship for many sources of one store.
    func relatedKeys(_ relationship: NSRelationshipDescription, ofKeys pks: [Int64],
                     in store: NSPersistentStore) throws -> [Int64: [StoreKey]] {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try (pinnedReader(for: store)?.0 ?? store.backend).relatedKeys(relationship: relationship, pks: pks)
    }

    /// Reads into the row cache the rows of those objects of one inheritance family that
    /// are not cached yet, with as few statements as the store needs.
    func cacheRows(entity: NSEntityDescription, pks: [Int64], in store: NSPersistentStore) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let (reader, generation) = pinnedReader(for: store) {
            let missing = pks.filter { generation.rowCache[cacheKey(store, entity, $0)] == nil }
            guard !missing.isEmpty else { return }
            for row in try reader.rows(entity: entity, pks: missing) {
                generation.rowCache[cacheKey(store, row.entity, row.pk)] = row
            }
            return
        }
        let missing = pks.filter { rowCacheEntry(cacheKey(store, entity, $0)) == nil }
        guard !missing.isEmpty else { return }
        for row in try store.backend.rows(entity: entity, pks: missing) {
            setRowCacheEntry(row, for: cacheKey(store, row.entity, row.pk))
        }
    }
}
