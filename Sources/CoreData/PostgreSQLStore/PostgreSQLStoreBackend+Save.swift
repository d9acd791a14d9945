import Foundation

// MARK: - Saving

extension PostgreSQLStoreBackend {
    /// The gap between ordering keys (`Z_FOK_` columns) of consecutive members.
    static let orderingStep: Int64 = 1024

    /// Reserves keys with one atomic `UPDATE … RETURNING` on the root's `Z_PRIMARYKEY` row:
    /// two processes never get the same key (the row lock orders them), and a save that fails
    /// later only leaves a gap.
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        guard count > 0 else { return 0 }
        try checkWritable()
        let root = Int64(entity.runtime.root.runtime.entityID)
        let connection = try requireConnection()
        do {
            let result = try connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + $1 WHERE Z_ENT = $2 RETURNING Z_MAX",
                [.integer(Int64(count)), .integer(root)])
            guard let max = result.int64(0, 0) else {
                throw CoreDataError.make(NSPersistentStoreOperationError, "Z_PRIMARYKEY has no row for \(entity.runtime.root.name ?? "?").")
            }
            return max - Int64(count) + 1
        } catch let error as PostgreSQLError {
            throw storeError(NSPersistentStoreSaveError, "Reserving keys in", error)
        }
    }

    func checkWritable() throws {
        if isReadOnly {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The PostgreSQL store at \(displayURL) was opened read-only.")
        }
    }

    /// Applies a change set in one transaction (READ COMMITTED). Every update and delete must
    /// find its row at the version the context read (`Z_OPT`), else the transaction is rolled
    /// back and `StoreConflict` thrown, naming every row in conflict. Locked rows are read
    /// `FOR SHARE`, so they cannot change before the commit.
    ///
    /// A connection lost during the save is never saved again: the server rolled back what it
    /// had not committed, and the error reaches `save()` (`NSPersistentStoreSaveError`, the
    /// server's message in the description); the next call reconnects. A save the server
    /// refused as a serialization failure or a deadlock (SQLSTATE 40001, 40P01: nothing was
    /// committed) is run again, up to ``saveAttempts`` times in all. With
    /// `NSPostgreSQLSerializableOption`, saves run at SERIALIZABLE.
    func save(_ changes: StoreChanges) throws {
        try checkWritable()
        var attempt = 1
        while true {
            do {
                try saveOnce(changes)
                return
            } catch let error as NSError where attempt < Self.saveAttempts
                && ((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo["PostgreSQLState"] as? String)
                    .map({ $0 == "40001" || $0 == "40P01" }) == true {
                // Nothing of it was committed: the server rolled the transaction back.
                attempt += 1
            }
        }
    }

    /// One attempt of ``save(_:)``.
    private func saveOnce(_ changes: StoreChanges) throws {
        let connection = try requireConnection()
        do {
            try connection.transaction(isolation: isSerializable ? "SERIALIZABLE" : nil) {
                var conflicts: [StoreConflict.Row] = []
                for lock in changes.locks {
                    if let conflict = try check(lock, on: connection) { conflicts.append(conflict) }
                }
                for write in changes.inserts { try insert(write, on: connection) }
                for write in changes.updates {
                    if let conflict = try update(write, on: connection) { conflicts.append(conflict) }
                }
                for link in changes.linksRemoved { try removeLink(link, on: connection) }
                for delete in changes.deletes {
                    if let conflict = try self.delete(delete, on: connection) { conflicts.append(conflict) }
                }
                if !conflicts.isEmpty { throw StoreConflict(rows: conflicts) }
                for link in changes.linksAdded { try addLink(link, on: connection) }
                for ordering in changes.orderings {
                    try order(ordering.relationship, source: ordering.source, ordering.destinations, on: connection)
                }
                if !(metadata as NSDictionary).isEqual(storedMetadata) {
                    metadata = SQLiteMetadata.keepingStoreKeys(metadata, from: storedMetadata as? [String: Any] ?? [:])
                    try Self.writeMetadata(metadata, on: connection)
                }
            }
        } catch let error as PostgreSQLError {
            let code = error.isUniqueViolation ? NSManagedObjectConstraintMergeError : NSPersistentStoreSaveError
            throw storeError(code, "Saving to", error)
        }
        storedMetadata = metadata as NSDictionary
    }

    func plan(for entity: NSEntityDescription) throws -> EntityPlan {
        guard let plan = plans[entity.runtime.entityID], plan.entity === entity else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.name ?? "?") is not in the PostgreSQL store at \(displayURL).")
        }
        return plan
    }

    // MARK: Rows

    private func insert(_ write: StoreChanges.Write, on connection: PostgreSQLConnection) throws {
        let plan = try plan(for: write.entity)
        let key = WriteSQLKey(entityID: write.entity.runtime.entityID, update: false, fields: [])
        var values: [PostgreSQLValue] = [.integer(write.pk), .integer(Int64(write.entity.runtime.entityID)), .integer(1)]
        for field in plan.fields { try bind(field, of: write.values, into: &values, on: connection) }
        let sql: String
        if let cached = writeSQL[key] {
            sql = cached
        } else {
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            for field in plan.fields {
                columns.append(field.column)
                if case let .toOne(_, entityColumn?, _) = field.kind { columns.append(entityColumn) }
            }
            let marks = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
            sql = "INSERT INTO \(plan.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))"
            writeSQL[key] = sql
        }
        try connection.execute(sql, values)
    }

    private func update(_ write: StoreChanges.Write, on connection: PostgreSQLConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: write.entity)
        let indexes = write.changedSlots.compactMap { plan.fieldBySlot[$0] }.sorted()
        let fields = indexes.map { plan.fields[$0] }
        var values: [PostgreSQLValue] = []
        for field in fields { try bind(field, of: write.values, into: &values, on: connection) }
        let key = WriteSQLKey(entityID: write.entity.runtime.entityID, update: true, fields: indexes)
        let sql: String
        if let cached = writeSQL[key] {
            sql = cached
        } else {
            var assignments: [String] = []
            var n = 0
            for field in fields {
                n += 1
                assignments.append("\(field.column) = $\(n)")
                if case let .toOne(_, entityColumn?, _) = field.kind {
                    n += 1
                    assignments.append("\(entityColumn) = $\(n)")
                }
            }
            assignments.append("Z_OPT = Z_OPT + 1")
            sql = "UPDATE \(plan.tableName) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = $\(n + 1) AND Z_OPT = $\(n + 2)"
            writeSQL[key] = sql
        }
        values += [.integer(write.pk), .integer(write.expectedVersion)]
        if try connection.execute(sql, values).affectedRows == 0 {
            return try conflict(write.entity, write.pk, write.expectedVersion, table: plan.tableName, on: connection)
        }
        return nil
    }

    private func delete(_ delete: StoreChanges.Delete, on connection: PostgreSQLConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: delete.entity)
        let result = try connection.execute(
            "DELETE FROM \(plan.tableName) WHERE Z_PK = $1 AND Z_OPT = $2",
            [.integer(delete.pk), .integer(delete.expectedVersion)])
        if result.affectedRows == 0 {
            return try conflict(delete.entity, delete.pk, delete.expectedVersion, table: plan.tableName, on: connection)
        }
        // Join-table rows that name the deleted object go with it.
        let root = delete.entity.runtime.root
        for entity in schema.entitiesByID.values where entity.runtime.root === root {
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.entity === entity {
                guard case let .join(index, sourceIsA)? = schema.toMany[ObjectIdentifier(relationship)] else { continue }
                let join = schema.joinTables[index]
                let column = sourceIsA ? join.columnA : join.columnB
                try connection.execute("DELETE FROM \(join.name) WHERE \(column) = $1", [.integer(delete.pk)])
            }
        }
        return nil
    }

    private func check(_ lock: StoreChanges.Lock, on connection: PostgreSQLConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: lock.entity)
        let result = try connection.execute(
            "SELECT Z_OPT FROM \(plan.tableName) WHERE Z_PK = $1 FOR SHARE", [.integer(lock.pk)])
        let stored = result.int64(0, 0)
        guard stored != lock.expectedVersion else { return nil }
        return StoreConflict.Row(entity: lock.entity, pk: lock.pk, storedVersion: stored, expectedVersion: lock.expectedVersion)
    }

    private func conflict(
        _ entity: NSEntityDescription, _ pk: Int64, _ expected: Int64, table: String,
        on connection: PostgreSQLConnection
    ) throws -> StoreConflict.Row {
        let stored = try connection.execute("SELECT Z_OPT FROM \(table) WHERE Z_PK = $1", [.integer(pk)]).int64(0, 0)
        return StoreConflict.Row(entity: entity, pk: pk, storedVersion: stored, expectedVersion: expected)
    }

    // MARK: Values

    /// Appends the parameter(s) of a slot of `row`: its column's, and for a to-one whose
    /// destination has sub-entities, the `Z<n>_` entity column's.
    private func bind(
        _ field: Field, of row: StoreRow, into values: inout [PostgreSQLValue], on connection: PostgreSQLConnection
    ) throws {
        let value = row.values.value(at: field.slot)
        switch field.kind {
        case let .toOne(destination, entityColumn, _):
            guard !value.isNull else {
                values.append(.null)
                if entityColumn != nil { values.append(.null) }
                return
            }
            guard let key = row.values.storeKey(at: field.slot) else {
                throw badValue(field, row, "a to-one relationship must name its destination by store key")
            }
            values.append(.integer(key.pk))
            if entityColumn != nil {
                var entityID = Int64(key.entityID)
                if entityID == 0, let t = schema.tableIndex(for: destination) {
                    entityID = try connection.execute(
                        "SELECT Z_ENT FROM \(schema.tables[t].name) WHERE Z_PK = $1", [.integer(key.pk)]
                    ).int64(0, 0) ?? Int64(destination.runtime.entityID)
                }
                values.append(.integer(entityID))
            }
        case let .value(kind):
            guard !value.isNull else { values.append(.null); return }
            switch value.type {
            case .int64, .bool:
                switch kind {
                case .double, .date: values.append(.real(Double(value.int64)))
                case .decimal: values.append(.numeric(String(value.int64)))
                case .boolean: values.append(.integer(value.bool ? 1 : 0))
                default: values.append(.integer(value.int64))
                }
            case .double, .date:
                values.append(kind == .decimal ? .numeric(SQLiteStoreBackend.decimalString(value.double)) : .real(value.double))
            case .text:
                switch kind {
                case .decimal: values.append(.numeric(value.string))
                case .blob, .uuid: values.append(.bytes(Data(value.bytes)))
                default: values.append(.text(value.string))
                }
            case .blob:
                values.append(.bytes(Data(value.bytes)))
            case .uuid:
                values.append(.bytes(withUnsafeBytes(of: value.uuid.uuid) { Data($0) }))
            case .box:
                throw badValue(field, row, "a boxed (transformable) value reached the store unconverted")
            case .null, .object, .set, .key:
                throw badValue(field, row, "a value of runtime type \(value.type) cannot be stored in a column")
            }
        }
    }

    private func badValue(_ field: Field, _ row: StoreRow, _ reason: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreSaveError,
            "Cannot save \(row.entity.name ?? "?").\(field.column) (p\(row.pk)): \(reason).")
    }

    // MARK: Links and orderings

    private func joinColumns(_ relationship: NSRelationshipDescription) throws -> (table: String, source: String, member: String, order: String?) {
        guard case let .join(index, sourceIsA)? = schema.toMany[ObjectIdentifier(relationship)] else {
            throw CoreDataError.make(
                NSPersistentStoreSaveError,
                "The relationship \(relationship.entity.name ?? "?").\(relationship.name) has no join table.")
        }
        let join = schema.joinTables[index]
        return sourceIsA ? (join.name, join.columnA, join.columnB, join.orderB) : (join.name, join.columnB, join.columnA, join.orderA)
    }

    private func addLink(_ link: StoreChanges.Link, on connection: PostgreSQLConnection) throws {
        let join = try joinColumns(link.relationship)
        if let order = join.order {
            try connection.execute(
                "INSERT INTO \(join.table) (\(join.source), \(join.member), \(order)) VALUES ($1, $2, (SELECT COALESCE(MAX(\(order)), 0) + \(Self.orderingStep) FROM \(join.table) WHERE \(join.source) = $1)) ON CONFLICT DO NOTHING",
                [.integer(link.source.pk), .integer(link.destination.pk)])
        } else {
            try connection.execute(
                "INSERT INTO \(join.table) (\(join.source), \(join.member)) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [.integer(link.source.pk), .integer(link.destination.pk)])
        }
    }

    private func removeLink(_ link: StoreChanges.Link, on connection: PostgreSQLConnection) throws {
        let join = try joinColumns(link.relationship)
        try connection.execute(
            "DELETE FROM \(join.table) WHERE \(join.source) = $1 AND \(join.member) = $2",
            [.integer(link.source.pk), .integer(link.destination.pk)])
    }

    private func order(
        _ relationship: NSRelationshipDescription, source: StoreKey, _ destinations: [StoreKey],
        on connection: PostgreSQLConnection
    ) throws {
        let sql: String
        switch schema.toMany[ObjectIdentifier(relationship)] {
        case let .children(t, foreignKey, orderColumn?)?:
            sql = "UPDATE \(schema.tables[t].name) SET \(orderColumn) = $1 WHERE Z_PK = $2 AND \(foreignKey) = $3"
        case .join?:
            let join = try joinColumns(relationship)
            guard let order = join.order else { return }
            sql = "UPDATE \(join.table) SET \(order) = $1 WHERE \(join.member) = $2 AND \(join.source) = $3"
        default:
            return
        }
        for (position, destination) in destinations.enumerated() {
            try connection.execute(sql, [.integer(Int64(position + 1) * Self.orderingStep),
                                         .integer(destination.pk), .integer(source.pk)])
        }
    }
}
