import Foundation

// MARK: - Letting go of cached rows

extension NSPersistentStoreCoordinator {
    /// Drops every cached row that nothing but the cache holds: a row stays while an
    /// object of some context keeps it as its committed snapshot. Called when a context
    /// resets, so that the rows of the objects it let go of do not outlive them (Apple's
    /// coordinator reference-counts its snapshots the same way).
    ///
    /// A fault of another context whose row is dropped reads it again from its store when
    /// it fires. The cache is rebuilt at the size of what stays, so that its buckets are
    /// freed too.
    func releaseUnheldRows() {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard !rowCache.isEmpty else { return }
        var held: [(RowCacheKey, StoreRow)] = []
        // Walks the indices one by one: `rowCache.indices` would hold a second reference to
        // the storage, so the first in-place access would copy it (and every row would look
        // shared).
        var index = rowCache.startIndex
        while index != rowCache.endIndex {
            if !isKnownUniquelyReferenced(&rowCache.values[index]) {
                held.append((rowCache.keys[index], rowCache.values[index]))
            }
            rowCache.formIndex(after: &index)
        }
        guard held.count < rowCache.count else { return }
        rowCache = Dictionary(uniqueKeysWithValues: held)
    }
}
