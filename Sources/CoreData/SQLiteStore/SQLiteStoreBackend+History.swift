import Foundation

// MARK: - Persistent history

extension SQLiteStoreBackend: HistoryKeeping {
    /// Whether the history tables exist in the open store.
    func hasHistoryTables(_ connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ATRANSACTION'")
        defer { statement.reset() }
        return try statement.step()
    }

    /// A store that holds history but is opened without `NSPersistentHistoryTrackingKey`
    /// opens read-only, as on Apple (whose console says it forced the store read-only):
    /// saves there would leave gaps in the history. A store whose history was deleted
    /// (empty `ATRANSACTION`) opens as asked.
    func forceReadOnlyIfHistoryIsUntracked() throws {
        guard !tracksHistory, !isReadOnly, let connection, try hasHistoryTables(connection) else { return }
        let any = try connection.cached("SELECT 1 FROM ATRANSACTION LIMIT 1")
        defer { any.reset() }
        if try any.step() {
            isReadOnly = true
            forcedReadOnlyByHistory = true
        }
    }

    /// Creates the history tables and their `Z_PRIMARYKEY` rows when missing, with one
    /// tombstone column for each preserved attribute the widest entity has.
    func createHistoryTablesIfNeeded(_ connection: SQLiteConnection) throws {
        if try !hasHistoryTables(connection) {
            for sql in HistorySchema.createStatements { try connection.execute(sql) }
        }
        let insert = try connection.cached("INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)")
        for (entity, name) in HistorySchema.primaryKeyRows {
            try insert.bind(1, entity)
            try insert.bind(2, name)
            try insert.run()
        }
        let widest = plans.values.map { HistorySchema.preservedAttributes(of: $0.entity).count }.max() ?? 0
        let existing = Set(try connection.columns(ofTable: "ACHANGE").map(\.name))
        for index in 0..<widest where !existing.contains(HistorySchema.tombstoneColumn(index)) {
            try connection.execute("ALTER TABLE ACHANGE ADD COLUMN \(HistorySchema.tombstoneColumn(index))")
        }
    }

    /// Adds the history tables on the first save that records history. SQLite's writer
    /// holds the whole database until the commit, so numbers are in commit order already.
    func willRecordHistory(on connection: SQLiteConnection) throws {
        try createHistoryTablesIfNeeded(connection)
    }

    // MARK: Reading

    func historyTransactions(in range: HistoryRange, withChanges: Bool) throws -> [HistoryRecord] {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return [] }
            let tombstones = try connection.columns(ofTable: "ACHANGE").map(\.name)
                .filter { $0.hasPrefix("ZTOMBSTONE") }.count
            return try readHistory(in: range, withChanges: withChanges, tombstoneColumns: tombstones, on: connection)
        }
    }

    func deleteHistory(in range: HistoryRange) throws -> Int {
        let connection = try requireConnection()
        try checkHistoryWritable()
        return try writeFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            return try connection.transaction { try deleteHistoryRows(in: range, on: connection) }
        }
    }

    func lastHistoryTransactionNumber() throws -> Int64 {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            return try newestHistoryNumber(on: connection)
        }
    }

    func deletedHistoryThrough() throws -> Int64 {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            return try historyDeletedThrough(on: connection)
        }
    }

    private func checkHistoryWritable() throws {
        if isReadOnly {
            throw CoreDataError.store(NSPersistentStoreSaveError, "The store at \(url.path) was opened read-only.", url: url)
        }
    }
}
