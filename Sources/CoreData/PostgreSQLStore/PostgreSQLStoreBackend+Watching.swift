import Foundation

// MARK: - Remote change notifications through LISTEN/NOTIFY

extension PostgreSQLStoreBackend: StoreCommitWatching {
    /// The channel a save's `NOTIFY` goes to: `coredata_` and the store's UUID, so that
    /// stores in one database (or cluster) do not hear each other.
    var notifyChannel: String {
        "coredata_" + ((metadata[NSStoreUUIDKey] as? String) ?? "").lowercased()
    }

    /// Listens on the store's channel with a ``PostgreSQLListener`` (a connection of its
    /// own): every save of any process on any machine sends a `NOTIFY` there inside its
    /// transaction, which the server delivers when it commits. `onCommit` gets nil (the
    /// PostgreSQL store keeps no persistent history), once per commit, and once after the
    /// listener lost its connection and listens again.
    ///
    /// - Throws: `NSPersistentStoreOperationError` when the listening connection cannot be
    ///   made, with the server's message.
    @discardableResult
    func watchCommits(_ onCommit: @escaping @Sendable (_ lastTransaction: Int64?) -> Void) throws -> Int64? {
        listener?.cancel()
        listener = nil
        do {
            listener = try PostgreSQLListener(connectionString: url.absoluteString, channel: notifyChannel) { _ in
                onCommit(nil)
            }
        } catch let error as PostgreSQLError {
            throw storeError(NSPersistentStoreOperationError, "Watching", error)
        }
        return nil
    }

    /// Sends the store's `NOTIFY`, inside the save's transaction (delivered on commit).
    func notifyCommit(on connection: PostgreSQLConnection) throws {
        try connection.execute("SELECT pg_notify($1, '')", [.text(notifyChannel)])
    }
}
