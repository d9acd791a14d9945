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
    /// transaction, which the server delivers when it commits. Without history, `onCommit`
    /// gets nil once per commit, and once after the listener lost its connection and listens
    /// again. With history, it gets the number of the newest transaction: the one the
    /// commit recorded (the `NOTIFY`'s payload), or the newest one read from the store after
    /// the listener listens again; commits that record no history are not passed on.
    /// Returns the newest history transaction when watching begins (nil without history).
    ///
    /// - Throws: `NSPersistentStoreOperationError` when the listening connection cannot be
    ///   made, with the server's message.
    @discardableResult
    func watchCommits(_ onCommit: @escaping @Sendable (_ lastTransaction: Int64?) -> Void) throws -> Int64? {
        listener?.cancel()
        listener = nil
        let tracking = tracksHistory && hasHistoryTables
        let url = self.url
        do {
            listener = try PostgreSQLListener(connectionString: url.absoluteString, channel: notifyChannel) { payload in
                guard tracking else { return onCommit(nil) }
                if let payload, let number = Int64(payload) {
                    onCommit(number)
                } else if payload == nil, let newest = Self.newestHistoryNumber(at: url) {
                    // Listening again after a lost connection: commits may have been missed.
                    onCommit(newest)
                }
            }
        } catch let error as PostgreSQLError {
            throw storeError(NSPersistentStoreOperationError, "Watching", error)
        }
        return tracking ? try lastHistoryTransactionNumber() : nil
    }

    /// The newest history transaction of the store at `url`, read on a connection of its own
    /// (the listener's thread must not share the store's); nil when it cannot be read.
    private static func newestHistoryNumber(at url: URL) -> Int64? {
        guard let connection = try? PostgreSQLConnection(connectionString: url.absoluteString),
              let result = try? connection.execute(
                  "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = $1", [.integer(HistorySchema.transactionEntity)])
        else { return nil }
        return result.int64(0, 0)
    }

    /// Sends the store's `NOTIFY`, inside the save's transaction (delivered on commit), with
    /// the number of the history transaction the save recorded as its payload (empty when
    /// it recorded none).
    func notifyCommit(_ transaction: Int64?, on connection: PostgreSQLConnection) throws {
        try connection.execute("SELECT pg_notify($1, $2)", [.text(notifyChannel), .text(transaction.map(String.init) ?? "")])
    }
}
