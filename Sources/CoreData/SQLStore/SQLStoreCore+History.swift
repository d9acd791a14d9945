import Foundation

// MARK: - Persistent history, for both SQL stores

/// The rows of one persistent-history transaction, gathered during a save or a batch request
/// and written at its end by ``SQLStoreCore/recordHistory(_:on:)``.
struct SQLHistoryTransaction {
    /// Who made the changes (`transactionAuthor`, the context's name).
    var origin: HistoryOrigin
    /// Inserted rows.
    var inserted: [(entity: NSEntityDescription, pk: Int64)] = []
    /// Updated rows, with `ZCOLUMNS` (the changed properties' bits) when known.
    var updated: [(entity: NSEntityDescription, pk: Int64, columns: Data?)] = []
    /// Deleted rows, with their preserved attribute values (read before the rows went).
    var deleted: [(entity: NSEntityDescription, pk: Int64, tombstone: [SQLBinding])] = []

    init(origin: HistoryOrigin) {
        self.origin = origin
    }

    /// Whether there is nothing to record.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

extension SQLStoreCore {
    // MARK: Gathering

    /// The history transaction of a save, its deleted rows' tombstones read now (before the
    /// save deletes them); nil when the store keeps no history or the save changes no row.
    func historyTransaction(for changes: StoreChanges, on connection: Connection) throws -> SQLHistoryTransaction? {
        guard tracksHistory, !(changes.inserts.isEmpty && changes.updates.isEmpty && changes.deletes.isEmpty) else {
            return nil
        }
        var transaction = SQLHistoryTransaction(origin: changes.origin)
        transaction.inserted = changes.inserts.map { ($0.entity, $0.pk) }
        transaction.updated = changes.updates.map { ($0.entity, $0.pk, updatedColumns($0.entity, slots: $0.changedSlots)) }
        for delete in changes.deletes {
            transaction.deleted.append((delete.entity, delete.pk, try tombstoneValues(delete.entity, pk: delete.pk, on: connection)))
        }
        return transaction
    }

    /// `ZCOLUMNS` of an update: one bit per tracked property of the entity, set for those
    /// written.
    func updatedColumns(_ entity: NSEntityDescription, slots: [Int32]) -> Data {
        let written = Set(slots)
        let tracked = HistorySchema.trackedProperties(of: entity)
        var bits = [UInt8](repeating: 0, count: (tracked.count + 7) / 8)
        for (index, property) in tracked.enumerated() where written.contains(property.slot) {
            bits[index / 8] |= 1 << UInt8(index % 8)
        }
        return Data(bits)
    }

    /// The preserved attribute values of a row about to be deleted, in tombstone order, as
    /// the dialect keeps them (``SQLDialect/tombstoneValue(_:)``).
    func tombstoneValues(_ entity: NSEntityDescription, pk: Int64, on connection: Connection) throws -> [SQLBinding] {
        let attributes = HistorySchema.preservedAttributes(of: entity)
        guard !attributes.isEmpty, let plan = plans[entity.runtime.entityID] else { return [] }
        let columns = attributes.map { attribute in
            plan.fieldBySlot[attribute.slot].map { dialect.tombstoneValue(plan.fields[$0].column) } ?? "NULL"
        }
        let select = try connection.statement(
            "SELECT \(columns.joined(separator: ", ")) FROM \(plan.tableName) WHERE Z_PK = \(dialect.parameter(1))")
        try select.bind(1, pk)
        defer { select.reset() }
        guard try select.step() else { return [] }
        return columns.indices.map { select.value(Int32($0)) }
    }

    // MARK: Writing

