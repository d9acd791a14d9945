import Foundation

// MARK: - Reads outside the lock

extension NSPersistentStoreCoordinator {
    /// Runs `read` on one of `store`'s own readers (``ConcurrentReading``) with the
    /// coordinator's lock released, so that contexts on other threads fetch, fire faults
    /// and save meanwhile; then, with the lock held again, `keep` puts what was read in the
    /// row cache. Without a reader, `read` runs on the store itself, under the lock.
    ///
    /// Writes stay ordered: a save or a batch request that lands while the reader reads
    /// moves ``rowEpoch``, and the read is then made again under the lock (the reader may
    /// have seen the store before or after the write: its rows must not overwrite what the
    /// write cached).
    ///
    /// Call with `stateLock` held (once: a thread that holds it recursively keeps it).
    func readOutsideLock<T>(_ store: NSPersistentStore, _ read: (StoreBackend) throws -> T,
                            keep: (T) -> Void) throws -> T {
        let (value, current) = try readOutsideLock(store, read, redoAfterWrites: true)
        if !current { return value }
        keep(value)
        return value
    }

    /// ``readOutsideLock(_:_:keep:)`` for a read whose result is not cached: it stands as it
    /// is, having seen the store as it was at some moment during the call.
    func readOutsideLock<T>(_ store: NSPersistentStore, _ read: (StoreBackend) throws -> T) throws -> T {
        try readOutsideLock(store, read, redoAfterWrites: false).value
    }

    /// The read, and whether it is current (made under the lock, or outside it with no
    /// write landing meanwhile) and may be cached. With `redoAfterWrites`, a read that a
    /// write overtook is made again under the lock (and is then current).
    private func readOutsideLock<T>(_ store: NSPersistentStore, _ read: (StoreBackend) throws -> T,
                                    redoAfterWrites: Bool) throws -> (value: T, current: Bool) {
        let backend = store.backend
        guard let pool = backend as? any ConcurrentReading, let reader = pool.checkOutReader() else {
            return (try read(backend), true)
        }
        let epoch = rowEpoch
        stateLock.unlock()
        let outcome = Result { try read(reader) }
        stateLock.lock()
        pool.checkInReader(reader)
        if rowEpoch == epoch || !redoAfterWrites { return (try outcome.get(), rowEpoch == epoch) }
        return (try read(store.backend), true)
    }
}
