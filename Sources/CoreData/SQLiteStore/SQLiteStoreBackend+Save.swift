import Foundation
internal import CCoreDataSQLite

// MARK: - Saving

/// Names the SQL of an INSERT (every field) or an UPDATE (the fields at these indexes of
/// the entity plan) of one entity.
struct WriteSQLKey: Hashable {
    let entityID: Int
    let update: Bool
    let fields: [Int]
}

extension SQLiteStoreBackend {
    /// The gap between ordering keys (`Z_FOK_` columns) of consecutive members.
    static let orderingStep: Int64 = 1024

    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        let connection = try requireConnection()
        guard count > 0 else { return 0 }
        try checkWritable()
        let root = Int64(entity.runtime.root.runtime.entityID)
        return try writeFailure {
            try connection.transaction {
                let update = try connection.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?")
                try update.bind(1, Int64(count))
                try update.bind(2, root)
                try update.run()
                let select = try connection.cached("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
                try select.bind(1, root)
                defer { select.reset() }
                guard try select.step() else {
                    throw CoreDataError.make(NSPersistentStoreOperationError, "Z_PRIMARYKEY has no row for \(entity.runtime.root.name ?? "?").")
                }
                return select.int64(0) - Int64(count) + 1
            }
        }
    }

    /// Applies a change set in one transaction. Every update and delete must find its row
    /// at the version the context read (`Z_OPT`), else the transaction is rolled back and
    /// `StoreConflict` thrown, naming every row in conflict (the remaining updates and
    /// deletes still run, inside the doomed transaction, to find them all). The metadata
    /// row is rewritten when the metadata changed.
    func save(_ changes: StoreChanges) throws {
        let connection = try requireConnection()
        try checkWritable()
        externalFilesWritten = []
        externalFilesReplaced = []
        defer {
            // Whatever the outcome, the files of the values the store no longer references:
            // the replaced ones after a commit, the new ones after a rollback.
            externalData.remove(externalFilesWritten)
            externalFilesWritten = []
            externalFilesReplaced = []
        }
        try writeFailure {
            try connection.transaction {
                var conflicts: [StoreConflict.Row] = []
                for lock in changes.locks {
                    if let conflict = try check(lock, on: connection) { conflicts.append(conflict) }
                }
                // Before the writes: a deleted row's tombstone is read from the row itself.
                // A conflict below rolls the transaction back, history included.
                try recordHistory(changes, on: connection)
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
                    try SQLiteMetadata.write(metadata, to: connection)
                }
            }
        }
        // Committed: the new files stay, the replaced ones go (in the defer above).
        externalFilesWritten = externalFilesReplaced
        storedMetadata = metadata as NSDictionary
    }

    func checkWritable() throws {
        if isReadOnly {
            throw CoreDataError.store(NSPersistentStoreSaveError, "The store at \(url.path) was opened read-only.", url: url)
        }
    }

    /// Runs a write; SQLite failures become `NSPersistentStoreSaveError` (a uniqueness
    /// constraint: `NSManagedObjectConstraintMergeError`), with the SQLite error attached.
    /// `StoreConflict` passes through, and Cocoa errors too, with the store's path added.
    func writeFailure<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let sqlite as SQLiteError {
            let code = sqlite.resultCode == SQLITE_CONSTRAINT ? NSManagedObjectConstraintMergeError
                : sqlite.isBusy ? NSPersistentStoreTimeoutError
                : sqlite.isCorrupt ? CocoaError.Code.fileReadCorruptFile.rawValue : NSPersistentStoreSaveError
            throw Self.sqliteError(code, "Saving to the store at \(url.path) failed.", sqlite, url: url)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw CoreDataError.naming(error, url: url, "cannot be saved to")
        }
    }

    func plan(for entity: NSEntityDescription) throws -> EntityPlan {
        guard let plan = plans[entity.runtime.entityID], plan.entity === entity else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.name ?? "?") is not in the store at \(url.path).")
        }
        return plan
    }

    // MARK: Rows

    private func insert(_ write: StoreChanges.Write, on connection: SQLiteConnection) throws {
        let plan = try plan(for: write.entity)
        let key = WriteSQLKey(entityID: write.entity.runtime.entityID, update: false, fields: [])
        let sql: String
        if let cached = writeSQL[key] {
            sql = cached
        } else {
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            for field in plan.fields {
                columns.append(field.column)
                if case let .toOne(_, entityColumn?, _) = field.kind { columns.append(entityColumn) }
            }
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            sql = "INSERT INTO \(plan.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))"
            writeSQL[key] = sql
        }
        let statement = try connection.cached(sql)
        try statement.bind(1, write.pk)
        try statement.bind(2, Int64(write.entity.runtime.entityID))
        try statement.bind(3, Int64(1))
        var index: Int32 = 4
        for field in plan.fields {
            try bind(field, of: write.values, to: statement, at: &index, on: connection)
        }
        try statement.run()
    }

    /// Updates a row at the version the context read; returns the conflict when the row
    /// is gone or at another version (nothing is written then).
    private func update(_ write: StoreChanges.Write, on connection: SQLiteConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: write.entity)
        let indexes = write.changedSlots.compactMap { plan.fieldBySlot[$0] }.sorted()
        let fields = indexes.map { plan.fields[$0] }
        let key = WriteSQLKey(entityID: write.entity.runtime.entityID, update: true, fields: indexes)
        let sql: String
        if let cached = writeSQL[key] {
            sql = cached
        } else {
            var assignments: [String] = []
            for field in fields {
                assignments.append("\(field.column) = ?")
                if case let .toOne(_, entityColumn?, _) = field.kind { assignments.append("\(entityColumn) = ?") }
            }
            assignments.append("Z_OPT = Z_OPT + 1")
            sql = "UPDATE \(plan.tableName) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
            writeSQL[key] = sql
        }
        if plan.hasExternalData {
            try noteExternalFiles(of: fields, table: plan.tableName, pk: write.pk, on: connection)
        }
        let statement = try connection.cached(sql)
        var index: Int32 = 1
        for field in fields {
            try bind(field, of: write.values, to: statement, at: &index, on: connection)
        }
        try statement.bind(index, write.pk)
        try statement.bind(index + 1, write.expectedVersion)
        try statement.run()
        if connection.changes == 0 {
            return conflict(write.entity, write.pk, write.expectedVersion, table: plan.tableName, on: connection)
        }
        return nil
    }

    /// Deletes a row at the version the context read, with its join-table rows; returns
    /// the conflict when the row is gone or at another version.
    private func delete(_ delete: StoreChanges.Delete, on connection: SQLiteConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: delete.entity)
        if plan.hasExternalData {
            try noteExternalFiles(of: plan.fields, table: plan.tableName, pk: delete.pk, on: connection)
        }
        let statement = try connection.cached("DELETE FROM \(plan.tableName) WHERE Z_PK = ? AND Z_OPT = ?")
        try statement.bind(1, delete.pk)
        try statement.bind(2, delete.expectedVersion)
        try statement.run()
        if connection.changes == 0 {
            return conflict(delete.entity, delete.pk, delete.expectedVersion, table: plan.tableName, on: connection)
        }
        // Join-table rows that name the deleted object go with it.
        let root = ObjectIdentifier(delete.entity.runtime.root)
        for (key, value) in schema.toMany {
            guard case let .join(index, sourceIsA) = value,
                  let relationship = relationship(with: key),
                  ObjectIdentifier(relationship.entity.runtime.root) == root else { continue }
            let join = schema.joinTables[index]
            let column = sourceIsA ? join.columnA : join.columnB
            let statement = try connection.cached("DELETE FROM \(join.name) WHERE \(column) = ?")
            try statement.bind(1, delete.pk)
            try statement.run()
        }
        return nil
    }

    /// An object marked with `detectConflicts(for:)`: its row must still be at the version
    /// the context read; returns the conflict when it is gone or at another version.
    private func check(_ lock: StoreChanges.Lock, on connection: SQLiteConnection) throws -> StoreConflict.Row? {
        let plan = try plan(for: lock.entity)
        let statement = try connection.cached("SELECT Z_OPT FROM \(plan.tableName) WHERE Z_PK = ?")
        try statement.bind(1, lock.pk)
        defer { statement.reset() }
        let stored: Int64? = try statement.step() ? statement.int64(0) : nil
        guard stored != lock.expectedVersion else { return nil }
        return StoreConflict.Row(entity: lock.entity, pk: lock.pk, storedVersion: stored, expectedVersion: lock.expectedVersion)
    }

    private func relationship(with key: ObjectIdentifier) -> NSRelationshipDescription? {
        for entity in schema.entitiesByID.values {
            for case let relationship as NSRelationshipDescription in entity.properties
            where ObjectIdentifier(relationship) == key { return relationship }
        }
        return nil
    }

    /// The optimistic-locking failure for a row that is gone or at another version.
    private func conflict(
        _ entity: NSEntityDescription, _ pk: Int64, _ expected: Int64, table: String,
        on connection: SQLiteConnection
    ) -> StoreConflict.Row {
        var stored: Int64?
        if let statement = try? connection.cached("SELECT Z_OPT FROM \(table) WHERE Z_PK = ?") {
            try? statement.bind(1, pk)
            if (try? statement.step()) == true { stored = statement.int64(0) }
            statement.reset()
        }
        return StoreConflict.Row(entity: entity, pk: pk, storedVersion: stored, expectedVersion: expected)
    }

    // MARK: Binding values

    /// Binds a slot of `row` (and, for a to-one, its `Z<n>_` entity column) from `index` on.
    func bind(
        _ field: Field, of row: StoreRow, to statement: SQLiteStatement, at index: inout Int32,
        on connection: SQLiteConnection
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
        _ value: SlotValue, kind: SQLiteValueKind, field: Field, row: StoreRow,
        to statement: SQLiteStatement, at index: Int32
    ) throws {
        switch value.type {
        case .int64, .bool:
            if kind == .double || kind == .date || kind == .decimal {
                try statement.bind(index, Double(value.int64))
            } else {
                try statement.bind(index, kind == .boolean ? (value.bool ? 1 : 0) : value.int64)
            }
        case .double, .date:
            try statement.bind(index, value.double)
        case .text:
            let bytes = value.bytes
            if kind == .decimal {
                // Apple stores decimals as REAL (<doc:StoreFormat#Attribute-columns>).
                if let number = Double(value.string) {
                    try statement.bind(index, number)
                    return
                }
            }
            if kind == .externalBlob {
                try bindExternal(bytes, to: statement, at: index)
            } else if kind == .blob || kind == .uuid {
                try statement.bindBlob(index, bytes.baseAddress, count: bytes.count)
            } else {
                try statement.bindText(index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), count: bytes.count)
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

    /// Binds a binary value that may be stored externally: marked inline, or written to a
    /// new file that the save removes again if it fails.
    private func bindExternal(_ bytes: UnsafeRawBufferPointer, to statement: SQLiteStatement, at index: Int32) throws {
        let (column, file) = try externalData.encode(bytes)
        if let file { externalFilesWritten.append(file) }
        try column.withUnsafeBytes { try statement.bindBlob(index, $0.baseAddress, count: $0.count) }
    }

    /// Notes the external files the columns `fields` of row `pk` reference now, to remove
    /// them once the save that replaces or deletes them commits.
    private func noteExternalFiles(of fields: [Field], table: String, pk: Int64, on connection: SQLiteConnection) throws {
        let columns = fields.compactMap { field -> String? in
            if case .value(.externalBlob) = field.kind { return field.column }
            return nil
        }
        guard !columns.isEmpty else { return }
        let statement = try connection.cached("SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE Z_PK = ?")
        try statement.bind(1, pk)
        defer { statement.reset() }
        guard try statement.step() else { return }
        for i in 0..<Int32(columns.count) {
            if let data = statement.data(i), let name = ExternalDataStorage.referencedFile(data) {
                externalFilesReplaced.append(name)
            }
        }
    }

    private func badValue(_ field: Field, _ row: StoreRow, _ reason: String) -> NSError {
        CoreDataError.make(
            NSPersistentStoreSaveError,
            "Cannot save \(row.entity.name ?? "?").\(field.column) (p\(row.pk)): \(reason).")
    }

    /// A destination row's `Z_ENT`, for a to-one value that did not carry it.
    private func storedEntityID(of destination: NSEntityDescription, pk: Int64, on connection: SQLiteConnection) throws -> Int64 {
        guard let t = schema.tableIndex(for: destination) else { return Int64(destination.runtime.entityID) }
        let statement = try connection.cached("SELECT Z_ENT FROM \(schema.tables[t].name) WHERE Z_PK = ?")
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

    private func addLink(_ link: StoreChanges.Link, on connection: SQLiteConnection) throws {
        let join = try joinColumns(link.relationship)
        let statement: SQLiteStatement
        if let order = join.order {
            // A new member goes last until an ordering says otherwise.
            statement = try connection.cached(
                "INSERT OR IGNORE INTO \(join.table) (\(join.source), \(join.member), \(order)) VALUES (?1, ?2, (SELECT COALESCE(MAX(\(order)), 0) + \(Self.orderingStep) FROM \(join.table) WHERE \(join.source) = ?1))")
        } else {
            statement = try connection.cached("INSERT OR IGNORE INTO \(join.table) (\(join.source), \(join.member)) VALUES (?, ?)")
        }
        try statement.bind(1, link.source.pk)
        try statement.bind(2, link.destination.pk)
        try statement.run()
    }

    private func removeLink(_ link: StoreChanges.Link, on connection: SQLiteConnection) throws {
        let join = try joinColumns(link.relationship)
        let statement = try connection.cached("DELETE FROM \(join.table) WHERE \(join.source) = ? AND \(join.member) = ?")
        try statement.bind(1, link.source.pk)
        try statement.bind(2, link.destination.pk)
        try statement.run()
    }

    /// Rewrites the ordering keys of an ordered to-many relationship: 1024, 2048, … in
    /// the given order (the child's `Z_FOK_` column, or the join table's).
    private func order(
        _ relationship: NSRelationshipDescription, source: StoreKey, _ destinations: [StoreKey],
        on connection: SQLiteConnection
    ) throws {
        let sql: String
        switch schema.toMany[ObjectIdentifier(relationship)] {
        case let .children(t, foreignKey, orderColumn?)?:
            sql = "UPDATE \(schema.tables[t].name) SET \(orderColumn) = ? WHERE Z_PK = ? AND \(foreignKey) = ?"
        case .join?:
            let join = try joinColumns(relationship)
            guard let order = join.order else { return }
            sql = "UPDATE \(join.table) SET \(order) = ? WHERE \(join.member) = ? AND \(join.source) = ?"
        default:
            return
        }
        let statement = try connection.cached(sql)
        for (position, destination) in destinations.enumerated() {
            try statement.bind(1, Int64(position + 1) * Self.orderingStep)
            try statement.bind(2, destination.pk)
            try statement.bind(3, source.pk)
            try statement.run()
        }
    }
}
