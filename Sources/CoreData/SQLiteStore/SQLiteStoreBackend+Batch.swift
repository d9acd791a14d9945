import Foundation

// MARK: - Batch requests, in SQL

extension SQLiteStoreBackend: BatchStoreBackend {
    /// Runs a batch insert, update or delete in one transaction, with prepared statements;
    /// every row written gets `Z_OPT` 1 (insert) or one more than it had.
    func executeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin) throws -> StoreBatchOutcome {
        let connection = try requireConnection()
        try checkWritable()
        // External data files of deleted rows and replaced values, removed once the
        // transaction commits.
        var orphanedFiles: [String] = []
        let outcome = try writeFailure {
            try connection.transaction {
                let outcome: StoreBatchOutcome
                // Preserved values of deleted rows, read before the rows go.
                var tombstones: [StoreKey: [SQLBinding]] = [:]
                switch operation {
                case .insert(let insert): outcome = try batchInsert(insert, on: connection)
                case .update(let update): outcome = try batchUpdate(update, files: &orphanedFiles, on: connection)
                case .delete(let delete):
                    outcome = try batchDelete(delete, tombstones: &tombstones, files: &orphanedFiles, on: connection)
                }
                // Persistent history: one transaction, in the SQLite transaction that wrote
                // the rows (SQLiteStoreBackend+History.swift).
                try recordBatchHistory(outcome.changes, tombstones: tombstones, origin: origin, on: connection)
                return outcome
            }
        }
        externalData.remove(orphanedFiles)
        return outcome
    }

    /// `SQLITE_CONSTRAINT_TRIGGER`: what Apple's store reports when a delete rule refuses a
    /// batch delete (its rules run as SQLite triggers).
    static let constraintTriggerCode = 1811

    /// Statements over many primary keys take them in groups of this size.
    static let keyChunk = 500

    /// Runs `sql` (whose `IN (…)` list is written `%KEYS%`) for `pks`, a chunk at a time;
    /// returns the rows changed.
    @discardableResult
    func runChunked(_ sql: String, _ pks: [Int64], on connection: SQLiteConnection) throws -> Int {
        var changed = 0
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + Self.keyChunk)]
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = try connection.cached(sql.replacingOccurrences(of: "%KEYS%", with: marks))
            for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
            try statement.run()
            changed += connection.changes
        }
        return changed
    }

    // MARK: Update

    /// `UPDATE` of the rows the plan selects: constants are bound, expressions compiled
    /// like predicates; with to-one key paths (joins), each value is a correlated subquery.
    /// The external data files of the values it replaces are added to `files`.
    private func batchUpdate(_ update: StoreBatchUpdate, files: inout [String],
                             on connection: SQLiteConnection) throws -> StoreBatchOutcome {
        let entity = update.plan.entity
        guard let t = schema.tableIndex(for: entity) else { return StoreBatchOutcome() }
        let table = schema.tables[t].name
        let compiler = SQLPredicateCompiler(schema: schema, entity: entity, backend: identity)
        var values: [(column: String, sql: String)] = []
        var externalColumns: [String] = []
        for assignment in update.assignments {
            let attribute = assignment.attribute
            guard let column = schema.attributeColumns[ObjectIdentifier(attribute)],
                  let kind = SQLiteValueKind(attribute) else {
                throw CoreDataError.make(NSPersistentStoreSaveError,
                    "The attribute \(entity.name ?? "?").\(attribute.name) has no column in the store at \(url.path).")
            }
            if kind == .externalBlob { externalColumns.append(column) }
            if let expression = assignment.expression {
                values.append((column, try compiledValue(expression, kind: kind, compiler)))
            } else {
                let value = update.constants.values.value(at: attribute.slot)
                values.append((column, compiler.parameter(try Self.binding(value, kind: kind, column: column))))
            }
        }
        let condition = try whereClause(update.plan, compiler)
        let keys = try fetchKeys(update.plan)
        guard !keys.isEmpty else { return StoreBatchOutcome() }
        if !externalColumns.isEmpty {
            files += try externalFiles(inTable: t, keys.map(\.pk), columns: externalColumns, on: connection)
        }
        let from = compiler.fromClause(table: schema.tables[t].name)
        let sql: String
        if compiler.root.joins.isEmpty {
            let sets = values.map { "\($0.column) = \($0.sql)" } + ["Z_OPT = t0.Z_OPT + 1"]
            sql = "UPDATE \(table) AS t0 SET \(sets.joined(separator: ", "))\(condition)"
        } else {
            let sets = values.map { "\($0.column) = (SELECT \($0.sql) FROM \(from) WHERE t0.Z_PK = \(table).Z_PK)" }
                + ["Z_OPT = Z_OPT + 1"]
            sql = "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(from)\(condition))"
        }
        let statement = try connection.cached(sql)
        try statement.bind(compiler.bindings)
        try statement.run()
        var outcome = StoreBatchOutcome()
        outcome.result = keys
        outcome.changes.updated = keys
        if tracksHistory {
            let slots = update.assignments.map(\.attribute.slot)
            for key in keys { outcome.changes.updatedSlots[key] = slots }
        }
        return outcome
    }

    /// The SQL of an expression's value for a column of `kind`; throws
    /// `StoreFetchUnsupported` for what SQL cannot compute as memory would.
    private func compiledValue(_ expression: NSExpression, kind: SQLiteValueKind,
                               _ compiler: SQLPredicateCompiler) throws -> String {
        guard case .scalar(let sql, let termKind) = try compiler.term(expression, compiler.root) else {
            throw StoreFetchUnsupported()
        }
        switch (kind, termKind) {
        case (.integer, .number): return "CAST((\(sql)) AS INTEGER)"
        case (.boolean, .number): return "((\(sql)) != 0)"
        case (.double, .number), (.date, .date), (.text, .string): return sql
        default: throw StoreFetchUnsupported()
        }
    }

    /// A runtime value as the column stores it (what the save path binds).
    static func binding(_ value: SlotValue, kind: SQLiteValueKind, column: String) throws -> SQLBinding {
        switch value.type {
        case .null: return .null
        case .int64, .bool:
            switch kind {
            case .double, .date, .decimal: return .real(Double(value.int64))
            case .boolean: return .integer(value.bool ? 1 : 0)
            default: return .integer(value.int64)
            }
        case .double, .date: return .real(value.double)
        case .text:
            if kind == .decimal, let number = Double(value.string) { return .real(number) }
            if kind == .externalBlob { return .blob(ExternalDataStorage.inline(value.bytes)) }
            if kind == .blob || kind == .uuid { return .blob(value.data) }
            return .text(value.string)
        case .blob:
            // Batch requests write no files: an externally storable value goes inline, marked.
            if kind == .externalBlob { return .blob(ExternalDataStorage.inline(value.bytes)) }
            return .blob(value.data)
        case .uuid: return .blob(withUnsafeBytes(of: value.uuid.uuid) { Data($0) })
        case .box, .object, .set, .key:
            throw CoreDataError.make(NSPersistentStoreSaveError,
                "A value of runtime type \(value.type) cannot be stored in the column \(column).")
        }
    }

    // MARK: Delete

    /// Deletes the selected rows and what the delete rules reach, nullifies inverses and
    /// removes join-table rows, a chunk of keys per statement.
    private func batchDelete(_ delete: StoreBatchDelete, tombstones: inout [StoreKey: [SQLBinding]],
                             files: inout [String], on connection: SQLiteConnection) throws -> StoreBatchOutcome {
        let requested = try delete.plan.map { try fetchKeys($0) } ?? existingKeys(delete.keys, on: connection)
        guard !requested.isEmpty else { return StoreBatchOutcome() }
        let work = try BatchDeletion(
            deleting: requested, entities: { [schema] in schema.entitiesByID[$0] }, backend: self,
            collectLinks: false, sqliteCode: Self.constraintTriggerCode)
        var outcome = StoreBatchOutcome()
        outcome.result = requested
        outcome.changes.deleted = work.deleted

        for (relationship, keys) in work.nullified {
            guard let columns = schema.toOneColumns[ObjectIdentifier(relationship)],
                  let t = schema.tableIndex(for: relationship.entity) else { continue }
            let sets = [columns.fk] + (columns.entity.map { [$0] } ?? [])
            let assignments = sets.map { "\($0) = NULL" } + ["Z_OPT = Z_OPT + 1"]
            try runChunked("UPDATE \(schema.tables[t].name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN (%KEYS%)",
                           keys.map(\.pk), on: connection)
            outcome.changes.updated += keys
            if tracksHistory {
                for key in keys { outcome.changes.updatedSlots[key, default: []].append(relationship.slot) }
            }
        }
        if tracksHistory {
            for key in work.deleted {
                guard let entity = schema.entitiesByID[key.entityID] else { continue }
                let values = try tombstoneValues(entity, pk: key.pk, on: connection)
                if !values.isEmpty { tombstones[key] = values }
            }
        }

        // Deleted rows by table (their inheritance root's).
        var byTable: [Int: [Int64]] = [:]
        for key in work.deleted {
            guard let entity = schema.entitiesByID[key.entityID], let t = schema.tableIndex(for: entity) else { continue }
            byTable[t, default: []].append(key.pk)
        }
        // Join-table rows naming a deleted row, on either side.
        var joinColumns = Set<String>()
        for (id, place) in schema.toMany {
            guard case let .join(index, sourceIsA) = place, let relationship = relationship(withID: id),
                  let destination = relationship.destinationEntity else { continue }
            let join = schema.joinTables[index]
            let sides = [(relationship.entity, sourceIsA ? join.columnA : join.columnB),
                         (destination, sourceIsA ? join.columnB : join.columnA)]
            for (entity, column) in sides {
                guard let t = schema.tableIndex(for: entity), let pks = byTable[t],
                      joinColumns.insert(join.name + "." + column).inserted else { continue }
                try runChunked("DELETE FROM \(join.name) WHERE \(column) IN (%KEYS%)", pks, on: connection)
            }
        }
        for (t, pks) in byTable.sorted(by: { $0.key < $1.key }) {
            files += try externalFiles(inTable: t, pks, on: connection)
            try runChunked("DELETE FROM \(schema.tables[t].name) WHERE Z_PK IN (%KEYS%)", pks, on: connection)
        }
        return outcome
    }

    /// The external data files (``ExternalDataStorage``) the rows `pks` of table `t` name
    /// in `columns` (by default, every column that may name one).
    private func externalFiles(inTable t: Int, _ pks: [Int64], columns: [String]? = nil,
                               on connection: SQLiteConnection) throws -> [String] {
        let columns = columns ?? schema.externalColumns(ofTable: t)
        guard !columns.isEmpty else { return [] }
        var names: [String] = []
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + Self.keyChunk)]
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = try connection.cached(
                "SELECT \(columns.joined(separator: ", ")) FROM \(schema.tables[t].name) WHERE Z_PK IN (\(marks))")
            defer { statement.reset() }
            for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
            while try statement.step() {
                for i in 0..<Int32(columns.count) {
                    if let data = statement.data(i), let name = ExternalDataStorage.referencedFile(data) { names.append(name) }
                }
            }
        }
        return names
    }

    /// The keys of those rows that still exist, with their stored `Z_ENT`, in order.
    private func existingKeys(_ keys: [StoreKey], on connection: SQLiteConnection) throws -> [StoreKey] {
        func table(_ key: StoreKey) -> Int? {
            schema.entitiesByID[key.entityID].flatMap { schema.tableIndex(for: $0) }
        }
        var byTable: [Int: [Int64]] = [:]
        for key in keys {
            if let t = table(key) { byTable[t, default: []].append(key.pk) }
        }
        // Table → primary key → stored Z_ENT.
        var found: [Int: [Int64: Int]] = [:]
        for (t, pks) in byTable {
            var start = 0
            while start < pks.count {
                let chunk = pks[start..<min(pks.count, start + Self.keyChunk)]
                start += chunk.count
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let statement = try connection.cached("SELECT Z_PK, Z_ENT FROM \(schema.tables[t].name) WHERE Z_PK IN (\(marks))")
                defer { statement.reset() }
                for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
                while try statement.step() { found[t, default: [:]][statement.int64(0)] = Int(statement.int64(1)) }
            }
        }
        var seen = Set<[Int64]>()
        return keys.compactMap { key in
            guard let t = table(key), let entityID = found[t]?[key.pk],
                  seen.insert([Int64(t), key.pk]).inserted else { return nil }
            return StoreKey(entityID: entityID, pk: key.pk)
        }
    }

    /// The relationship stored under `id` in the schema's maps.
    private func relationship(withID id: ObjectIdentifier) -> NSRelationshipDescription? {
        for entity in schema.entitiesByID.values {
            for case let relationship as NSRelationshipDescription in entity.properties
            where ObjectIdentifier(relationship) == id { return relationship }
        }
        return nil
    }
}
