import Foundation

// MARK: - Batch update and batch delete, in SQL, for both SQL stores

/// What a batch update or delete wrote in one SQL transaction, ready for the store to commit:
/// the outcome, the number of the history transaction it recorded (nil when none) and the
/// external data files it orphaned (removed once the transaction commits).
struct SQLBatchWrite {
    var outcome = StoreBatchOutcome()
    var historyNumber: Int64?
    var orphanedFiles: [String] = []
}

extension SQLStoreCore {
    /// Statements over many primary keys take them in groups of this size.
    static var batchKeyChunk: Int { 500 }

    /// Runs a batch update or delete inside the store's open transaction on `connection`:
    /// the rows written in SQL (every written row's `Z_OPT` one more than it had), then the
    /// persistent-history transaction of what was written, last (``recordHistory(_:on:)``).
    /// A batch insert is each store's own (`nil`: the caller inserts row by row).
    ///
    /// - Throws: ``StoreFetchUnsupported`` (before anything is written) when the predicate or
    ///   an expression cannot be evaluated in SQL as memory would; the engine's errors.
    func writeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin, on connection: Connection) throws -> SQLBatchWrite? {
        var write = SQLBatchWrite()
        // Preserved values of deleted rows, read before the rows go.
        var tombstones: [StoreKey: [SQLBinding]] = [:]
        switch operation {
        case .insert: return nil
        case .update(let update): write.outcome = try batchUpdate(update, files: &write.orphanedFiles, on: connection)
        case .delete(let delete):
            write.outcome = try batchDelete(delete, tombstones: &tombstones, files: &write.orphanedFiles, on: connection)
        }
        write.historyNumber = try recordBatchHistory(write.outcome.changes, tombstones: tombstones, origin: origin, on: connection)
        return write
    }

    /// Runs `sql` (whose `IN (…)` list is written `%KEYS%`) for `pks`, a chunk at a time;
    /// returns the rows changed.
    @discardableResult
    func runChunked(_ sql: String, _ pks: [Int64], on connection: Connection) throws -> Int {
        var changed = 0
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + Self.batchKeyChunk)]
            start += chunk.count
            let marks = (1...chunk.count).map(dialect.parameter).joined(separator: ", ")
            let statement = try connection.statement(sql.replacingOccurrences(of: "%KEYS%", with: marks))
            for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
            changed += try statement.execute()
        }
        return changed
    }

    // MARK: Update

    /// `UPDATE` of the rows the plan selects: constants are bound, expressions compiled
    /// like predicates; with to-one key paths (joins), each value is a correlated subquery.
    /// The external data files of the values it replaces are added to `files`.
    ///
    /// Where the dialect has `RETURNING` (PostgreSQL), the statement itself says which rows
    /// it changed, so a row another process commits meanwhile is either updated and named or
    /// neither; elsewhere (SQLite, whose writer holds the whole database) the keys are
    /// selected first.
    private func batchUpdate(_ update: StoreBatchUpdate, files: inout [String],
                             on connection: Connection) throws -> StoreBatchOutcome {
        let entity = update.plan.entity
        guard let t = schema.tableIndex(for: entity) else { return StoreBatchOutcome() }
        let table = schema.tables[t].name
        let compiler = makeCompiler(entity)
        var values: [(column: String, sql: String)] = []
        var externalColumns: [String] = []
        for assignment in update.assignments {
            let attribute = assignment.attribute
            guard let column = schema.attributeColumns[ObjectIdentifier(attribute)],
                  let kind = SQLiteValueKind(attribute) else {
                throw CoreDataError.make(NSPersistentStoreSaveError,
                    "The attribute \(entity.name ?? "?").\(attribute.name) has no column in \(storeName.lowercasedFirstLetter).")
            }
            if kind == .externalBlob { externalColumns.append(column) }
            if let expression = assignment.expression {
                values.append((column, try compiledValue(expression, kind: kind, compiler)))
            } else {
                let value = update.constants.values.value(at: attribute.slot)
                values.append((column, compiler.parameter(try batchBinding(value, kind: kind, column: column))))
            }
        }
        let condition = try whereClause(update.plan, compiler)
        let returning = dialect.updatesReturningRows
        var keys: [StoreKey] = []
        if !returning {
            keys = try fetchKeys(update.plan)
            guard !keys.isEmpty else { return StoreBatchOutcome() }
            if !externalColumns.isEmpty {
                files += try externalFiles(inTable: t, keys.map(\.pk), columns: externalColumns, on: connection)
            }
        }
        let from = compiler.fromClause(table: schema.tables[t].name)
        var sql: String
        if compiler.root.joins.isEmpty {
            let sets = values.map { "\($0.column) = \($0.sql)" } + ["Z_OPT = t0.Z_OPT + 1"]
            sql = "UPDATE \(table) AS t0 SET \(sets.joined(separator: ", "))\(condition)"
        } else {
            let sets = values.map { "\($0.column) = (SELECT \($0.sql) FROM \(from) WHERE t0.Z_PK = \(table).Z_PK)" }
                + ["Z_OPT = Z_OPT + 1"]
            sql = "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(from)\(condition))"
        }
        let statement = try connection.statement(returning ? sql + " RETURNING Z_ENT, Z_PK" : sql)
        try statement.bind(compiler.bindings)
        if returning {
            defer { statement.reset() }
            while try statement.step() {
                keys.append(StoreKey(entityID: Int(statement.int64(0)), pk: statement.int64(1)))
            }
            // In key order, as a fetch without sort descriptors returns them.
            keys.sort { $0.pk < $1.pk }
            guard !keys.isEmpty else { return StoreBatchOutcome() }
        } else {
            try statement.execute()
        }
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
        case (.integer, .number): return dialect.integerTruncating(sql)
        case (.boolean, .number): return dialect.nonZero(sql)
        case (.double, .number), (.date, .date), (.text, .string): return sql
        default: throw StoreFetchUnsupported()
        }
    }

    /// A runtime value as the column stores it (what the save path binds).
    func batchBinding(_ value: SlotValue, kind: SQLiteValueKind, column: String) throws -> SQLBinding {
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
            if kind == .externalBlob { return batchExternalValue(value.bytes) }
            if kind == .blob || kind == .uuid { return .blob(value.data) }
            return .text(value.string)
        case .blob:
            // Batch requests write no files: an externally storable value stays in its row.
            if kind == .externalBlob { return batchExternalValue(value.bytes) }
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
                             files: inout [String], on connection: Connection) throws -> StoreBatchOutcome {
        let requested = try delete.plan.map { try fetchKeys($0) } ?? existingKeys(delete.keys, on: connection)
        guard !requested.isEmpty else { return StoreBatchOutcome() }
        let work = try BatchDeletion(
            deleting: requested, entities: { [schema] in schema.entitiesByID[$0] }, backend: self,
            collectLinks: false, sqliteCode: dialect.deleteRuleTriggerCode)
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
            files += try externalFiles(inTable: t, pks, columns: nil, on: connection)
            try runChunked("DELETE FROM \(schema.tables[t].name) WHERE Z_PK IN (%KEYS%)", pks, on: connection)
        }
        return outcome
    }

    /// The keys of those rows that still exist, with their stored `Z_ENT`, in order.
    private func existingKeys(_ keys: [StoreKey], on connection: Connection) throws -> [StoreKey] {
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
                let chunk = pks[start..<min(pks.count, start + Self.batchKeyChunk)]
                start += chunk.count
                let marks = (1...chunk.count).map(dialect.parameter).joined(separator: ", ")
                let statement = try connection.statement("SELECT Z_PK, Z_ENT FROM \(schema.tables[t].name) WHERE Z_PK IN (\(marks))")
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

    // MARK: History

    /// Records what a batch request wrote as one history transaction (nothing when the
    /// store keeps no history or the request wrote nothing), inside its transaction:
    /// inserted, updated (with the slots written, when known) and deleted rows, with the
    /// tombstones read before the rows went. Returns the transaction's number.
    @discardableResult
    func recordBatchHistory(_ changes: BatchChanges, tombstones: [StoreKey: [SQLBinding]], origin: HistoryOrigin,
                            on connection: Connection) throws -> Int64? {
        guard tracksHistory else { return nil }
        var transaction = SQLHistoryTransaction(origin: origin)
        let deleted = Set(changes.deleted)
        for key in changes.inserted {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            transaction.inserted.append((entity, key.pk))
        }
        for key in changes.updated where !deleted.contains(key) {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            transaction.updated.append((entity, key.pk, changes.updatedSlots[key].map { updatedColumns(entity, slots: $0) }))
        }
        for key in changes.deleted {
            guard let entity = schema.entitiesByID[key.entityID] else { continue }
            transaction.deleted.append((entity, key.pk, tombstones[key] ?? []))
        }
        guard !transaction.isEmpty else { return nil }
        return try recordHistory(transaction, on: connection)
    }
}

fileprivate extension String {
    /// The text with its first letter in lower case (`The store at …` inside a sentence).
    var lowercasedFirstLetter: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
