import Foundation

// MARK: - NSPersistentStoreRemoteChange

extension NSPersistentStoreCoordinator {
    /// Starts posting `NSPersistentStoreRemoteChange` for `store` when it was added with
    /// ``NSPersistentStoreRemoteChangeNotificationPostOptionKey`` set to true and can be
    /// watched (a SQLite store in a file). Call with `stateLock` held, after the store loaded.
    ///
    /// Each commit to the file, by this coordinator, another one or another process, posts
    /// a notification on the watcher's private queue, with the coordinator as its object:
    /// when the store tracks history, one per new history transaction, each with that
    /// transaction's token; otherwise one per commit seen.
    func startRemoteChangeNotifications(for store: NSPersistentStore) throws {
        guard Self.wantsRemoteChangeNotifications(store.options),
              let watching = store.backend as? any StoreCommitWatching,
              let url = store.url, !SQLiteStoreBackend.isInMemoryPath(url) else { return }
        let post = RemoteChangePoster(coordinator: self, store: store, url: url, uuid: store.identifier ?? "")
        let first = try watching.watchCommits { lastTransaction in post.commit(lastTransaction) }
        post.start(at: first)
    }

    /// Whether `options` ask for remote change notifications (a true number or Boolean).
    static func wantsRemoteChangeNotifications(_ options: [AnyHashable: Any]?) -> Bool {
        let value = options?[NSPersistentStoreRemoteChangeNotificationPostOptionKey]
        return (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
    }
}

/// Turns the commits a store's watcher reports into `NSPersistentStoreRemoteChange`
/// notifications.
final class RemoteChangePoster: @unchecked Sendable {
    // @unchecked Sendable: `lastTransaction` is guarded by `lock`; the rest never changes
    // (the references are weak, so the watcher keeps neither coordinator nor store alive).
    private weak var coordinator: NSPersistentStoreCoordinator?
    private weak var store: NSPersistentStore?
    private let url: URL
    private let uuid: String
    private let lock = NSLock()
    private var lastTransaction: Int64?

    init(coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore, url: URL, uuid: String) {
        self.coordinator = coordinator
        self.store = store
        self.url = url
        self.uuid = uuid
    }

    /// The newest history transaction when watching began (nil without history).
    func start(at transaction: Int64?) {
        lock.withLock { if lastTransaction == nil { lastTransaction = transaction } }
    }

    /// A commit was seen; `newest` is the newest history transaction then (nil without
    /// history). With history, posts one notification per transaction after the last one
    /// posted, and none for a commit that recorded no transaction (a save's reservation of
    /// primary keys, say); without history, one per commit seen.
    func commit(_ newest: Int64?) {
        guard let coordinator, store?.persistentStoreCoordinator === coordinator else { return }
        let transactions: [Int64?] = lock.withLock {
            guard let newest else { return [nil] }
            let previous = lastTransaction ?? 0
            lastTransaction = max(previous, newest)
            return newest > previous ? (previous + 1...newest).map { $0 } : []
        }
        for transaction in transactions {
            var info: [AnyHashable: Any] = [NSPersistentStoreURLKey: url, NSStoreUUIDKey: uuid]
            if let transaction {
                info[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(storeTokens: [uuid: transaction])
            }
            NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: info)
        }
    }
}
