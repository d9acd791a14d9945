import Foundation

// MARK: - Saving

extension SQLStoreCore {
    /// The gap between ordering keys (`Z_FOK_` columns) of consecutive members.
    static var orderingStep: Int64 { 1024 }

    /// Applies a change set inside the transaction the store opened. Every update and
    /// delete must find its row at the version the context read (`Z_OPT`), else
    /// `StoreConflict` is thrown, naming every row in conflict (the remaining updates and
    /// deletes still run, inside the doomed transaction, to find them all); the store rolls
    /// the transaction back. Locked rows are read with the dialect's share lock. The
    /// metadata row is rewritten when the metadata changed.
    ///
    /// When the store tracks history, the save's history transaction is written last
    /// (``recordHistory(_:on:)``, numbered in commit order); returns its number, nil when
    /// none was recorded.
    @discardableResult
    func applyChanges(_ changes: StoreChanges, on connection: Connection) throws -> Int64? {
        var conflicts: [StoreConflict.Row] = []
        // Existing rows are locked (read FOR SHARE, updated, deleted) in one order in every
        // process, by entity then primary key, so two saves touching the same rows wait for
        // each other instead of deadlocking (PostgreSQL refused such saves with 40P01 under
        // load, and retries could run out). The context's own order is a hash order.
        for lock in changes.locks.sorted(by: { Self.lockOrder($0.entity, $0.pk, $1.entity, $1.pk) }) {
            if let conflict = try check(lock, on: connection) { conflicts.append(conflict) }
        }
        // Before the writes: a deleted row's tombstone is read from the row itself.
        let history = try historyTransaction(for: changes, on: connection)
        try insert(changes.inserts, on: connection)
        for write in changes.updates.sorted(by: { Self.lockOrder($0.entity, $0.pk, $1.entity, $1.pk) }) {
            if let conflict = try update(write, on: connection) { conflicts.append(conflict) }
        }
        for link in changes.linksRemoved { try removeLink(link, on: connection) }
        for delete in changes.deletes.sorted(by: { Self.lockOrder($0.entity, $0.pk, $1.entity, $1.pk) }) {
            if let conflict = try self.delete(delete, on: connection) { conflicts.append(conflict) }
        }
        if !conflicts.isEmpty { throw StoreConflict(rows: conflicts) }
        for link in changes.linksAdded { try addLink(link, on: connection) }
        for ordering in changes.orderings {
            try order(ordering.relationship, source: ordering.source, ordering.destinations, on: connection)
        }
        if !(metadata as NSDictionary).isEqual(storedMetadata) {
            metadata = SQLiteMetadata.keepingStoreKeys(metadata, from: storedMetadata as? [String: Any] ?? [:])
            try writeMetadata(metadata, on: connection)
        }
        // Last, so that the numbering lock is held for as short a time as possible.
        return try history.map { try recordHistory($0, on: connection) }
    }

    /// Whether the row (`entity`, `pk`) is locked before (`otherEntity`, `otherPK`): the one
    /// order every save takes its row locks in.
    private static func lockOrder(
        _ entity: NSEntityDescription, _ pk: Int64, _ otherEntity: NSEntityDescription, _ otherPK: Int64
    ) -> Bool {
        let id = entity.runtime.entityID, otherID = otherEntity.runtime.entityID
        return id != otherID ? id < otherID : pk < otherPK
    }

    // MARK: Rows

