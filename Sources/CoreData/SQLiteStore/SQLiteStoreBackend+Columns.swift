import Foundation
internal import CCoreDataSQLite

// MARK: - Reading a few columns (dictionary results)

extension SQLiteStoreBackend {
    /// Reads the attribute `slots` of the rows a plan selects, in order, without building
    /// store rows: `body` gets each row's `Z_ENT`, `Z_PK` and a scratch runtime row holding
    /// those slots (valid only during the call). Returns false, reading nothing, when a
    /// slot is not a plain column of the entity's table (the caller then fetches rows).
    func fetchColumns(_ plan: FetchPlan, slots: [Int32],
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool {
        let connection = try requireConnection()
        guard let t = schema.tableIndex(for: plan.entity),
              let columns = plans[plan.entity.runtime.entityID]?.columnsPlan(slots: slots) else { return false }
        let list = (["t0.Z_ENT", "t0.Z_PK"] + columns.fields.map { "t0." + $0.column }).joined(separator: ", ")
        let (sql, bindings) = try selectStatement(plan, table: t, columns: list)
        let scratch = RowValues(count: plan.entity.runtime.layout.slotCount)
        try readFailure {
            let statement = try connection.cached(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            var last = -1
            while try statement.step() {
                let entityID = Int(statement.int64(0))
                let pk = statement.int64(1)
                if entityID != last {
                    _ = try rowPlan(entityID, table: t, pk: pk)
                    last = entityID
                }
                for slot in slots { scratch.setNull(at: slot) }
                try decodeFields(statement, columns, pk: pk, into: scratch)
                try body(entityID, pk, scratch)
            }
        }
        return true
    }
}



// MARK: - Aggregates

/// Aggregates and `GROUP BY` in SQL (`SQLStoreCore+Aggregates.swift`).
extension SQLiteStoreBackend: AggregatingStoreBackend {}
