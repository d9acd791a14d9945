import Foundation

// MARK: - Fetching

extension PostgreSQLStoreBackend {
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: fetchColumnLists[t])
        return try fetchRows(plan, sql: sql, bindings: bindings, table: t)
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: "t0.Z_ENT, t0.Z_PK")
        return try fetchKeys(sql: sql, bindings: bindings, table: t)
    }

    /// Reads the attribute `slots` of the rows a plan selects, in order, without building
    /// store rows (dictionary results), as the SQLite store does: `body` gets each row's
    /// `Z_ENT`, `Z_PK` and a scratch row holding those slots, valid only during the call.
    /// Returns false, reading nothing, when a slot is not a plain column of the table.
    func fetchColumns(_ plan: FetchPlan, slots: [Int32],
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool {
        guard let t = schema.tableIndex(for: plan.entity),
              let columns = plans[plan.entity.runtime.entityID]?.columnsPlan(slots: slots) else { return false }
        let list = (["t0.Z_ENT", "t0.Z_PK"] + columns.fields.map { "t0." + $0.column }).joined(separator: ", ")
        let (sql, bindings) = try selectStatement(plan, table: t, columns: list)
        let scratch = RowValues(count: plan.entity.runtime.layout.slotCount)
        try reading { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            // The whole result arrives with the first step: a lost connection fails before
            // `body` sees a row, so a read run again delivers no row twice.
            var last = -1
            while try statement.step() {
                guard let result = statement.result else { break }
                let entityID = Int(statement.int64(0))
                let pk = statement.int64(1)
                if entityID != last {
                    _ = try rowPlan(entityID, table: t, pk: pk)
                    last = entityID
                }
                for slot in slots { scratch.setNull(at: slot) }
                try decodeFields(result, statement.row, columns, pk: pk, into: scratch)
                try body(entityID, pk, scratch)
            }
        }
        return true
    }

    // MARK: - SQL

    /// One SELECT for a plan: `columns` of the entity's table (`t0`), joined as the predicate
    /// and sort key paths need, filtered, ordered (then by `Z_PK`), limited.
    func selectStatement(_ plan: FetchPlan, table t: Int, columns: String) throws -> (String, [SQLBinding]) {
        let compiler = makeCompiler(plan.entity)
        let condition = try whereClause(plan, compiler)
        let order = try orderTerms(plan.sorts, compiler) + ["t0.Z_PK"]
        var sql = "SELECT \(columns) FROM " + compiler.fromClause(table: schema.tables[t].name) + condition
        sql += " ORDER BY " + order.joined(separator: ", ")
        if plan.limit > 0 { sql += " LIMIT \(plan.limit)" }
        if plan.offset > 0 { sql += " OFFSET \(plan.offset)" }
        return (sql, compiler.bindings)
    }

    /// ORDER BY terms: numbers, dates and strings compared with `compare:` (by code point: text
    /// columns are `COLLATE "C"`), NULLs first ascending as in SQLite and memory. Other string
    /// comparisons sort in memory (`StoreFetchUnsupported`).
    func orderTerms(_ sorts: [SortKey], _ compiler: SQLPredicateCompiler) throws -> [String] {
        try sorts.map { sort in
            let segments = sort.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard case .scalar(let term, let kind) = try compiler.keyPath(segments[...], from: compiler.root, path: sort.keyPath),
                  kind == .number || kind == .date || kind == .string else {
                throw StoreFetchUnsupported()
            }
            if kind == .string && sort.comparison != .compare { throw StoreFetchUnsupported() }
            return term + (sort.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST")
        }
    }

    // MARK: - Decoding rows

    /// The row under the statement's cursor, whose columns are its table's select list, of
    /// the plan's entity, read at `loadedAt`. Values arrive as PostgreSQL's text.
    func decodeRow(_ statement: PostgreSQLStoreStatement, _ plan: SQLEntityPlan, loadedAt: TimeInterval) throws -> StoreRow {
        guard let result = statement.result else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "\(storeName) was asked for a row before its statement ran.")
        }
        let r = statement.row
        let pk = result.int64(r, 0) ?? 0
        let row = StoreRow(entity: plan.entity, pk: pk, version: result.int64(r, 2) ?? 0, textBytes: 0, loadedAt: loadedAt)
        try decodeFields(result, r, plan, pk: pk, into: row.values)
        return row
    }

    /// Decodes the plan's fields of row `r` of `result` into `values` (NULL columns are
    /// left as they are).
    func decodeFields(_ result: PostgreSQLResult, _ r: Int, _ plan: SQLEntityPlan, pk: Int64,
                      into values: borrowing RowValues) throws {
        for field in plan.fields {
            let i = Int(field.position)
            if result.isNull(r, i) { continue }
            switch field.kind {
            case let .toOne(destination, entityColumn, entityPosition):
                var entityID = destination.runtime.entityID
                if let p = entityPosition, let stored = result.int64(r, Int(p)), stored > 0 {
                    entityID = Int(stored)
                    if let relationship = plan.entity.runtime.slotProperties[Int(field.slot)] as? NSRelationshipDescription {
                        try checkMember(entityID, of: destination, table: plan.tableName, pk: pk,
                                        column: entityColumn ?? field.column, relationship: relationship)
                    }
                }
                values.setKey(StoreKey(entityID: entityID, pk: result.int64(r, i) ?? 0), at: field.slot)
            case .value(let kind):
                switch kind {
                case .integer:
                    let v = result.int64(r, i) ?? 0
                    if let bounds = field.bounds, !bounds.contains(v) {
                        throw corruptRow(table: plan.tableName, pk: pk, column: field.column,
                                         "holds \(v), which does not fit its attribute \(field.attributeDescription(plan))")
                    }
                    values.setInt64(v, at: field.slot)
                case .boolean: values.setBool((result.int64(r, i) ?? 0) != 0, at: field.slot)
                case .double: values.setDouble(result.double(r, i) ?? 0, at: field.slot)
                case .date: values.setDate(result.double(r, i) ?? 0, at: field.slot)
                case .decimal: values.setText(result.string(r, i) ?? "0", at: field.slot)
                case .text:
                    if let bytes = result.bytes(r, i) { values.setText(bytes: bytes, at: field.slot) }
                case .uuid:
                    if let data = result.data(r, i), data.count == 16 {
                        data.withUnsafeBytes { _ = values.setUUID(bytes: $0, at: field.slot) }
                    }
                case .blob, .externalBlob:
                    // The PostgreSQL store keeps every binary value in its row, unmarked.
                    if let data = result.data(r, i) {
                        data.withUnsafeBytes { _ = values.setBlob(bytes: $0, at: field.slot) }
                    }
                }
            }
        }
    }
}

// MARK: - Aggregates

/// Aggregates and `GROUP BY` in SQL (`SQLStoreCore+Aggregates.swift`).
extension PostgreSQLStoreBackend: AggregatingStoreBackend {}
