import Foundation

// MARK: - Saving

extension PostgreSQLStoreBackend {
    /// Reserves keys with one atomic `UPDATE … RETURNING` on the root's `Z_PRIMARYKEY` row:
    /// two processes never get the same key (the row lock orders them), and a save that fails
    /// later only leaves a gap.
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        guard count > 0 else { return 0 }
        try checkWritable()
        let root = Int64(entity.runtime.root.runtime.entityID)
        let connection = try requireConnection()
        do {
            let result = try connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + $1 WHERE Z_ENT = $2 RETURNING Z_MAX",
                [.integer(Int64(count)), .integer(root)])
            guard let max = result.int64(0, 0) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "Z_PRIMARYKEY has no row for \(entity.runtime.root.name ?? "?").")
            }
            return max - Int64(count) + 1
        } catch let error as PostgreSQLError {
            throw storeError(NSPersistentStoreSaveError, "Reserving keys in", error)
        }
    }

    func checkWritable() throws {
        if isReadOnly {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store at \(displayURL) was opened read-only.")
        }
    }

    /// Applies a change set in one transaction (READ COMMITTED). Every update and delete must
    /// find its row at the version the context read (`Z_OPT`), else the transaction is rolled
    /// back and `StoreConflict` thrown, naming every row in conflict. Locked rows are read
    /// `FOR SHARE`, so they cannot change before the commit.
    ///
    /// A connection lost during the save is never saved again: the server rolled back what it
    /// had not committed, and the error reaches `save()` (`NSPersistentStoreSaveError`, the
    /// server's message in the description); the next call reconnects. A connection lost
    /// while COMMIT's reply was awaited is asked about after reconnecting: a save the server
    /// committed succeeds (``PostgreSQLConnection/transaction(isolation:_:)``), so the context
    /// never saves it a second time. A save the server
    /// refused as a serialization failure or a deadlock (SQLSTATE 40001, 40P01: nothing was
    /// committed) is run again, up to ``saveAttempts`` times in all. With
    /// `NSPostgreSQLSerializableOption`, saves run at SERIALIZABLE. Each save ends with a
    /// `NOTIFY` on the store's channel, which listeners hear when it commits
    /// (``watchCommits(_:)``). With `NSPersistentHistoryTrackingKey`, the save's history
    /// transaction is written last, its number taken under an advisory lock held until the
    /// commit, so numbers follow commit order (``willRecordHistory(on:)``); at SERIALIZABLE
    /// the lock is taken before the transaction begins, so such saves run one at a time.
    func save(_ changes: StoreChanges) throws {
        try checkWritable()
        let recordsHistory = !(changes.inserts.isEmpty && changes.updates.isEmpty && changes.deletes.isEmpty)
        try writeTransaction(recordsHistory: recordsHistory, action: "Saving to") { connection in
            let transaction = try applyChanges(changes, on: connection)
            // Delivered to every listener when the transaction commits, never if it fails.
            try notifyCommit(transaction, on: connection)
        }
        storedMetadata = metadata as NSDictionary
    }

    /// Runs `body` in one write transaction (READ COMMITTED, or SERIALIZABLE with
    /// `NSPostgreSQLSerializableOption`), run again from the start when the server refused
    /// it as a serialization failure or a deadlock (SQLSTATE 40001, 40P01: nothing was
    /// committed), up to ``saveAttempts`` times in all. PostgreSQL failures become
    /// `NSPersistentStoreSaveError` (a unique index: `NSManagedObjectConstraintMergeError`),
    /// described as `action` the store. `recordsHistory` says whether `body` may record a
    /// history transaction (then, at SERIALIZABLE, the history lock is taken first).
    func writeTransaction<T>(recordsHistory: Bool, action: String, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try writeOnce(recordsHistory: recordsHistory, action: action, body)
            } catch let error as NSError where attempt < Self.saveAttempts
                && ((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo["PostgreSQLState"] as? String)
                    .map({ $0 == "40001" || $0 == "40P01" }) == true {
                // Nothing of it was committed: the server rolled the transaction back. A short
                // random pause, longer at each attempt, keeps the writes that collided from
                // colliding again in step.
                usleep(UInt32.random(in: 1_000...10_000) * UInt32(attempt))
                attempt += 1
            }
        }
    }

    /// One attempt of ``writeTransaction(recordsHistory:action:_:)``.
    private func writeOnce<T>(recordsHistory: Bool, action: String, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try requireConnection()
        do {
            // At SERIALIZABLE the transaction's snapshot is taken by its first statement, so
            // the history lock taken at its end would come too late: a save committed
            // meanwhile would make the numbering a serialization failure, again and again
            // under steady writes. A save that records history there takes the lock for its
            // session before BEGIN instead (advisory locks are re-entrant, so the one taken
            // at the end is then granted at once), and gives it back after the transaction.
            let locksFirst = isSerializable && tracksHistory && hasHistoryTables && recordsHistory
            if locksFirst { try connection.execute("SELECT pg_advisory_lock(\(Self.historyLockKey))") }
            defer {
                if locksFirst, connection.isHealthy {
                    _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.historyLockKey))")
                }
            }
            return try connection.transaction(isolation: isSerializable ? "SERIALIZABLE" : nil) {
                try body(connection)
            }
        } catch let error as PostgreSQLError {
            let code = error.isUniqueViolation ? NSManagedObjectConstraintMergeError : NSPersistentStoreSaveError
            throw storeError(code, action, error)
        }
    }
}
