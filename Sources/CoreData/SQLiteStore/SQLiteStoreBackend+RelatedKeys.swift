import Foundation

// MARK: - The members of many to-many relationships in one query

extension SQLiteStoreBackend {
    /// The member keys of a to-many relationship for many sources, one statement per 500
    /// sources: children by their foreign key, or join-table rows, ordered by source then
    /// by the relationship's order. What relationship prefetching reads. For a to-one, each
    /// source's destination (what a batch delete's rules follow).
    func relatedKeys(relationship: NSRelationshipDescription, pks: [Int64]) throws -> [Int64: [StoreKey]] {
        guard relationship.isToMany else { return try toOneKeys(relationship: relationship, pks: pks) }
        let connection = try requireConnection()
        guard let destination = relationship.destinationEntity,
              let destinationTable = schema.tableIndex(for: destination) else { return [:] }
        let destinationName = schema.tables[destinationTable].name
        var result: [Int64: [StoreKey]] = [:]
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + 500)]
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
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
            try readFailure {
                let statement = try connection.cached(sql)
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
}
