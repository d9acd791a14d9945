import Foundation
internal import CCoreDataRuntime
internal import CCoreDataSQLite

// MARK: - Fetching

extension SQLiteStoreBackend {
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard plan.predicate == nil else { throw StoreFetchUnsupported() }
        let connection = try requireConnection()
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        var sql = selectPrefixes[t] + whereClause(plan)
        sql += " ORDER BY " + (try orderTerms(plan.sorts, entity: plan.entity) + ["Z_PK"]).joined(separator: ", ")
        sql += " LIMIT ? OFFSET ?"
        return try readFailure {
            let statement = try connection.cached(sql)
            try statement.bind(1, Int64(plan.limit > 0 ? plan.limit : -1))
            try statement.bind(2, Int64(max(0, plan.offset)))
            defer { statement.reset() }
            var rows: [StoreRow] = []
            while try statement.step() {
                if let row = try decodeRow(statement) { rows.append(row) }
            }
            return rows
        }
    }

    func count(_ plan: FetchPlan) throws -> Int {
        guard plan.predicate == nil else { throw StoreFetchUnsupported() }
        let connection = try requireConnection()
        guard let t = schema.tableIndex(for: plan.entity) else { return 0 }
        let sql = "SELECT COUNT(*) FROM \(schema.tables[t].name)" + whereClause(plan)
        let total: Int = try readFailure {
            let statement = try connection.cached(sql)
            defer { statement.reset() }
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
        let remaining = max(0, total - max(0, plan.offset))
        return plan.limit > 0 ? min(plan.limit, remaining) : remaining
    }

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        let connection = try requireConnection()
        guard let t = schema.tableIndex(for: entity) else { return nil }
        return try readFailure {
            let statement = try connection.cached(selectPrefixes[t] + " WHERE Z_PK = ?")
            try statement.bind(1, pk)
            defer { statement.reset() }
            return try statement.step() ? try decodeRow(statement) : nil
        }
    }

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        let connection = try requireConnection()
        guard let destination = relationship.destinationEntity,
              let destinationTable = schema.tableIndex(for: destination) else { return [] }
        let destinationName = schema.tables[destinationTable].name
        let sql: String
        if !relationship.isToMany {
            guard let fk = schema.toOneColumns[ObjectIdentifier(relationship)]?.fk,
                  let t = schema.tableIndex(for: relationship.entity) else { return [] }
            sql = "SELECT d.Z_ENT, d.Z_PK FROM \(schema.tables[t].name) s JOIN \(destinationName) d ON d.Z_PK = s.\(fk) WHERE s.Z_PK = ?"
        } else {
            switch schema.toMany[ObjectIdentifier(relationship)] {
            case let .children(_, foreignKey, orderColumn)?:
                let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
                sql = "SELECT Z_ENT, Z_PK FROM \(destinationName) WHERE \(foreignKey) = ? ORDER BY \(order)"
            case let .join(index, sourceIsA)?:
                let join = schema.joinTables[index]
                let (source, member, order) = sourceIsA
                    ? (join.columnA, join.columnB, join.orderB)
                    : (join.columnB, join.columnA, join.orderA)
                let orderBy = order.map { "j.\($0), d.Z_PK" } ?? "d.Z_PK"
                sql = "SELECT d.Z_ENT, d.Z_PK FROM \(join.name) j JOIN \(destinationName) d ON d.Z_PK = j.\(member) WHERE j.\(source) = ? ORDER BY \(orderBy)"
            case nil:
                return []
            }
        }
        return try readFailure {
            let statement = try connection.cached(sql)
            try statement.bind(1, pk)
            defer { statement.reset() }
            var keys: [StoreKey] = []
            while try statement.step() {
                keys.append(StoreKey(entityID: Int(statement.int64(0)), pk: statement.int64(1)))
            }
            return keys
        }
    }

    // MARK: - SQL pieces

    /// ` WHERE Z_ENT ...` for the plan's entity, or nothing when every row of the table
    /// qualifies. (Predicates are not compiled to SQL yet: plans with one are refused with
    /// `StoreFetchUnsupported` and filtered by the caller.)
    func whereClause(_ plan: FetchPlan) -> String {
        let entity = plan.entity
        if plan.includesSubentities {
            if entity === entity.runtime.root { return "" }
            let ids = entity.runtime.family.map { String($0.runtime.entityID) }
            return ids.count == 1 ? " WHERE Z_ENT = \(ids[0])" : " WHERE Z_ENT IN (\(ids.joined(separator: ", ")))"
        }
        return " WHERE Z_ENT = \(entity.runtime.entityID)"
    }

    /// ORDER BY terms for sort keys on the entity's own attributes.
    ///
    /// - Note: Apple parity: `.compare` sorts strings by their UTF-8 bytes (SQLite's
    ///   BINARY collation), as Apple's SQLite store does. `.caseInsensitive` uses SQLite's
    ///   NOCASE collation, which folds ASCII letters only: the same order as Apple for ASCII
    ///   text, not for other letters. Localized comparisons and key paths through
    ///   relationships are left to the caller (`StoreFetchUnsupported`).
    func orderTerms(_ sorts: [SortKey], entity: NSEntityDescription) throws -> [String] {
        try sorts.map { sort in
            guard !sort.keyPath.contains("."),
                  let attribute = entity.attributesByName[sort.keyPath], !attribute.isTransient,
                  let kind = SQLiteValueKind(attribute),
                  let column = schema.attributeColumns[ObjectIdentifier(attribute)] else {
                throw StoreFetchUnsupported()
            }
            var term = column
            if kind == .text {
                switch sort.comparison {
                case .compare: break
                case .caseInsensitive: term += " COLLATE NOCASE"
                case .localized, .localizedCaseInsensitive, .localizedStandard: throw StoreFetchUnsupported()
                }
            }
            return term + (sort.ascending ? " ASC" : " DESC")
        }
    }

    /// Runs a read; SQLite failures become `NSPersistentStoreOperationError` (or the
    /// corrupt-file / timeout codes) with the SQLite error attached.
    func readFailure<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let sqlite as SQLiteError {
            let code = sqlite.isCorrupt ? CocoaError.Code.fileReadCorruptFile.rawValue
                : sqlite.isBusy ? NSPersistentStoreTimeoutError : NSPersistentStoreOperationError
            throw Self.sqliteError(code, "Reading the store at \(url.path) failed.", sqlite, url: url)
        }
    }

    // MARK: - Decoding rows

    /// The row under the statement's cursor (a table SELECT list), or nil when its `Z_ENT`
    /// is not an entity of this store.
    func decodeRow(_ statement: SQLiteStatement) throws -> StoreRow? {
        let entityID = Int(statement.int64(1))
        guard let plan = plans[entityID] else { return nil }
        let row = StoreRow(entity: plan.entity, pk: statement.int64(0), version: statement.int64(2))
        for field in plan.fields {
            try decode(field, from: statement, into: row.values)
        }
        return row
    }

    /// Reads one column by the model's type, tolerating what real stores hold (integers in
    /// REAL columns, numbers as text, NULLs).
    private func decode(_ field: Field, from statement: SQLiteStatement, into row: OpaquePointer) throws {
        let i = field.position
        let type = statement.columnType(i)
        if type == SQLITE_NULL { return }
        var value = cdr_value()
        switch field.kind {
        case let .toOne(destination, _, entityPosition):
            guard let pk = integer(statement, i) else { return }
            var entityID = destination.runtime.entityID
            if let p = entityPosition, let stored = integer(statement, p), stored > 0 { entityID = Int(stored) }
            setReference(row, field.slot, pk: pk, entityID: entityID)
            return
        case let .value(kind):
            switch kind {
            case .integer:
                guard let v = integer(statement, i) else { return }
                value.type = UInt8(CDR_INT64.rawValue)
                value.u.i = v
            case .boolean:
                guard let v = integer(statement, i) else { return }
                value.type = UInt8(CDR_BOOL.rawValue)
                value.u.i = v != 0 ? 1 : 0
            case .double, .date:
                guard let v = real(statement, i) else { return }
                value.type = UInt8((kind == .date ? CDR_DATE : CDR_DOUBLE).rawValue)
                value.u.d = v
            case .decimal:
                let text: String
                switch type {
                case SQLITE_INTEGER: text = String(statement.int64(i))
                case SQLITE_FLOAT: text = Self.decimalString(statement.double(i))
                default: text = statement.string(i) ?? ""
                }
                setText(row, field.slot, text)
                return
            case .text:
                let count = Int(sqlite3_column_bytes(statement.handle, i))
                let bytes = type == SQLITE_BLOB
                    ? sqlite3_column_blob(statement.handle, i).map { UnsafeRawPointer($0) }
                    : sqlite3_column_text(statement.handle, i).map { UnsafeRawPointer($0) }
                cdr_row_set_text(row, field.slot, count > 0 ? bytes?.assumingMemoryBound(to: CChar.self) : nil, count)
                return
            case .uuid:
                guard let uuid = Self.uuidBytes(statement, i) else { return }
                value.type = UInt8(CDR_UUID.rawValue)
                withUnsafeMutableBytes(of: &value.u.uuid) { $0.copyBytes(from: uuid) }
            case .blob:
                let count = Int(sqlite3_column_bytes(statement.handle, i))
                let bytes = type == SQLITE_BLOB
                    ? sqlite3_column_blob(statement.handle, i)
                    : sqlite3_column_text(statement.handle, i).map { UnsafeRawPointer($0) }
                cdr_row_set_blob(row, field.slot, count > 0 ? bytes : nil, count)
                return
            }
        }
        cdr_row_set(row, field.slot, &value)
    }

    private func integer(_ statement: SQLiteStatement, _ i: Int32) -> Int64? {
        switch statement.columnType(i) {
        case SQLITE_INTEGER: return statement.int64(i)
        case SQLITE_FLOAT:
            let d = statement.double(i)
            return d.isFinite && abs(d) < 9.2e18 ? Int64(d.rounded(.towardZero)) : nil
        case SQLITE_TEXT: return statement.string(i).flatMap { Int64($0) ?? Double($0).map { Int64($0) } }
        default: return nil
        }
    }

    private func real(_ statement: SQLiteStatement, _ i: Int32) -> Double? {
        switch statement.columnType(i) {
        case SQLITE_INTEGER, SQLITE_FLOAT: return statement.double(i)
        case SQLITE_TEXT: return statement.string(i).flatMap { Double($0) }
        default: return nil
        }
    }

    private static func uuidBytes(_ statement: SQLiteStatement, _ i: Int32) -> [UInt8]? {
        switch statement.columnType(i) {
        case SQLITE_BLOB:
            guard let data = statement.data(i), data.count == 16 else { return nil }
            return Array(data)
        case SQLITE_TEXT:
            guard let text = statement.string(i), let uuid = UUID(uuidString: text) else { return nil }
            return withUnsafeBytes(of: uuid.uuid) { Array($0) }
        default: return nil
        }
    }

    /// The shortest decimal text that reads back as `value` (`10.11`, `3`, `0.00001`).
    static func decimalString(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = "\(value)"
        if text.contains("e") { text = Decimal(string: text).map { "\($0)" } ?? text }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private func setText(_ row: OpaquePointer, _ slot: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = cdr_row_set_text(row, slot, $0.count > 0 ? $0.baseAddress : nil, $0.count)
            }
        }
    }

    /// A to-one value: `CDR_INT64` with the PK, `length` = the destination's `Z_ENT`.
    func setReference(_ row: OpaquePointer, _ slot: Int32, pk: Int64, entityID: Int) {
        var value = cdr_value()
        value.type = UInt8(CDR_INT64.rawValue)
        value.length = UInt32(entityID)
        value.u.i = pk
        cdr_row_set(row, slot, &value)
        // RUNTIME: cdr_value_copy does not carry `length` for CDR_INT64 values, which the
        // store contract uses for the destination's Z_ENT; write it into our own row.
        if let stored = cdr_row_get(row, slot), stored.pointee.length != UInt32(entityID) {
            UnsafeMutablePointer(mutating: stored).pointee.length = UInt32(entityID)
        }
    }
}
