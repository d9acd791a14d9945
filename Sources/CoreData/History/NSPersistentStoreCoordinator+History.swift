import Foundation

// MARK: - Persistent history tokens

extension NSPersistentStoreCoordinator {
    /// A token for the newest transaction of each of `stores` (every store of the
    /// coordinator when nil) that records persistent history; nil when none does.
    ///
    /// ```swift
    /// let token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    /// // later: NSPersistentHistoryChangeRequest.fetchHistory(after: token)
    /// ```
    ///
    /// - Note: Apple parity: declared in an extension, so not overridable.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        stateLock.lock()
        defer { stateLock.unlock() }
        let chosen = stores?.compactMap { $0 as? NSPersistentStore } ?? persistentStores
        var tokens: [String: Int64] = [:]
        for store in chosen {
            guard let keeper = store.backend as? any HistoryKeeping, keeper.tracksHistory,
                  let identifier = store.identifier,
                  let number = try? keeper.lastHistoryTransactionNumber() else { continue }
            tokens[identifier] = number
        }
        return tokens.isEmpty ? nil : NSPersistentHistoryToken(storeTokens: tokens)
    }
}
