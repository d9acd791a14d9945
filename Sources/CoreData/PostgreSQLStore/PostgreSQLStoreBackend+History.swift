import Foundation

// MARK: - Persistent history

extension PostgreSQLStoreBackend: HistoryKeeping {
    /// The advisory lock key that puts history numbers in commit order (`'CDPH'` as a number).
    static let historyLockKey: Int64 = 0x4344_5048

    /// Opens the history tables, inside the transaction that opens the store (under the
    /// schema lock): a store tracking history gets Apple's three tables (the SQLite store's
    /// layout in PostgreSQL's types, tombstones as `TEXT`) and their `Z_PRIMARYKEY` rows when
    /// missing, and one `ZTOMBSTONE<n>` column for each preserved attribute the widest
    /// entity has. A store that holds history but is opened without tracking it opens
    /// read-only, as on SQLite and Apple: saves there would leave gaps in the history.
    func openHistory(entities: [NSEntityDescription], on connection: PostgreSQLConnection) throws {
        hasHistoryTables = try connection.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'atransaction'"
        ).rowCount > 0
        guard tracksHistory else {
            if hasHistoryTables, !isReadOnly, try connection.execute("SELECT 1 FROM ATRANSACTION LIMIT 1").rowCount > 0 {
                isReadOnly = true
                forcedReadOnlyByHistory = true
            }
            return
        }
        if !hasHistoryTables {
            guard !isReadOnly else { return }
            for sql in HistorySchema.createStatements { try connection.execute(Self.postgreSQLDefinition(sql)) }
            for (entity, name) in HistorySchema.primaryKeyRows {
                try connection.execute(
                    "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES ($1, $2, 0, 0) ON CONFLICT DO NOTHING",
                    [.integer(entity), .text(name)])
            }
            hasHistoryTables = true
        }
        historyTombstoneColumns = try tombstoneColumnCount(on: connection)
        let widest = entities.map { HistorySchema.preservedAttributes(of: $0).count }.max() ?? 0
        if widest > historyTombstoneColumns, !isReadOnly {
            for index in historyTombstoneColumns..<widest {
                try connection.execute("ALTER TABLE ACHANGE ADD COLUMN IF NOT EXISTS \(HistorySchema.tombstoneColumn(index)) TEXT")
            }
            historyTombstoneColumns = widest
        }
    }

    /// How many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    private func tombstoneColumnCount(on connection: PostgreSQLConnection) throws -> Int {
        let result = try connection.execute("""
            SELECT count(*) FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'achange' AND column_name LIKE 'ztombstone%'
            """)
        return Int(result.int64(0, 0) ?? 0)
    }

    /// A history table or index of ``HistorySchema`` in PostgreSQL's types: each column's
    /// SQLite type as ``columnType(_:)`` maps it (`Z_PK` a `BIGINT` key), `COLLATE BINARY`
    /// dropped (text is `COLLATE "C"`).
    static func postgreSQLDefinition(_ sql: String) -> String {
        guard sql.hasPrefix("CREATE TABLE "), let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")") else {
            return sql.replacingOccurrences(of: " COLLATE BINARY", with: "")
        }
        let columns = sql[sql.index(after: open)..<close].split(separator: ",").map { definition -> String in
            let words = definition.split(separator: " ").map(String.init)
            guard words.count >= 2 else { return String(definition) }
            if words.count > 2 { return "\(words[0]) BIGINT " + words[2...].joined(separator: " ") }
            return "\(words[0]) \(words[0] == "Z_ENT" || words[0] == "Z_OPT" ? "INTEGER" : columnType(words[1]))"
        }
        return String(sql[..<open]) + "( " + columns.joined(separator: ", ") + " )"
    }

    /// Takes the history advisory lock, held until the save's transaction ends. Every save
    /// that records history takes it just before numbering its transaction, at the end of
    /// the save, so the next number is taken only once the previous numbered transaction has
    /// committed (or rolled back, which also gives its number back: `Z_MAX` of the
    /// `Z_PRIMARYKEY` row is updated in the same transaction). Numbers are therefore in
    /// commit order: a reader that saw transaction n has seen every transaction below n,
    /// and never misses one that commits later with a lower number. The lock also orders
    /// the `ATRANSACTIONSTRING` look-up and insert, so two saves never add the same string.
    ///
    /// Holding it from the numbering to the commit serialises only that last stretch of
    /// the saves that record history; their rows are written before, concurrently.
    func willRecordHistory(on connection: PostgreSQLConnection) throws {
        guard hasHistoryTables else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "\(storeName) has no history tables.")
        }
        try connection.execute("SELECT pg_advisory_xact_lock(\(Self.historyLockKey))")
    }

    // MARK: Reading

    func historyTransactions(in range: HistoryRange, withChanges: Bool) throws -> [HistoryRecord] {
        guard hasHistoryTables else { return [] }
        return try reading { connection in
            try readHistory(in: range, withChanges: withChanges, tombstoneColumns: historyTombstoneColumns, on: connection)
        }
    }

    func deleteHistory(in range: HistoryRange) throws -> Int {
        try checkWritable()
        guard hasHistoryTables else { return 0 }
        let connection = try requireConnection()
        do {
            return try connection.transaction { try deleteHistoryRows(in: range, on: connection) }
        } catch let error as PostgreSQLError {
            throw storeError(NSPersistentStoreSaveError, "Deleting history of", error)
        }
    }

    func lastHistoryTransactionNumber() throws -> Int64 {
        guard hasHistoryTables else { return 0 }
        return try reading { try newestHistoryNumber(on: $0) }
    }

    func deletedHistoryThrough() throws -> Int64 {
        guard hasHistoryTables else { return 0 }
        return try reading { try historyDeletedThrough(on: $0) }
    }
}
