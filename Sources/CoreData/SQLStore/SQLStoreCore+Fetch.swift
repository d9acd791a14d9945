import Foundation

// MARK: - Fetching

extension SQLStoreCore {
    /// The rows a plan selects, in order; each row's `Z_ENT` is checked against the table
    /// (the plan of consecutive rows of one entity is looked up once).
    func fetchRows(_ plan: FetchPlan, sql: String, bindings: [SQLBinding], table t: Int) throws -> [StoreRow] {
        try reading { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            var rows: [StoreRow] = []
            var last: (entityID: Int, plan: SQLEntityPlan?) = (-1, nil)
            let now = StoreRow.now()
            while try statement.step() {
                let entityID = Int(statement.int64(1))
                if entityID != last.entityID { last = (entityID, try rowPlan(entityID, table: t, pk: statement.int64(0))) }
                if let plan = last.plan { rows.append(try decodeRow(statement, plan, loadedAt: now)) }
            }
            return rows
        }
    }

    /// The keys of the rows a SELECT of `t0.Z_ENT, t0.Z_PK` returns, in order, without
    /// reading their values (for `includesPropertyValues = false` and batched fetches).
    func fetchKeys(sql: String, bindings: [SQLBinding], table t: Int) throws -> [StoreKey] {
        try reading { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            var keys: [StoreKey] = []
            var last = -1
            while try statement.step() {
                let entityID = Int(statement.int64(0))
                if entityID != last {
                    _ = try rowPlan(entityID, table: t, pk: statement.int64(1))
                    last = entityID
                }
                keys.append(StoreKey(entityID: entityID, pk: statement.int64(1)))
            }
            return keys
        }
    }

    func count(_ plan: FetchPlan) throws -> Int {
        guard let t = schema.tableIndex(for: plan.entity) else { return 0 }
        let compiler = makeCompiler(plan.entity)
        let condition = try whereClause(plan, compiler)
        let sql = "SELECT COUNT(*) FROM " + compiler.fromClause(table: schema.tables[t].name) + condition
        let total: Int = try reading { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(compiler.bindings)
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
        let remaining = max(0, total - max(0, plan.offset))
        return plan.limit > 0 ? min(plan.limit, remaining) : remaining
    }

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        guard let t = schema.tableIndex(for: entity) else { return nil }
        let sql = "SELECT " + fetchColumnLists[t] + " FROM " + schema.tables[t].name + " t0 WHERE t0.Z_PK = " + dialect.parameter(1)
        return try reading { connection in
            let statement = try connection.statement(sql)
            try statement.bind(1, pk)
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return try decodeRow(statement, rowPlan(Int(statement.int64(1)), table: t, pk: statement.int64(0)),
                                 loadedAt: StoreRow.now())
        }
    }

    /// Rows by primary key (those that still exist), 500 per statement.
    func rows(entity: NSEntityDescription, pks: [Int64]) throws -> [StoreRow] {
        guard let t = schema.tableIndex(for: entity) else { return [] }
        let select = "SELECT \(fetchColumnLists[t]) FROM \(schema.tables[t].name) t0 WHERE t0.Z_PK"
        var rows: [StoreRow] = []
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + 500)]
            start += chunk.count
            let sql = chunk.count == 1
                ? select + " = " + dialect.parameter(1)
                : select + " IN (" + (1...chunk.count).map(dialect.parameter).joined(separator: ", ") + ")"
            try reading { connection in
                let statement = try connection.statement(sql)
                defer { statement.reset() }
                for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
                let now = StoreRow.now()
                while try statement.step() {
                    rows.append(try decodeRow(statement, rowPlan(Int(statement.int64(1)), table: t, pk: statement.int64(0)),
                                              loadedAt: now))
                }
            }
        }
        return rows
    }

    // MARK: - Related keys

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        // To-many members: the batched query with one source.
        if relationship.isToMany { return try relatedKeys(relationship: relationship, pks: [pk])[pk] ?? [] }
        guard let destination = relationship.destinationEntity,
              let destinationTable = schema.tableIndex(for: destination),
              let fk = schema.toOneColumns[ObjectIdentifier(relationship)]?.fk,
              let t = schema.tableIndex(for: relationship.entity) else { return [] }
        let destinationName = schema.tables[destinationTable].name
        let sql = "SELECT d.Z_ENT, d.Z_PK FROM \(schema.tables[t].name) s JOIN \(destinationName) d ON d.Z_PK = s.\(fk) WHERE s.Z_PK = \(dialect.parameter(1))"
        return try reading { connection in
            let statement = try connection.statement(sql)
            try statement.bind(1, pk)
            defer { statement.reset() }
            var keys: [StoreKey] = []
            while try statement.step() {
                let key = StoreKey(entityID: Int(statement.int64(0)), pk: statement.int64(1))
                try checkMember(key.entityID, of: destination, table: destinationName, pk: key.pk, column: "Z_ENT",
                                relationship: relationship)
                keys.append(key)
            }
            return keys
        }
    }

    /// The member keys of a to-many relationship for many sources, one statement per 500
    /// sources: children by their foreign key, or join-table rows, ordered by source then
    /// by the relationship's order. What relationship prefetching reads. For a to-one, each
    /// source's destination (what a batch delete's rules follow).
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
            let marks = (1...chunk.count).map(dialect.parameter).joined(separator: ", ")
            let sql: String
            switch schema.toMany[ObjectIdentifier(relationship)] {
            case let .children(_, foreignKey, orderColumn)?:
                let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
                sql = "SELECT \(foreignKey), Z_ENT, Z_PK FROM \(destinationName) WHERE \(foreignKey) IN (\(marks)) ORDER BY \(foreignKey), \(order)"
            case let .join(index, sourceIsA)?:
                let join = schema.joinTables[index]
                let (source, member, order) = sourceIsA
                    ? (join.columnA, join.columnB, join.orderB)
                    : (join.columnB, join.columnA, join.orderA)
                let orderBy = order.map { "j.\($0), d.Z_PK" } ?? "d.Z_PK"
                sql = "SELECT j.\(source), d.Z_ENT, d.Z_PK FROM \(join.name) j JOIN \(destinationName) d ON d.Z_PK = j.\(member) WHERE j.\(source) IN (\(marks)) ORDER BY j.\(source), \(orderBy)"
            case nil:
                return [:]
            }
            try reading { connection in
                let statement = try connection.statement(sql)
                defer { statement.reset() }
                for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
                while try statement.step() {
                    let key = StoreKey(entityID: Int(statement.int64(1)), pk: statement.int64(2))
                    try checkMember(key.entityID, of: destination, table: destinationName, pk: key.pk,
                                    column: "Z_ENT", relationship: relationship)
                    result[statement.int64(0), default: []].append(key)
                }
            }
        }
        return result
    }

    // MARK: - SQL pieces

    /// ` WHERE …`: the plan's entities (`Z_ENT`, unless every row of the table
    /// qualifies) and its compiled predicate; empty when nothing filters.
    func whereClause(_ plan: FetchPlan, _ compiler: SQLPredicateCompiler) throws -> String {
        var terms: [String] = []
        let entity = plan.entity
        if plan.includesSubentities {
            if entity !== entity.runtime.root {
                let ids = entity.runtime.family.map { String($0.runtime.entityID) }
                terms.append(ids.count == 1 ? "t0.Z_ENT = \(ids[0])" : "t0.Z_ENT IN (\(ids.joined(separator: ", ")))")
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
}
