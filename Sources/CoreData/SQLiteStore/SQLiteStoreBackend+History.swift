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

    /// Records `changes` as one history transaction, inside the save's SQLite
    /// transaction and before its rows are written (a delete's tombstone is read from the
    /// row it removes).
    func recordHistory(_ changes: StoreChanges, on connection: SQLiteConnection) throws {
        guard tracksHistory else { return }
        guard !(changes.inserts.isEmpty && changes.updates.isEmpty && changes.deletes.isEmpty) else { return }
        try createHistoryTablesIfNeeded(connection)
        let number = try beginHistoryTransaction(changes.origin, on: connection)
        for write in changes.inserts {
            try recordChange(type: 0, entity: write.entity, pk: write.pk, transaction: number, on: connection)
        }
        for write in changes.updates {
            try recordChange(type: 1, entity: write.entity, pk: write.pk, transaction: number,
                             columns: updatedColumns(write.entity, slots: write.changedSlots), on: connection)
        }
        for delete in changes.deletes {
            try recordChange(type: 2, entity: delete.entity, pk: delete.pk, transaction: number,
                             tombstone: try tombstoneValues(delete.entity, pk: delete.pk, on: connection), on: connection)
        }
    }

    /// Records what a batch request wrote as one history transaction (nothing when it
    /// wrote nothing), inside its SQLite transaction: inserted, updated (with the slots
    /// written, when known) and deleted rows, with the tombstones read before the rows went.
    func recordBatchHistory(_ changes: BatchChanges, tombstones: [StoreKey: [SQLiteValue]], origin: HistoryOrigin,
                            on connection: SQLiteConnection) throws {
        guard tracksHistory else { return }
        guard !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) else { return }
        try createHistoryTablesIfNeeded(connection)
        let number = try beginHistoryTransaction(origin, on: connection)
        let deleted = Set(changes.deleted)
        for key in changes.inserted {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            try recordChange(type: 0, entity: entity, pk: key.pk, transaction: number, on: connection)
        }
        for key in changes.updated where !deleted.contains(key) {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            let columns = changes.updatedSlots[key].map { updatedColumns(entity, slots: $0) }
            try recordChange(type: 1, entity: entity, pk: key.pk, transaction: number, columns: columns, on: connection)
        }
        for key in changes.deleted {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            try recordChange(type: 2, entity: entity, pk: key.pk, transaction: number,
                             tombstone: tombstones[key] ?? [], on: connection)
        }
    }

    /// `ZCOLUMNS` of an update: one bit per tracked property of the entity, set for those
    /// written.
    private func updatedColumns(_ entity: NSEntityDescription, slots: [Int32]) -> Data {
        let written = Set(slots)
        let tracked = HistorySchema.trackedProperties(of: entity)
        var bits = [UInt8](repeating: 0, count: (tracked.count + 7) / 8)
        for (index, property) in tracked.enumerated() where written.contains(property.slot) {
            bits[index / 8] |= 1 << UInt8(index % 8)
        }
        return Data(bits)
    }

    /// Inserts the `ATRANSACTION` row of a new transaction by `origin`; returns its number.
    private func beginHistoryTransaction(_ origin: HistoryOrigin, on connection: SQLiteConnection) throws -> Int64 {
        let number = try nextHistoryKey(HistorySchema.transactionEntity, on: connection)
        let process = ProcessInfo.processInfo.processName
        let transaction = try connection.cached(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?, ?)")
        try transaction.bind(1, number)
        try transaction.bind(2, HistorySchema.transactionEntity)
        let strings = [origin.author, Bundle.main.bundleIdentifier ?? process, origin.contextName, process]
        for (offset, string) in strings.enumerated() {
            if let string {
                try transaction.bind(Int32(3 + offset), try historyString(string, on: connection))
            } else {
                try transaction.bindNull(Int32(3 + offset))
            }
        }
        try transaction.bind(7, Date().timeIntervalSinceReferenceDate)
        try transaction.run()
        return number
    }

    private func recordChange(
        type: Int64, entity: NSEntityDescription, pk: Int64, transaction: Int64, columns: Data? = nil,
        tombstone: [SQLiteValue] = [], on connection: SQLiteConnection
    ) throws {
        let id = try nextHistoryKey(HistorySchema.changeEntity, on: connection)
        var names = ["Z_PK", "Z_ENT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
        names += tombstone.indices.map(HistorySchema.tombstoneColumn)
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let statement = try connection.cached("INSERT INTO ACHANGE (\(names.joined(separator: ", "))) VALUES (\(marks))")
        try statement.bind(1, id)
        try statement.bind(2, HistorySchema.changeEntity)
        try statement.bind(3, type)
        try statement.bind(4, Int64(entity.runtime.entityID))
        try statement.bind(5, pk)
        try statement.bind(6, transaction)
        if let columns { try statement.bind(7, columns) } else { try statement.bindNull(7) }
        for (offset, value) in tombstone.enumerated() { try value.bind(to: statement, at: Int32(8 + offset)) }
        try statement.run()
    }

    /// The preserved attribute values of a row about to be deleted, in tombstone order.
    func tombstoneValues(_ entity: NSEntityDescription, pk: Int64, on connection: SQLiteConnection) throws -> [SQLiteValue] {
        let attributes = HistorySchema.preservedAttributes(of: entity)
        guard !attributes.isEmpty, let plan = plans[entity.runtime.entityID] else { return [] }
        let columns = attributes.map { plan.fieldBySlot[$0.slot].map { plan.fields[$0].column } ?? "NULL" }
        let select = try connection.cached("SELECT \(columns.joined(separator: ", ")) FROM \(plan.tableName) WHERE Z_PK = ?")
        try select.bind(1, pk)
        defer { select.reset() }
        guard try select.step() else { return [] }
        return columns.indices.map { SQLiteValue.read(select, Int32($0)) }
    }

    /// The next `Z_PK` of a history table, from its `Z_PRIMARYKEY` row.
    private func nextHistoryKey(_ entity: Int64, on connection: SQLiteConnection) throws -> Int64 {
        let update = try connection.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = ?")
        try update.bind(1, entity)
        try update.run()
        let select = try connection.cached("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        try select.bind(1, entity)
        defer { select.reset() }
        _ = try select.step()
        return select.int64(0)
    }

    /// The `ATRANSACTIONSTRING` key of `string`, added when new.
    private func historyString(_ string: String, on connection: SQLiteConnection) throws -> Int64 {
        let select = try connection.cached("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        try select.bind(1, string)
        if try select.step() {
            defer { select.reset() }
            return select.int64(0)
        }
        select.reset()
        let key = try nextHistoryKey(HistorySchema.stringEntity, on: connection)
        let insert = try connection.cached("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
        try insert.bind(1, key)
        try insert.bind(2, HistorySchema.stringEntity)
        try insert.bind(3, string)
        try insert.run()
        return key
    }

    // MARK: Reading

    func historyTransactions(in range: HistoryRange, withChanges: Bool) throws -> [HistoryRecord] {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return [] }
            let (condition, bound) = Self.sql(for: range)
            let statement = try connection.prepare("""
                SELECT t.Z_PK, t.ZTIMESTAMP,
                  COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZAUTHORTS), t.ZAUTHOR),
                  COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZBUNDLEIDTS), t.ZBUNDLEID),
                  COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZPROCESSIDTS), t.ZPROCESSID),
                  COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZCONTEXTNAMETS), t.ZCONTEXTNAME)
                FROM ATRANSACTION t WHERE \(condition) ORDER BY t.Z_PK
                """)
            try bound?.bind(to: statement, at: 1)
            var records: [HistoryRecord] = []
            var index: [Int64: Int] = [:]
            while try statement.step() {
                let number = statement.int64(0)
                index[number] = records.count
                records.append(HistoryRecord(
                    number: number, timestamp: Date(timeIntervalSinceReferenceDate: statement.double(1)),
                    author: statement.string(2), bundleID: statement.string(3), processID: statement.string(4),
                    contextName: statement.string(5), changes: []))
            }
            guard withChanges, !records.isEmpty else { return records }
            let tombstones = try connection.columns(ofTable: "ACHANGE").map(\.name)
                .filter { $0.hasPrefix("ZTOMBSTONE") }.count
            let extra = (0..<tombstones).map { ", " + HistorySchema.tombstoneColumn($0) }.joined()
            let changes = try connection.prepare("""
                SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(extra)
                FROM ACHANGE WHERE ZTRANSACTIONID >= ? AND ZTRANSACTIONID <= ? ORDER BY Z_PK
                """)
            try changes.bind(1, records[0].number)
            try changes.bind(2, records[records.count - 1].number)
            while try changes.step() {
                guard let position = index[changes.int64(4)] else { continue }
                let entityID = Int(changes.int64(2))
                let entity = plans[entityID]?.entity
                let type = Int(changes.int64(1))
                var updated: [String]?
                if type == 1, let entity, let bits = changes.data(5) {
                    let tracked = HistorySchema.trackedProperties(of: entity)
                    updated = tracked.indices.filter { $0 / 8 < bits.count && bits[bits.startIndex + $0 / 8] & (1 << UInt8($0 % 8)) != 0 }
                        .map { tracked[$0].name }
                }
                var tombstone: [String: Any]?
                if type == 2, let entity {
                    let preserved = HistorySchema.preservedAttributes(of: entity)
                    if !preserved.isEmpty {
                        var values: [String: Any] = [:]
                        for (offset, attribute) in preserved.enumerated() where offset < tombstones {
                            let value = SQLiteValue.read(changes, Int32(6 + offset))
                            if let object = Self.tombstoneObject(value, attribute) { values[attribute.name] = object }
                        }
                        tombstone = values
                    }
                }
                records[position].changes.append(HistoryRecord.Change(
                    id: changes.int64(0), type: type, entityID: entityID, pk: changes.int64(3),
                    updatedProperties: updated, tombstone: tombstone))
            }
            return records
        }
    }

    func deleteHistory(in range: HistoryRange) throws -> Int {
        let connection = try requireConnection()
        try checkHistoryWritable()
        return try writeFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            return try connection.transaction {
                let (condition, bound) = Self.sql(for: range)
                let changes = try connection.prepare(
                    "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))")
                try bound?.bind(to: changes, at: 1)
                try changes.run()
                let transactions = try connection.prepare("DELETE FROM ATRANSACTION AS t WHERE \(condition)")
                try bound?.bind(to: transactions, at: 1)
                try transactions.run()
                return Int(try connection.scalarString("SELECT changes()").flatMap { Int($0) } ?? 0)
            }
        }
    }

    func lastHistoryTransactionNumber() throws -> Int64 {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            return Int64(try connection.scalarString("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") ?? "0") ?? 0
        }
    }

    /// History is deleted from the oldest end only, so the deleted transactions are those
    /// numbered below the oldest one left (or all issued ones, when none is left).
    func deletedHistoryThrough() throws -> Int64 {
        let connection = try requireConnection()
        return try readFailure {
            guard try hasHistoryTables(connection) else { return 0 }
            if let oldest = try connection.scalarString("SELECT MIN(Z_PK) FROM ATRANSACTION").flatMap({ Int64($0) }) {
                return oldest - 1
            }
            return try lastHistoryTransactionNumber()
        }
    }

    private func checkHistoryWritable() throws {
        if isReadOnly {
            throw CoreDataError.store(NSPersistentStoreSaveError, "The store at \(url.path) was opened read-only.", url: url)
        }
    }

    /// The WHERE clause (over `ATRANSACTION t`) selecting `range`, and its one parameter.
    private static func sql(for range: HistoryRange) -> (String, SQLiteValue?) {
        switch range {
        case .all: return ("1", nil)
        case .afterTransaction(let number): return ("t.Z_PK > ?", .integer(number))
        case .throughTransaction(let number): return ("t.Z_PK <= ?", .integer(number))
        case .afterDate(let date): return ("t.ZTIMESTAMP > ?", .double(date.timeIntervalSinceReferenceDate))
        case .beforeDate(let date): return ("t.ZTIMESTAMP < ?", .double(date.timeIntervalSinceReferenceDate))
        }
    }

    /// A tombstone column's value as the attribute's value type.
    private static func tombstoneObject(_ value: SQLiteValue, _ attribute: NSAttributeDescription) -> Any? {
        switch value {
        case .null: return nil
        case .integer(let number):
            switch attribute.attributeType {
            case .booleanAttributeType: return number != 0
            case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: Double(number))
            case .doubleAttributeType, .floatAttributeType: return Double(number)
            default: return number
            }
        case .double(let number):
            return attribute.attributeType == .dateAttributeType ? Date(timeIntervalSinceReferenceDate: number) : number
        case .text(let text):
            switch attribute.attributeType {
            case .URIAttributeType: return URL(string: text)
            case .decimalAttributeType: return Decimal(string: text)
            default: return text
            }
        case .blob(let data):
            if attribute.attributeType == .UUIDAttributeType, data.count == 16 {
                return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            }
            return data
        }
    }
}
