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
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for field in plan.fields {
            columns.append(field.column)
            if case let .toOne(_, entityColumn?, _) = field.kind { columns.append(entityColumn) }
        }
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = try connection.cached(
            "INSERT INTO \(plan.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))")

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
        let row = StoreRow(entity: entity, pk: 0, version: 1)
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
            for field in plan.fields {
                try bind(field, of: row, to: statement, at: &index, on: connection)
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
