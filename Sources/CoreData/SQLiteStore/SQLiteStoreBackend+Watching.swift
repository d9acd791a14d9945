import Foundation

// MARK: - Watching the file for commits

extension SQLiteStoreBackend: StoreCommitWatching {
    /// Watches the store's file with a ``SQLiteCommitWatcher``; after each commit it reads
    /// the newest history transaction number (`Z_MAX` of `ATRANSACTION`'s `Z_PRIMARYKEY`
    /// row) when the store tracks history.
    ///
    /// - Throws: `NSPersistentStoreOperationError` for a store in memory (`/dev/null`), or
    ///   when the file cannot be watched.
    @discardableResult
    func watchCommits(_ onCommit: @escaping @Sendable (_ lastTransaction: Int64?) -> Void) throws -> Int64? {
        guard !Self.isInMemoryPath(url) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "A store in memory has no file to watch.")
        }
        let probe = tracksHistory
            ? "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(HistorySchema.transactionEntity)" : nil
        commitWatcher?.cancel()
        do {
            let watcher = try SQLiteCommitWatcher(path: url.path, probe: probe) { probed in
                onCommit(probe == nil ? nil : probed ?? 0)
            }
            commitWatcher = watcher
            return probe == nil ? nil : watcher.currentProbe() ?? 0
        } catch {
            throw CoreDataError.store(NSPersistentStoreOperationError,
                "The store at \(url.path) cannot be watched for changes.", url: url, underlying: error)
        }
    }
}
