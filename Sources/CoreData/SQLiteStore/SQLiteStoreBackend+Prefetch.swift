import Foundation

// MARK: - Reading the members of a to-many with their rows

extension SQLiteStoreBackend {
    /// The rows of the objects a one-to-many relationship holds (children found by their
    /// foreign key), in `relatedKeys`' order, read in one query. Apple's store does the
    /// same when a to-many fault fires: the members arrive as faults whose data is
    /// already in the row cache. Many-to-many relationships answer nil (keys only); a
    /// child whose `Z_ENT` is not the destination entity or one of its sub-entities is an
    /// error naming its row.
    func relatedRows(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreRow]? {
        guard relationship.isToMany, let destination = relationship.destinationEntity,
              let (table, sql) = memberSelects[ObjectIdentifier(relationship)]
        else { return nil }
        let connection = try requireConnection()
        return try readFailure {
            let statement = try connection.cached(sql)
            try statement.bind(1, pk)
            defer { statement.reset() }
            var rows: [StoreRow] = []
            let now = StoreRow.now()
            let destinationID = destination.runtime.entityID
            while try statement.step() {
                let row = try decodeRow(statement, table: table, loadedAt: now)
                let entityID = row.entity.runtime.entityID
                if entityID == destinationID {
                    rows.append(row)
                    continue
                }
                try checkMember(entityID, of: destination, table: schema.tables[table].name,
                                pk: row.pk, column: "Z_ENT", relationship: relationship)
                rows.append(row)
            }
            return rows
        }
    }
}
