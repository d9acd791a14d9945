import Foundation

// MARK: - Rows that break the model's rules

extension SQLiteStoreBackend {
    /// The error for a row of the store that no model-conforming save can have written: a
    /// `Z_ENT` naming no entity of the table, a to-many member or to-one destination of
    /// another entity, an integer too large for its attribute's width. Its message names
    /// the file, the table, the row's `Z_PK` and the column; so do its userInfo keys
    /// `table`, `Z_PK` and `column` (beside `NSFilePathErrorKey` and `NSURLErrorKey`).
    ///
    /// The code is `NSPersistentStoreOperationError` (134070), the code this store uses
    /// for any read that fails: the file is a sound SQLite database, so
    /// `NSFileReadCorruptFileError` (which SQLite's own corruption reports get) would
    /// send the reader looking at the file rather than at one row, and
    /// `NSManagedObjectValidationError` is about objects a context is saving.
    ///
    /// - Note: Apple parity: Apple's store skips such rows, traps, or wraps such integers;
    ///   reading them here throws instead, so that a damaged store is noticed and named.
    func corruptRow(table: String, pk: Int64, column: String, _ problem: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreOperationError,
            "The store at \(url.path) holds a row the model does not allow: table \(table), "
                + "row Z_PK = \(pk), column \(column) \(problem).",
            userInfo: [NSFilePathErrorKey: url.path, NSURLErrorKey: url,
                       "table": table, "Z_PK": pk, "column": column])
    }

    /// The plan for a row of table `t` whose `Z_ENT` is `entityID`; throws when that is no
    /// entity of this store or an entity stored in another table.
    func rowPlan(_ entityID: Int, table t: Int, pk: Int64) throws -> EntityPlan {
        guard let plan = plans[entityID], plan.table == t else {
            let known = plans.values.filter { $0.table == t }.map { "\($0.entity.runtime.entityID) (\($0.entity.name ?? "?"))" }
            throw corruptRow(
                table: schema.tables[t].name, pk: pk, column: "Z_ENT",
                "holds \(entityID), which is no entity of this table (expected one of \(known.sorted().joined(separator: ", ")))")
        }
        return plan
    }

    /// Checks that `entityID`, the `Z_ENT` of a relationship's member or destination, is
    /// `destination` or one of its sub-entities; `table`, `pk` and `column` say where it
    /// was read.
    func checkMember(
        _ entityID: Int, of destination: NSEntityDescription, table: String, pk: Int64, column: String,
        relationship: NSRelationshipDescription
    ) throws {
        if entityID == destination.runtime.entityID { return }
        var entity = plans[entityID]?.entity
        while let current = entity, current !== destination { entity = current.superentity }
        guard entity == nil else { return }
        let found = plans[entityID]?.entity.name.map { "\(entityID) (\($0))" } ?? "\(entityID), which is no entity of this store,"
        throw corruptRow(
            table: table, pk: pk, column: column,
            "holds \(found) where the relationship \(relationship.entity.name ?? "?").\(relationship.name) "
                + "needs \(destination.name ?? "?") or a sub-entity")
    }
}

extension SQLiteStoreBackend {
    /// The values an integer attribute of `type` can hold, when narrower than 64 bits.
    static func integerBounds(_ type: NSAttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
        case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
        default: nil
        }
    }
}

extension SQLiteStoreBackend.Field {
    /// `Entity.name (Integer 16)`: the attribute this field reads, for error messages.
    func attributeDescription(_ plan: SQLiteStoreBackend.EntityPlan) -> String {
        let name = plan.entity.runtime.slotProperties[Int(slot)].name
        let width = bounds == SQLiteStoreBackend.integerBounds(.integer16AttributeType) ? "Integer 16" : "Integer 32"
        return "\(plan.entity.name ?? "?").\(name) (\(width))"
    }
}
