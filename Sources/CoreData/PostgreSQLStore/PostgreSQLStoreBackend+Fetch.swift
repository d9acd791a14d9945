import Foundation

// MARK: - Fetching

extension PostgreSQLStoreBackend {
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: selectLists[t])
        return try read { connection in
            let result = try connection.execute(sql, Self.values(bindings))
            return try (0..<result.rowCount).compactMap { try decodeRow(result, $0, table: t) }
        }
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: "t0.Z_ENT, t0.Z_PK")
        return try read { connection in
            let result = try connection.execute(sql, Self.values(bindings))
            return try (0..<result.rowCount).map { r in
                let entityID = Int(result.int64(r, 0) ?? 0), pk = result.int64(r, 1) ?? 0
                _ = try rowPlan(entityID, table: t, pk: pk)
                return StoreKey(entityID: entityID, pk: pk)
            }
        }
    }

    func count(_ plan: FetchPlan) throws -> Int {
        guard let t = schema.tableIndex(for: plan.entity) else { return 0 }
        let compiler = makeCompiler(plan.entity)
        let condition = try whereClause(plan, compiler)
        let sql = "SELECT COUNT(*) FROM " + compiler.fromClause(table: schema.tables[t].name) + condition
        let total = try read { connection in
            Int(try connection.execute(sql, Self.values(compiler.bindings)).int64(0, 0) ?? 0)
        }
        let remaining = max(0, total - max(0, plan.offset))
        return plan.limit > 0 ? min(plan.limit, remaining) : remaining
    }

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        try rows(entity: entity, pks: [pk]).first
    }

    /// Rows by primary key, 500 per statement.
    func rows(entity: NSEntityDescription, pks: [Int64]) throws -> [StoreRow] {
        guard let t = schema.tableIndex(for: entity) else { return [] }
        var rows: [StoreRow] = []
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + 500)]
            start += chunk.count
            let list = chunk.map(String.init).joined(separator: ", ")
            let sql = "SELECT \(selectLists[t]) FROM \(schema.tables[t].name) t0 WHERE t0.Z_PK IN (\(list))"
            rows += try read { connection in
                let result = try connection.execute(sql)
                return try (0..<result.rowCount).compactMap { try decodeRow(result, $0, table: t) }
            }
        }
        return rows
    }

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        if relationship.isToMany { return try relatedKeys(relationship: relationship, pks: [pk])[pk] ?? [] }
        guard let destination = relationship.destinationEntity,
              let destinationTable = schema.tableIndex(for: destination),
              let fk = schema.toOneColumns[ObjectIdentifier(relationship)]?.fk,
              let t = schema.tableIndex(for: relationship.entity) else { return [] }
        let sql = "SELECT d.Z_ENT, d.Z_PK FROM \(schema.tables[t].name) s JOIN \(schema.tables[destinationTable].name) d ON d.Z_PK = s.\(fk) WHERE s.Z_PK = $1"
        return try read { connection in
            let result = try connection.execute(sql, [.integer(pk)])
            return (0..<result.rowCount).map { StoreKey(entityID: Int(result.int64($0, 0) ?? 0), pk: result.int64($0, 1) ?? 0) }
        }
    }

    /// The member keys of a to-many relationship for many sources, 500 sources per statement,
    /// ordered by source then by the relationship's order; for a to-one, each source's
    /// destination (what a batch delete's rules follow).
    func relatedKeys(relationship: NSRelationshipDescription, pks: [Int64]) throws -> [Int64: [StoreKey]] {
        guard relationship.isToMany else { return try toOneKeys(relationship: relationship, pks: pks) }
        guard let destination = relationship.destinationEntity,
              let destinationTable = schema.tableIndex(for: destination) else { return [:] }
        let destinationName = schema.tables[destinationTable].name
        var result: [Int64: [StoreKey]] = [:]
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + 500)]
            start += chunk.count
            let list = chunk.map(String.init).joined(separator: ", ")
            let sql: String
            switch schema.toMany[ObjectIdentifier(relationship)] {
            case let .children(_, foreignKey, orderColumn)?:
                let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
                sql = "SELECT \(foreignKey), Z_ENT, Z_PK FROM \(destinationName) WHERE \(foreignKey) IN (\(list)) ORDER BY \(foreignKey), \(order)"
            case let .join(index, sourceIsA)?:
                let join = schema.joinTables[index]
                let (source, member, order) = sourceIsA
                    ? (join.columnA, join.columnB, join.orderB)
                    : (join.columnB, join.columnA, join.orderA)
                let orderBy = order.map { "j.\($0), d.Z_PK" } ?? "d.Z_PK"
                sql = "SELECT j.\(source), d.Z_ENT, d.Z_PK FROM \(join.name) j JOIN \(destinationName) d ON d.Z_PK = j.\(member) WHERE j.\(source) IN (\(list)) ORDER BY j.\(source), \(orderBy)"
            case nil:
                return [:]
            }
            try read { connection in
                let rows = try connection.execute(sql)
                for r in 0..<rows.rowCount {
                    let key = StoreKey(entityID: Int(rows.int64(r, 1) ?? 0), pk: rows.int64(r, 2) ?? 0)
                    result[rows.int64(r, 0) ?? 0, default: []].append(key)
                }
            }
        }
        return result
    }

    // MARK: - SQL

    func makeCompiler(_ entity: NSEntityDescription) -> SQLPredicateCompiler {
        SQLPredicateCompiler(schema: schema, entity: entity, backend: self, dialect: .postgreSQL)
    }

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

    /// ` WHERE …`: the plan's entities and its compiled predicate; empty when nothing filters.
    func whereClause(_ plan: FetchPlan, _ compiler: SQLPredicateCompiler) throws -> String {
        var terms: [String] = []
        let entity = plan.entity
        if plan.includesSubentities {
            if entity !== entity.runtime.root {
                let ids = entity.runtime.family.map { String($0.runtime.entityID) }
                terms.append("t0.Z_ENT IN (\(ids.joined(separator: ", ")))")
            }
        } else {
            terms.append("t0.Z_ENT = \(entity.runtime.entityID)")
        }
        if let predicate = plan.predicate {
            let condition = try compiler.condition(predicate)
            if condition != compiler.yes { terms.append(condition) }
        }
        return terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
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

    /// The compiler's bindings as libpq parameters.
    static func values(_ bindings: [SQLBinding]) -> [PostgreSQLValue] {
        bindings.map { binding in
            switch binding {
            case .null: .null
            case .integer(let v): .integer(v)
            case .real(let v): .real(v)
            case .text(let v): .text(v)
            case .blob(let v): .bytes(v)
            }
        }
    }

    // MARK: - Decoding rows

    /// The plan for a row of table `t` whose `Z_ENT` is `entityID`.
    func rowPlan(_ entityID: Int, table t: Int, pk: Int64) throws -> EntityPlan {
        guard let plan = plans[entityID], plan.table == t else {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The PostgreSQL store at \(displayURL) holds a row the model does not allow: table \(schema.tables[t].name), row Z_PK = \(pk), column Z_ENT holds \(entityID), which is no entity of this table.")
        }
        return plan
    }

    /// Row `r` of a result whose columns are a table's select list.
    func decodeRow(_ result: PostgreSQLResult, _ r: Int, table t: Int) throws -> StoreRow {
        let pk = result.int64(r, 0) ?? 0
        let plan = try rowPlan(Int(result.int64(r, 1) ?? 0), table: t, pk: pk)
        let row = StoreRow(entity: plan.entity, pk: pk, version: result.int64(r, 2) ?? 0)
        for field in plan.fields {
            let i = Int(field.position)
            if result.isNull(r, i) { continue }
            switch field.kind {
            case let .toOne(destination, _, entityPosition):
                var entityID = destination.runtime.entityID
                if let p = entityPosition, let stored = result.int64(r, Int(p)), stored > 0 { entityID = Int(stored) }
                row.values.setKey(StoreKey(entityID: entityID, pk: result.int64(r, i) ?? 0), at: field.slot)
            case .value(let kind):
                switch kind {
                case .integer:
                    let v = result.int64(r, i) ?? 0
                    if let bounds = field.bounds, !bounds.contains(v) {
                        throw CoreDataError.make(
                            NSPersistentStoreOperationError,
                            "The PostgreSQL store at \(displayURL) holds \(v) in \(plan.tableName).\(field.column) (Z_PK = \(pk)), which does not fit its attribute.")
                    }
                    row.values.setInt64(v, at: field.slot)
                case .boolean: row.values.setBool((result.int64(r, i) ?? 0) != 0, at: field.slot)
                case .double: row.values.setDouble(result.double(r, i) ?? 0, at: field.slot)
                case .date: row.values.setDate(result.double(r, i) ?? 0, at: field.slot)
                case .decimal: row.values.setText(result.string(r, i) ?? "0", at: field.slot)
                case .text:
                    if let bytes = result.bytes(r, i) { row.values.setText(bytes: bytes, at: field.slot) }
                case .uuid:
                    if let data = result.data(r, i), data.count == 16 {
                        data.withUnsafeBytes { _ = row.values.setUUID(bytes: $0, at: field.slot) }
                    }
                case .blob, .externalBlob:
                    // The PostgreSQL store keeps every binary value in its row, unmarked.
                    if let data = result.data(r, i) {
                        data.withUnsafeBytes { _ = row.values.setBlob(bytes: $0, at: field.slot) }
                    }
                }
            }
        }
        return row
    }
}