    /// Inserts rows, each run of one entity through one statement (its SQL and plan looked
    /// up once per run, not per row), binding the common column kinds straight from the
    /// row's slots (the plan's ``SQLEntityPlan/decodeOps``, plain values) and the rest
    /// through ``bind(_:of:to:at:on:)``.
    private func insert(_ writes: [StoreChanges.Write], on connection: Connection) throws {
        var start = 0
        while start < writes.count {
            let entity = writes[start].entity
            var end = start + 1
            while end < writes.count, writes[end].entity === entity { end += 1 }
            let plan = try plan(for: entity)
            let statement = try connection.statement(insertSQL(plan))
            let entityID = Int64(entity.runtime.entityID)
            for i in start..<end {
                let row = writes[i].values
                try statement.bind(1, writes[i].pk)
                try statement.bind(2, entityID)
                try statement.bind(3, Int64(1))
                var index: Int32 = 4
                for op in plan.decodeOps {
                    if op.kind == .other {
                        try bind(plan.fields[op.field], of: row, to: statement, at: &index, on: connection)
                        continue
                    }
                    let value = row.values.value(at: op.slot)
                    switch (op.kind, value.type) {
                    case (_, .null): try statement.bindNull(index)
                    case (.integer, .int64), (.integer, .bool): try statement.bind(index, value.int64)
                    case (.boolean, .bool), (.boolean, .int64): try statement.bind(index, Int64(value.bool ? 1 : 0))
                    case (.double, .double), (.double, .date), (.date, .date), (.date, .double):
                        try statement.bind(index, value.double)
                    case (.text, .text):
                        let bytes = value.bytes
                        try statement.bindText(index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), count: bytes.count)
                    default:
                        try bind(plan.fields[op.field], of: row, to: statement, at: &index, on: connection)
                        continue
                    }
                    index += 1
                }
                try statement.execute()
            }
            start = end
        }
    }

    /// The INSERT of every column of an entity's rows (built once per entity).
    private func insertSQL(_ plan: SQLEntityPlan) -> String {
        let key = WriteSQLKey(entityID: plan.entity.runtime.entityID, update: false, fields: [])
        if let cached = writeSQL[key] { return cached }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for field in plan.fields {
            columns.append(field.column)
            if case let .toOne(_, entityColumn?, _) = field.kind { columns.append(entityColumn) }
        }
        let marks = (1...columns.count).map(dialect.parameter).joined(separator: ", ")
        let sql = "INSERT INTO \(plan.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))"
        writeSQL[key] = sql
        return sql
    }

    /// Updates a row at the version the context read; returns the conflict when the row
    /// is gone or at another version (nothing is written then).
    private func update(_ write: StoreChanges.Write, on connection: Connection) throws -> StoreConflict.Row? {
        let plan = try plan(for: write.entity)
        let indexes = write.changedSlots.compactMap { plan.fieldBySlot[$0] }.sorted()
        let fields = indexes.map { plan.fields[$0] }
        let key = WriteSQLKey(entityID: write.entity.runtime.entityID, update: true, fields: indexes)
        let sql: String
        if let cached = writeSQL[key] {
            sql = cached
        } else {
            var assignments: [String] = []
            var n = 0
            for field in fields {
                n += 1
                assignments.append("\(field.column) = \(dialect.parameter(n))")
                if case let .toOne(_, entityColumn?, _) = field.kind {
                    n += 1
                    assignments.append("\(entityColumn) = \(dialect.parameter(n))")
                }
            }
            assignments.append("Z_OPT = Z_OPT + 1")
            sql = "UPDATE \(plan.tableName) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = \(dialect.parameter(n + 1)) AND Z_OPT = \(dialect.parameter(n + 2))"
            writeSQL[key] = sql
        }
        if plan.hasExternalData {
            try willReplaceExternalData(of: fields, table: plan.tableName, pk: write.pk, on: connection)
        }
        let statement = try connection.statement(sql)
        var index: Int32 = 1
        for field in fields {
            try bind(field, of: write.values, to: statement, at: &index, on: connection)
        }
        try statement.bind(index, write.pk)
        try statement.bind(index + 1, write.expectedVersion)
        if try statement.execute() == 0 {
            return conflict(write.entity, write.pk, write.expectedVersion, table: plan.tableName, on: connection)
        }
        return nil
    }

    /// Deletes a row at the version the context read, with its join-table rows; returns
    /// the conflict when the row is gone or at another version.
    private func delete(_ delete: StoreChanges.Delete, on connection: Connection) throws -> StoreConflict.Row? {
        let plan = try plan(for: delete.entity)
        if plan.hasExternalData {
            try willReplaceExternalData(of: plan.fields, table: plan.tableName, pk: delete.pk, on: connection)
        }
        let statement = try connection.statement(
            "DELETE FROM \(plan.tableName) WHERE Z_PK = \(dialect.parameter(1)) AND Z_OPT = \(dialect.parameter(2))")
        try statement.bind(1, delete.pk)
        try statement.bind(2, delete.expectedVersion)
        if try statement.execute() == 0 {
            return conflict(delete.entity, delete.pk, delete.expectedVersion, table: plan.tableName, on: connection)
        }
        // Join-table rows that name the deleted object go with it.
        for join in joinColumnsBySourceRoot[ObjectIdentifier(delete.entity.runtime.root)] ?? [] {
            let statement = try connection.statement("DELETE FROM \(join.table) WHERE \(join.column) = \(dialect.parameter(1))")
            try statement.bind(1, delete.pk)
            try statement.execute()
        }
        return nil
    }

    /// An object marked with `detectConflicts(for:)`: its row must still be at the version
    /// the context read (and stays so until the commit, where the engine can lock rows);
    /// returns the conflict when it is gone or at another version.
    private func check(_ lock: StoreChanges.Lock, on connection: Connection) throws -> StoreConflict.Row? {
        let plan = try plan(for: lock.entity)
        let statement = try connection.statement(
            "SELECT Z_OPT FROM \(plan.tableName) WHERE Z_PK = \(dialect.parameter(1))\(dialect.shareLock)")
        try statement.bind(1, lock.pk)
        defer { statement.reset() }
        let stored: Int64? = try statement.step() ? statement.int64(0) : nil
        guard stored != lock.expectedVersion else { return nil }
        return StoreConflict.Row(entity: lock.entity, pk: lock.pk, storedVersion: stored, expectedVersion: lock.expectedVersion)
    }

    /// The optimistic-locking failure for a row that is gone or at another version.
    private func conflict(
        _ entity: NSEntityDescription, _ pk: Int64, _ expected: Int64, table: String, on connection: Connection
    ) -> StoreConflict.Row {
        var stored: Int64?
        if let statement = try? connection.statement("SELECT Z_OPT FROM \(table) WHERE Z_PK = \(dialect.parameter(1))") {
            try? statement.bind(1, pk)
            if (try? statement.step()) == true { stored = statement.int64(0) }
            statement.reset()
        }
        return StoreConflict.Row(entity: entity, pk: pk, storedVersion: stored, expectedVersion: expected)
    }

    // MARK: Binding values

    /// Binds a slot of `row` (and, for a to-one, its `Z<n>_` entity column) from `index` on.
    func bind(
        _ field: SQLField, of row: StoreRow, to statement: Connection.Statement, at index: inout Int32,
        on connection: Connection
    ) throws {
        defer { index += 1 }
        let value = row.values.value(at: field.slot)
        guard !value.isNull else {
            try statement.bindNull(index)
            if case .toOne(_, _?, _) = field.kind {
                index += 1
                try statement.bindNull(index)
            }
            return
        }
        switch field.kind {
        case let .toOne(destination, entityColumn, _):
            guard let key = row.values.storeKey(at: field.slot) else {
                throw badValue(field, row, "a to-one relationship must name its destination by store key")
            }
            try statement.bind(index, key.pk)
            if entityColumn != nil {
                index += 1
                var entityID = Int64(key.entityID)
                if entityID == 0 {
                    entityID = try storedEntityID(of: destination, pk: key.pk, on: connection)
                }
                try statement.bind(index, entityID)
            }
        case let .value(kind):
            try bindValue(value, kind: kind, field: field, row: row, to: statement, at: index)
        }
    }

    private func bindValue(
        _ value: SlotValue, kind: SQLiteValueKind, field: SQLField, row: StoreRow,
        to statement: Connection.Statement, at index: Int32
    ) throws {
        switch value.type {
        case .int64, .bool:
            switch kind {
            case .double, .date: try statement.bind(index, Double(value.int64))
            case .decimal: try statement.bindDecimal(index, String(value.int64))
            case .boolean: try statement.bind(index, Int64(value.bool ? 1 : 0))
            default: try statement.bind(index, value.int64)
            }
        case .double, .date:
            if kind == .decimal {
                try statement.bindDecimal(index, SQLField.decimalString(value.double))
            } else {
                try statement.bind(index, value.double)
            }
        case .text:
            let bytes = value.bytes
            switch kind {
            case .decimal: try statement.bindDecimal(index, value.string)
            case .externalBlob: try bindExternal(bytes, to: statement, at: index)
            case .blob, .uuid: try statement.bindBlob(index, bytes.baseAddress, count: bytes.count)
            default: try statement.bindText(index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), count: bytes.count)
            }
        case .blob:
            let bytes = value.bytes
            if kind == .externalBlob {
                try bindExternal(bytes, to: statement, at: index)
            } else {
                try statement.bindBlob(index, bytes.baseAddress, count: bytes.count)
            }
        case .uuid:
            try withUnsafeBytes(of: value.uuid.uuid) { try statement.bindBlob(index, $0.baseAddress, count: 16) }
        case .box:
            throw badValue(field, row, "a boxed (transformable) value reached the store unconverted; the object layer must transform it to Data first")
        case .null, .object, .set, .key:
            throw badValue(field, row, "a value of runtime type \(value.type) cannot be stored in a column")
        }
    }

    private func badValue(_ field: SQLField, _ row: StoreRow, _ reason: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreSaveError,
            "Cannot save \(row.entity.name ?? "?").\(field.column) (p\(row.pk)): \(reason).")
    }

    /// A destination row's `Z_ENT`, for a to-one value that did not carry it.
    private func storedEntityID(of destination: NSEntityDescription, pk: Int64, on connection: Connection) throws -> Int64 {
        guard let t = schema.tableIndex(for: destination) else { return Int64(destination.runtime.entityID) }
        let statement = try connection.statement("SELECT Z_ENT FROM \(schema.tables[t].name) WHERE Z_PK = \(dialect.parameter(1))")
        try statement.bind(1, pk)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : Int64(destination.runtime.entityID)
    }

    // MARK: Links and orderings

    /// The join table of a to-many relationship, with the source's and member's columns
    /// and the column ordering members (when the relationship is ordered).
    private func joinColumns(_ relationship: NSRelationshipDescription) throws -> (table: String, source: String, member: String, order: String?) {
        guard case let .join(index, sourceIsA)? = schema.toMany[ObjectIdentifier(relationship)] else {
            throw CoreDataError.make(
                NSPersistentStoreSaveError,
                "The relationship \(relationship.entity.name ?? "?").\(relationship.name) has no join table (it is stored as a foreign key).")
        }
        let join = schema.joinTables[index]
        return sourceIsA ? (join.name, join.columnA, join.columnB, join.orderB) : (join.name, join.columnB, join.columnA, join.orderA)
    }

    private func addLink(_ link: StoreChanges.Link, on connection: Connection) throws {
        let join = try joinColumns(link.relationship)
        let p1 = dialect.parameter(1), p2 = dialect.parameter(2)
        let statement: Connection.Statement
        if let order = join.order {
            // A new member goes last until an ordering says otherwise.
            statement = try connection.statement(dialect.insertIgnoringDuplicates(
                into: join.table, columns: [join.source, join.member, order],
                values: [p1, p2, "(SELECT COALESCE(MAX(\(order)), 0) + \(Self.orderingStep) FROM \(join.table) WHERE \(join.source) = \(p1))"]))
        } else {
            statement = try connection.statement(dialect.insertIgnoringDuplicates(
                into: join.table, columns: [join.source, join.member], values: [p1, p2]))
        }
        try statement.bind(1, link.source.pk)
        try statement.bind(2, link.destination.pk)
        try statement.execute()
    }

    private func removeLink(_ link: StoreChanges.Link, on connection: Connection) throws {
        let join = try joinColumns(link.relationship)
        let statement = try connection.statement(
            "DELETE FROM \(join.table) WHERE \(join.source) = \(dialect.parameter(1)) AND \(join.member) = \(dialect.parameter(2))")
        try statement.bind(1, link.source.pk)
        try statement.bind(2, link.destination.pk)
        try statement.execute()
    }

    /// Rewrites the ordering keys of an ordered to-many relationship: 1024, 2048, … in
    /// the given order (the child's `Z_FOK_` column, or the join table's).
    private func order(
        _ relationship: NSRelationshipDescription, source: StoreKey, _ destinations: [StoreKey], on connection: Connection
    ) throws {
        let p1 = dialect.parameter(1), p2 = dialect.parameter(2), p3 = dialect.parameter(3)
        let sql: String
        switch schema.toMany[ObjectIdentifier(relationship)] {
        case let .children(t, foreignKey, orderColumn?)?:
            sql = "UPDATE \(schema.tables[t].name) SET \(orderColumn) = \(p1) WHERE Z_PK = \(p2) AND \(foreignKey) = \(p3)"
        case .join?:
            let join = try joinColumns(relationship)
            guard let order = join.order else { return }
            sql = "UPDATE \(join.table) SET \(order) = \(p1) WHERE \(join.member) = \(p2) AND \(join.source) = \(p3)"
        default:
            return
        }
        let statement = try connection.statement(sql)
        for (position, destination) in destinations.enumerated() {
            try statement.bind(1, Int64(position + 1) * Self.orderingStep)
            try statement.bind(2, destination.pk)
            try statement.bind(3, source.pk)
            try statement.execute()
        }
    }
}

extension SQLField {
    /// The shortest decimal text that reads back as `value` (`10.11`, `3`, `0.00001`).
    static func decimalString(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = "\(value)"
        if text.contains("e") { text = Decimal(string: text).map { "\($0)" } ?? text }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