    /// Writes `transaction` as one `ATRANSACTION` row and its `ACHANGE` rows, at the end of the
    /// transaction that made the changes; returns its number.
    ///
    /// The number is taken here, last, after ``willRecordHistory(on:)``: the lock is held
    /// until the commit, so each transaction is numbered after every transaction numbered
    /// before it has committed. Numbers are then in commit order, and a reader holding a
    /// token (a number) never misses a transaction that commits later with a lower number.
    @discardableResult
    func recordHistory(_ transaction: SQLHistoryTransaction, on connection: Connection) throws -> Int64 {
        try willRecordHistory(on: connection)
        let number = try nextHistoryKeys(HistorySchema.transactionEntity, count: 1, on: connection)
        let process = HistorySchema.processName
        let insert = try connection.statement(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES ("
                + (1...8).map(dialect.parameter).joined(separator: ", ") + ")")
        try insert.bind(1, number)
        try insert.bind(2, HistorySchema.transactionEntity)
        try insert.bind(3, Int64(1))
        let strings = [transaction.origin.author, HistorySchema.bundleID, transaction.origin.contextName, process]
        let keys = try historyStrings(strings.compactMap { $0 }, on: connection)
        for (offset, string) in strings.enumerated() {
            if let string, let key = keys[string] {
                try insert.bind(Int32(4 + offset), key)
            } else {
                try insert.bindNull(Int32(4 + offset))
            }
        }
        try insert.bind(8, Date().timeIntervalSinceReferenceDate)
        try insert.execute()

        let count = transaction.inserted.count + transaction.updated.count + transaction.deleted.count
        var id = try nextHistoryKeys(HistorySchema.changeEntity, count: count, on: connection)
        var changes: [HistoryChangeRow] = []
        changes.reserveCapacity(count)
        for row in transaction.inserted {
            changes.append(HistoryChangeRow(id: id, type: 0, entity: row.entity, pk: row.pk))
            id += 1
        }
        for row in transaction.updated {
            changes.append(HistoryChangeRow(id: id, type: 1, entity: row.entity, pk: row.pk, columns: row.columns))
            id += 1
        }
        for row in transaction.deleted {
            changes.append(HistoryChangeRow(id: id, type: 2, entity: row.entity, pk: row.pk, tombstone: row.tombstone))
            id += 1
        }
        try recordChanges(changes, transaction: number, on: connection)
        return number
    }

    /// Writes `ACHANGE` rows with multi-row `INSERT`s: one statement (one round trip on
    /// PostgreSQL) per ``historyParametersPerStatement`` bound values, rows with as many
    /// tombstone columns together.
    private func recordChanges(_ changes: [HistoryChangeRow], transaction: Int64, on connection: Connection) throws {
        let byWidth = Dictionary(grouping: changes, by: \.tombstone.count)
        for width in byWidth.keys.sorted() {
            let rows = byWidth[width] ?? []
            var names = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
            names += (0..<width).map(HistorySchema.tombstoneColumn)
            let perStatement = max(1, Self.historyParametersPerStatement / names.count)
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + perStatement, rows.count)]
                let values = (0..<chunk.count).map { row in
                    "(" + (1...names.count).map { dialect.parameter(row * names.count + $0) }.joined(separator: ", ") + ")"
                }
                let statement = try connection.statement(
                    "INSERT INTO ACHANGE (\(names.joined(separator: ", "))) VALUES \(values.joined(separator: ", "))")
                var index: Int32 = 1
                func next() -> Int32 { defer { index += 1 }; return index }
                for change in chunk {
                    try statement.bind(next(), change.id)
                    try statement.bind(next(), HistorySchema.changeEntity)
                    try statement.bind(next(), Int64(1))
                    try statement.bind(next(), change.type)
                    try statement.bind(next(), Int64(change.entity.runtime.entityID))
                    try statement.bind(next(), change.pk)
                    try statement.bind(next(), transaction)
                    try statement.bind(change.columns.map(SQLBinding.blob) ?? .null, at: next())
                    for value in change.tombstone { try statement.bind(value, at: next()) }
                }
                try statement.execute()
                start += chunk.count
            }
        }
    }

    /// At most this many values are bound to one multi-row history insert: below SQLite's
    /// oldest limit on bound parameters (999) and PostgreSQL's (65 535).
    static var historyParametersPerStatement: Int { 960 }

    /// Reserves `count` keys of a history table (its `Z_PRIMARYKEY` row, inside the
    /// transaction); returns the first.
    private func nextHistoryKeys(_ entity: Int64, count: Int, on connection: Connection) throws -> Int64 {
        if dialect.reservesKeysWithReturning {
            // One round trip.
            let update = try connection.statement(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + \(dialect.parameter(1)) WHERE Z_ENT = \(dialect.parameter(2)) RETURNING Z_MAX")
            try update.bind(1, Int64(count))
            try update.bind(2, entity)
            defer { update.reset() }
            _ = try update.step()
            return update.int64(0) - Int64(count) + 1
        }
        let update = try connection.statement(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + \(dialect.parameter(1)) WHERE Z_ENT = \(dialect.parameter(2))")
        try update.bind(1, Int64(count))
        try update.bind(2, entity)
        try update.execute()
        let select = try connection.statement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(dialect.parameter(1))")
        try select.bind(1, entity)
        defer { select.reset() }
        _ = try select.step()
        return select.int64(0) - Int64(count) + 1
    }

    /// The `ATRANSACTIONSTRING` keys of `strings`, those not there yet added: one query for
    /// all that exist.
    private func historyStrings(_ strings: [String], on connection: Connection) throws -> [String: Int64] {
        let unique = Array(Set(strings)).sorted()
        guard !unique.isEmpty else { return [:] }
        let select = try connection.statement(
            "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING WHERE ZNAME IN ("
                + (1...unique.count).map(dialect.parameter).joined(separator: ", ") + ")")
        for (offset, string) in unique.enumerated() { try select.bind(string, at: Int32(offset + 1)) }
        var keys: [String: Int64] = [:]
        do {
            defer { select.reset() }
            while try select.step() {
                if let name = select.string(1), keys[name] == nil { keys[name] = select.int64(0) }
            }
        }
        let missing = unique.filter { keys[$0] == nil }
        guard !missing.isEmpty else { return keys }
        var key = try nextHistoryKeys(HistorySchema.stringEntity, count: missing.count, on: connection)
        let insert = try connection.statement(
            "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES ("
                + (1...4).map(dialect.parameter).joined(separator: ", ") + ")")
        for string in missing {
            try insert.bind(1, key)
            try insert.bind(2, HistorySchema.stringEntity)
            try insert.bind(3, Int64(1))
            try insert.bind(string, at: 4)
            try insert.execute()
            keys[string] = key
            key += 1
        }
        return keys
    }

    // MARK: Reading

    /// The transactions in `range`, oldest first, with their changes when `withChanges`;
    /// `tombstoneColumns` is how many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    func readHistory(in range: HistoryRange, withChanges: Bool, tombstoneColumns: Int,
                     on connection: Connection) throws -> [HistoryRecord] {
        let (condition, bound) = historyCondition(range)
        let statement = try connection.statement("""
            SELECT t.Z_PK, t.ZTIMESTAMP,
              COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZAUTHORTS), t.ZAUTHOR),
              COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZBUNDLEIDTS), t.ZBUNDLEID),
              COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZPROCESSIDTS), t.ZPROCESSID),
              COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZCONTEXTNAMETS), t.ZCONTEXTNAME)
            FROM ATRANSACTION t WHERE \(condition) ORDER BY t.Z_PK
            """)
        if let bound { try statement.bind(bound, at: 1) }
        var records: [HistoryRecord] = []
        var index: [Int64: Int] = [:]
        do {
            defer { statement.reset() }
            while try statement.step() {
                let number = statement.int64(0)
                index[number] = records.count
                records.append(HistoryRecord(
                    number: number, timestamp: Date(timeIntervalSinceReferenceDate: statement.double(1)),
                    author: statement.string(2), bundleID: statement.string(3), processID: statement.string(4),
                    contextName: statement.string(5), changes: []))
            }
        }
        guard withChanges, !records.isEmpty else { return records }
        let extra = (0..<tombstoneColumns).map { ", " + HistorySchema.tombstoneColumn($0) }.joined()
        let changes = try connection.statement("""
            SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(extra)
            FROM ACHANGE WHERE ZTRANSACTIONID >= \(dialect.parameter(1)) AND ZTRANSACTIONID <= \(dialect.parameter(2)) ORDER BY Z_PK
            """)
        try changes.bind(1, records[0].number)
        try changes.bind(2, records[records.count - 1].number)
        defer { changes.reset() }
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
                    for (offset, attribute) in preserved.enumerated() where offset < tombstoneColumns {
                        if let object = HistorySchema.tombstoneObject(changes.value(Int32(6 + offset)), attribute) {
                            values[attribute.name] = object
                        }
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

    /// Deletes the transactions in `range` and their changes, inside the caller's
    /// transaction; returns how many transactions went.
    func deleteHistoryRows(in range: HistoryRange, on connection: Connection) throws -> Int {
        let (condition, bound) = historyCondition(range)
        let changes = try connection.statement(
            "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))")
        if let bound { try changes.bind(bound, at: 1) }
        try changes.execute()
        let transactions = try connection.statement("DELETE FROM ATRANSACTION AS t WHERE \(condition)")
        if let bound { try transactions.bind(bound, at: 1) }
        return try transactions.execute()
    }

    /// The number of the newest transaction committed (`Z_MAX` of `ATRANSACTION`'s
    /// `Z_PRIMARYKEY` row), 0 when there is none.
    func newestHistoryNumber(on connection: Connection) throws -> Int64 {
        let select = try connection.statement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(dialect.parameter(1))")
        try select.bind(1, HistorySchema.transactionEntity)
        defer { select.reset() }
        return try select.step() ? select.int64(0) : 0
    }

    /// History is deleted from the oldest end only, so the deleted transactions are those
    /// numbered below the oldest one left (or all issued ones, when none is left).
    func historyDeletedThrough(on connection: Connection) throws -> Int64 {
        let select = try connection.statement("SELECT MIN(Z_PK) FROM ATRANSACTION")
        let oldest: Int64? = try select.step() && !select.isNull(0) ? select.int64(0) : nil
        select.reset()
        if let oldest { return oldest - 1 }
        return try newestHistoryNumber(on: connection)
    }

    /// The WHERE clause (over `ATRANSACTION t`) selecting `range`, and its one parameter.
    private func historyCondition(_ range: HistoryRange) -> (String, SQLBinding?) {
        let p = dialect.parameter(1)
        switch range {
        case .all: return (dialect.alwaysTrue, nil)
        case .afterTransaction(let number): return ("t.Z_PK > \(p)", .integer(number))
        case .throughTransaction(let number): return ("t.Z_PK <= \(p)", .integer(number))
        case .afterDate(let date): return ("t.ZTIMESTAMP > \(p)", .real(date.timeIntervalSinceReferenceDate))
        case .beforeDate(let date): return ("t.ZTIMESTAMP < \(p)", .real(date.timeIntervalSinceReferenceDate))
        }
    }
}

// MARK: - Values of any type

extension SQLStoreStatement {
    /// Binds one value of any type to parameter `index`.
    func bind(_ value: SQLBinding, at index: Int32) throws {
        switch value {
        case .null: try bindNull(index)
        case .integer(let number): try bind(index, number)
        case .real(let number): try bind(index, number)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try data.withUnsafeBytes { try bindBlob(index, $0.baseAddress, count: $0.count) }
        }
    }

    /// Binds `text` to parameter `index`.
    func bind(_ text: String, at index: Int32) throws {
        var text = text
        try text.withUTF8 { bytes in
            try bytes.withMemoryRebound(to: CChar.self) { try bindText(index, $0.baseAddress, count: $0.count) }
        }
    }
}

extension HistorySchema {
    /// The process's name, as a transaction's `processID`.
    static let processName = ProcessInfo.processInfo.processName
    /// The main bundle's identifier (the process's name without one), as a transaction's
    /// `bundleID`: read once, as looking it up costs a third of a millisecond on Linux.
    static let bundleID = Bundle.main.bundleIdentifier ?? processName

    /// A tombstone column's value as the attribute's value type. SQLite keeps the column's
    /// own type; PostgreSQL keeps every tombstone as text (``SQLDialect/tombstoneValue(_:)``),
    /// read back by the attribute's type.
    static func tombstoneObject(_ value: SQLBinding, _ attribute: NSAttributeDescription) -> Any? {
        switch value {
        case .null: return nil
        case .integer(let number):
            switch attribute.attributeType {
            case .booleanAttributeType: return number != 0
            case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: Double(number))
            case .doubleAttributeType, .floatAttributeType: return Double(number)
            default: return number
            }
        case .real(let number):
            return attribute.attributeType == .dateAttributeType ? Date(timeIntervalSinceReferenceDate: number) : number
        case .text(let text):
            switch attribute.attributeType {
            case .URIAttributeType: return URL(string: text)
            case .decimalAttributeType: return Decimal(string: text)
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                return Int64(text) ?? text
            case .booleanAttributeType: return Int64(text).map { $0 != 0 } ?? text
            case .doubleAttributeType, .floatAttributeType: return Double(text) ?? text
            case .dateAttributeType: return Double(text).map { Date(timeIntervalSinceReferenceDate: $0) } ?? text
            case .UUIDAttributeType, .binaryDataAttributeType:
                guard let data = hexData(text) else { return text }
                return tombstoneObject(.blob(data), attribute)
            default: return text
            }
        case .blob(let data):
            if attribute.attributeType == .UUIDAttributeType, data.count == 16 {
                return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            }
            return data
        }
    }

    /// The bytes of PostgreSQL's text form of `bytea` (`\x` then hex digits); nil for other text.
    private static func hexData(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits.count % 2 == 0, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x") else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2 - 1)
        var i = 2
        while i + 1 < digits.count {
            guard let high = hexDigit(digits[i]), let low = hexDigit(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return Data(bytes)
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// One `ACHANGE` row to write: its key, change type (0 insert, 1 update, 2 delete), the row
/// it names, the changed columns' bits (updates) and the tombstone (deletes).
private struct HistoryChangeRow {
    let id: Int64
    let type: Int64
    let entity: NSEntityDescription
    let pk: Int64
    var columns: Data? = nil
    var tombstone: [SQLBinding] = []
}
