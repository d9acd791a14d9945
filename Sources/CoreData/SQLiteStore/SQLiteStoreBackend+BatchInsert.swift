import Foundation

// MARK: - Batch insert

extension SQLiteStoreBackend {
    /// Inserts the rows a batch insert produces with one prepared `INSERT`, numbering them
    /// from `Z_PRIMARYKEY` (written back once, at the end). With uniqueness constraints, a
    /// row whose constrained values are all non-NULL and equal a stored row's updates that
    /// row instead: the columns the object named, and `Z_OPT` + 1.
    func batchInsert(_ insert: StoreBatchInsert, on connection: SQLiteConnection) throws -> StoreBatchOutcome {
        let entity = insert.entity
        let plan = try plan(for: entity)
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        for field in plan.fields {
            names.append(field.column)
            if case let .toOne(_, entityColumn?, _) = field.kind { names.append(entityColumn) }
        }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let statement = try connection.cached(
            "INSERT INTO \(plan.tableName) (\(names.joined(separator: ", "))) VALUES (\(marks))")

        let root = Int64(entity.runtime.root.runtime.entityID)
        let select = try connection.cached("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        try select.bind(1, root)
        guard try select.step() else {
            select.reset()
            throw CoreDataError.make(NSPersistentStoreOperationError, "Z_PRIMARYKEY has no row for \(entity.runtime.root.name ?? "?").")
        }
        let first = select.int64(0) + 1
        select.reset()

        let lookups = try insert.constraints.map { slots -> (fields: [Field], statement: SQLiteStatement) in
            let fields = slots.compactMap { plan.fieldBySlot[$0].map { plan.fields[$0] } }
            let terms = fields.map { "\($0.column) = ?" }.joined(separator: " AND ")
            return (fields, try connection.cached("SELECT Z_PK, Z_ENT FROM \(plan.tableName) WHERE \(terms) LIMIT 1"))
        }
        var updateSQL: [[Int]: String] = [:]

        let entityID = Int64(entity.runtime.entityID)
        let columns = plan.fields.map(InsertColumn.init)
        let row = StoreRow(entity: entity, pk: 0, version: 1)
        // Text is bound borrowed from `row`: no binding may outlive this call.
        defer { statement.clearBindings() }
        var named: [Int32] = []
        var pk = first
        var outcome = StoreBatchOutcome()
        while true {
            named.removeAll(keepingCapacity: true)
            guard try insert.next(row, &named) else { break }
            if !lookups.isEmpty, let existing = try existingRow(matching: row, lookups, on: connection) {
                try upsert(existing.pk, from: row, named: named, plan, &updateSQL, on: connection)
                outcome.result.append(existing)
                outcome.changes.updated.append(existing)
                continue
            }
            try statement.bind(1, pk)
            try statement.bind(2, entityID)
            try statement.bind(3, Int64(1))
            var index: Int32 = 4
            for i in columns.indices {
                if try !columns[i].bind(row, to: statement, at: index) {
                    try bind(plan.fields[i], of: row, to: statement, at: &index, on: connection)
                } else {
                    index += 1
                }
            }
            try statement.run()
            let key = StoreKey(entityID: Int(entityID), pk: pk)
            outcome.result.append(key)
            outcome.changes.inserted.append(key)
            pk += 1
        }
        if pk > first {
            let update = try connection.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            try update.bind(1, pk - 1)
            try update.bind(2, root)
            try update.run()
        }
        return outcome
    }

    /// The stored row sharing every constrained value of one uniqueness constraint with
    /// `row` (constraints with a NULL value match nothing, as a unique index allows NULLs).
    private func existingRow(
        matching row: StoreRow, _ lookups: [(fields: [Field], statement: SQLiteStatement)],
        on connection: SQLiteConnection
    ) throws -> StoreKey? {
        for lookup in lookups {
            guard !lookup.fields.isEmpty,
                  lookup.fields.allSatisfy({ !row.values.value(at: $0.slot).isNull }) else { continue }
            var index: Int32 = 1
            for field in lookup.fields {
                try bind(field, of: row, to: lookup.statement, at: &index, on: connection)
            }
            defer { lookup.statement.reset() }
            if try lookup.statement.step() {
                return StoreKey(entityID: Int(lookup.statement.int64(1)), pk: lookup.statement.int64(0))
            }
        }
        return nil
    }

    /// Writes the named attribute columns of `row` over the stored row `pk`.
    private func upsert(
        _ pk: Int64, from row: StoreRow, named: [Int32], _ plan: EntityPlan, _ cache: inout [[Int]: String],
        on connection: SQLiteConnection
    ) throws {
        let indexes = Set(named.compactMap { plan.fieldBySlot[$0] }).sorted()
        let sql: String
        if let cached = cache[indexes] {
            sql = cached
        } else {
            let sets = indexes.map { "\(plan.fields[$0].column) = ?" } + ["Z_OPT = Z_OPT + 1"]
            sql = "UPDATE \(plan.tableName) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?"
            cache[indexes] = sql
        }
        let statement = try connection.cached(sql)
        var index: Int32 = 1
        for i in indexes {
            try bind(plan.fields[i], of: row, to: statement, at: &index, on: connection)
        }
        try statement.bind(index, pk)
        try statement.run()
    }
}

/// One column of a batch insert whose common values are bound straight from the row
/// (text without a copy: the row keeps it until the statement has run); anything else,
/// and every value of an unexpected type, goes through `SQLiteStoreBackend.bind`.
struct InsertColumn {
    enum Kind { case integer, boolean, real, text, other }
    let slot: Int32
    let kind: Kind

    init(_ field: SQLiteStoreBackend.Field) {
        slot = field.slot
        switch field.kind {
        case .value(.integer) where field.bounds == nil: kind = .integer
        case .value(.boolean): kind = .boolean
        case .value(.double), .value(.date): kind = .real
        case .value(.text): kind = .text
        default: kind = .other
        }
    }

    /// Binds the slot's value at `index`; false, binding nothing, when it needs the
    /// general path.
    @inline(__always)
    func bind(_ row: StoreRow, to statement: SQLiteStatement, at index: Int32) throws -> Bool {
        let value = row.values.value(at: slot)
        switch (kind, value.type) {
        case (_, .null) where kind != .other: try statement.bindNull(index)
        case (.integer, .int64), (.integer, .bool): try statement.bind(index, value.int64)
        case (.boolean, .bool), (.boolean, .int64): try statement.bind(index, Int64(value.int64 != 0 ? 1 : 0))
        case (.real, .double), (.real, .date): try statement.bind(index, value.double)
        case (.text, .text):
            let bytes = value.bytes
            try statement.bindBorrowedText(index, bytes.baseAddress, count: bytes.count)
        default: return false
        }
        return true
    }
}
