import Foundation

// MARK: - Aggregates and GROUP BY, in SQL, for both SQL stores

extension SQLStoreCore {
    /// One `SELECT` of aggregates (`COUNT`, `SUM` (0 over no rows, as memory sums), `MIN`,
    /// `MAX`, `AVG`) over the rows the plan selects, `GROUP BY` the grouped columns, groups
    /// in the order of their lowest `Z_PK` (the order in which fetched rows first show each
    /// group). Key paths through to-one relationships are `LEFT JOIN`s, as in predicates (a
    /// nil relationship gives NULL). Nil when a column is not a number, string or date SQL
    /// can read (a relationship, a transformable...).
    func fetchAggregates(_ query: StoreAggregateQuery) throws -> [[StoreAggregateValue]]? {
        guard let t = schema.tableIndex(for: query.plan.entity) else { return nil }
        let compiler = makeCompiler(query.plan.entity)
        var select: [String] = []
        var groupBy: [String] = []
        for column in query.columns {
            guard case .scalar(let value, let kind) = try compiler.term(NSExpression(forKeyPath: column.keyPath), compiler.root),
                  kind == .number || kind == .string || kind == .date else { return nil }
            switch column.function {
            case nil:
                select.append(value)
                groupBy.append(value)
            case .count?: select.append("COUNT(\(value))")
            case .sum?: select.append("COALESCE(SUM(\(value)), 0)")
            case .min?: select.append("MIN(\(value))")
            case .max?: select.append("MAX(\(value))")
            case .average?: select.append("AVG(\(value))")
            }
        }
        let condition = try whereClause(query.plan, compiler)
        var sql = "SELECT \(select.joined(separator: ", ")) FROM "
            + compiler.fromClause(table: schema.tables[t].name) + condition
        if !groupBy.isEmpty {
            sql += " GROUP BY \(groupBy.joined(separator: ", ")) ORDER BY MIN(t0.Z_PK)"
        }
        let bindings = compiler.bindings
        return try reading { connection in
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            var rows: [[StoreAggregateValue]] = []
            while try statement.step() {
                rows.append(query.columns.indices.map { i in
                    let index = Int32(i)
                    if statement.isNull(index) { return .null }
                    switch query.columns[i].read {
                    case .integer: return .integer(statement.int64(index))
                    case .real: return .real(statement.double(index))
                    case .text: return statement.string(index).map(StoreAggregateValue.text) ?? .null
                    }
                })
            }
            return rows
        }
    }
}
