import Foundation
internal import CCoreDataSQLite

// MARK: - Fetching

extension SQLiteStoreBackend {
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: fetchColumnLists[t])
        return try fetchRows(plan, sql: sql, bindings: bindings, table: t)
    }

    /// The keys of the rows a plan selects, in order, without reading their values (for
    /// `includesPropertyValues = false` and batched fetches).
    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        guard let t = schema.tableIndex(for: plan.entity) else { return [] }
        let (sql, bindings) = try selectStatement(plan, table: t, columns: "t0.Z_ENT, t0.Z_PK")
        return try fetchKeys(sql: sql, bindings: bindings, table: t)
    }

    /// One SELECT for a plan: `columns` of the entity's table (`t0`), joined as the
    /// predicate and sort key paths need, filtered, ordered (then by `Z_PK`), limited.
    ///
    /// The SQL of a plan whose predicate has a cacheable shape (``SelectShape``) is compiled
    /// once per shape; later plans of that shape only compute their bindings.
    func selectStatement(_ plan: FetchPlan, table t: Int, columns: String) throws -> (String, [SQLBinding]) {
        var constants: [SelectShape.Constant] = []
        guard let shape = SelectShape(plan, columns: columns, constants: &constants) else {
            return try compileSelect(plan, table: t, columns: columns)
        }
        if let cached = selectCache.sql(for: shape) {
            guard let sql = cached else { return try compileSelect(plan, table: t, columns: columns) }
            return (sql, SelectShape.bindings(constants, limit: plan.limit, offset: plan.offset))
        }
        let (sql, bindings) = try compileSelect(plan, table: t, columns: columns)
        // Cached only when the compiler bound exactly the shape's constants, in order (it
        // did not decide a comparison without its constant, say between different kinds).
        let expected = SelectShape.bindings(constants, limit: plan.limit, offset: plan.offset)
        selectCache.store(bindings == expected ? sql : nil, for: shape)
        return (sql, bindings)
    }

    /// Compiles the SELECT of a plan (see ``selectStatement(_:table:columns:)``).
    private func compileSelect(_ plan: FetchPlan, table t: Int, columns: String) throws -> (String, [SQLBinding]) {
        let compiler = makeCompiler(plan.entity)
        let condition = try whereClause(plan, compiler)
        let order = try orderTerms(plan.sorts, compiler) + ["t0.Z_PK"]
        var sql = "SELECT \(columns) FROM " + compiler.fromClause(table: schema.tables[t].name) + condition
        sql += " ORDER BY " + order.joined(separator: ", ")
        let limit = compiler.parameter(.integer(Int64(plan.limit > 0 ? plan.limit : -1)))
        let offset = compiler.parameter(.integer(Int64(max(0, plan.offset))))
        sql += " LIMIT \(limit) OFFSET \(offset)"
        return (sql, compiler.bindings)
    }

    // MARK: - SQL pieces

    /// ORDER BY terms for sort keys: attributes of the entity or reached through to-one
    /// relationships (`LEFT JOIN`, so a nil relationship sorts as NULL, first ascending).
    ///
    /// Strings sort as ``KeyedSortDescriptor`` sorts them: `compare:` by code point
    /// (SQLite's BINARY collation on UTF-8), `caseInsensitiveCompare:` by the folded text
    /// (`cd_fold`), the localized selectors through collations that call the same
    /// Foundation methods (``SQLiteFunctions``). Values memory cannot order (UUIDs, data,
    /// objects) are left to the caller (`StoreFetchUnsupported`).
    func orderTerms(_ sorts: [SortKey], _ compiler: SQLPredicateCompiler) throws -> [String] {
        try sorts.map { sort in
            let segments = sort.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard case .scalar(var term, let kind) = try compiler.keyPath(segments[...], from: compiler.root, path: sort.keyPath),
                  kind == .number || kind == .date || kind == .string else {
                throw StoreFetchUnsupported()
            }
            if kind == .string {
                switch sort.comparison {
                case .compare: break
                case .caseInsensitive:
                    term = "cd_fold(\(term), \(NSComparisonPredicate.Options.caseInsensitive.rawValue))"
                case .localized, .localizedCaseInsensitive, .localizedStandard:
                    term += " COLLATE " + SQLiteFunctions.collations[sort.comparison]!
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

    /// The row under the statement's cursor (a SELECT list of table `t`); throws when its
    /// `Z_ENT` is not an entity of that table.
    func decodeRow(_ statement: SQLiteStatement, table t: Int, loadedAt: TimeInterval) throws -> StoreRow {
        try decodeRow(statement, rowPlan(Int(statement.int64(1)), table: t, pk: statement.int64(0)), loadedAt: loadedAt)
    }

    /// The row under the cursor, of the plan's entity. The common column kinds holding
    /// their usual storage class are read inline; everything else goes through `decode`.
    ///
    /// The row is one allocation: its text columns are measured first, and the row gets
    /// room for their bytes after its values.
    func decodeRow(_ statement: SQLiteStatement, _ plan: EntityPlan, loadedAt: TimeInterval) throws -> StoreRow {
        let handle = statement.handle
        var textBytes = 0
        plan.decodeOps.withUnsafeBufferPointer { ops in
            for op in ops where op.kind == .text && sqlite3_column_type(handle, op.position) == SQLITE_TEXT {
                textBytes += Int(sqlite3_column_bytes(handle, op.position)) + 1
            }
        }
        let row = StoreRow(entity: plan.entity, pk: statement.int64(0), version: statement.int64(2),
                           textBytes: textBytes, loadedAt: loadedAt)
        try decodeFields(statement, plan, pk: row.pk, into: row.values)
        return row
    }

    /// Decodes the plan's fields (at their SELECT positions) of the row `pk` into a runtime
    /// row; NULL columns leave their slots untouched.
    func decodeFields(_ statement: SQLiteStatement, _ plan: EntityPlan, pk: Int64, into values: borrowing RowValues) throws {
        let handle = statement.handle
        try plan.decodeOps.withUnsafeBufferPointer { ops in
            for op in ops {
                let i = op.position
                let type = sqlite3_column_type(handle, i)
                if type == SQLITE_NULL { continue }
                switch op.kind {
                case .integer where type == SQLITE_INTEGER:
                    values.setInt64(sqlite3_column_int64(handle, i), at: op.slot)
                case .double where type == SQLITE_FLOAT || type == SQLITE_INTEGER:
                    values.setDouble(sqlite3_column_double(handle, i), at: op.slot)
                case .date where type == SQLITE_FLOAT || type == SQLITE_INTEGER:
                    values.setDate(sqlite3_column_double(handle, i), at: op.slot)
                case .boolean where type == SQLITE_INTEGER:
                    values.setBool(sqlite3_column_int64(handle, i) != 0, at: op.slot)
                case .text where type == SQLITE_TEXT:
                    let bytes = sqlite3_column_text(handle, i)
                    let count = Int(sqlite3_column_bytes(handle, i))
                    values.setText(bytes: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count), at: op.slot)
                default:
                    try decode(plan.fields[op.field], of: plan, pk: pk, from: statement, into: values)
                }
            }
        }
    }

    /// Reads one column by the model's type, tolerating what real stores hold (integers in
    /// REAL columns, numbers as text, NULLs); throws for what the model cannot hold (an
    /// integer wider than its attribute, a destination of another entity).
    private func decode(
        _ field: Field, of plan: EntityPlan, pk: Int64, from statement: SQLiteStatement, into row: borrowing RowValues
    ) throws {
        let i = field.position
        let type = statement.columnType(i)
        if type == SQLITE_NULL { return }
        switch field.kind {
        case let .toOne(destination, entityColumn, entityPosition):
            guard let destinationPK = integer(statement, i) else { return }
            var entityID = destination.runtime.entityID
            if let p = entityPosition, let stored = integer(statement, p), stored > 0 {
                entityID = Int(stored)
                if let relationship = plan.entity.runtime.slotProperties[Int(field.slot)] as? NSRelationshipDescription {
                    try checkMember(entityID, of: destination, table: plan.tableName, pk: pk,
                                    column: entityColumn ?? field.column, relationship: relationship)
                }
            }
            row.setKey(StoreKey(entityID: entityID, pk: destinationPK), at: field.slot)
            return
        case let .value(kind):
            switch kind {
            case .integer:
                guard let v = integer(statement, i) else { return }
                if let bounds = field.bounds, !bounds.contains(v) {
                    throw corruptRow(table: plan.tableName, pk: pk, column: field.column,
                                     "holds \(v), which does not fit its attribute \(field.attributeDescription(plan))")
                }
                row.setInt64(v, at: field.slot)
            case .boolean:
                guard let v = integer(statement, i) else { return }
                row.setBool(v != 0, at: field.slot)
            case .double, .date:
                guard let v = real(statement, i) else { return }
                if kind == .date { row.setDate(v, at: field.slot) } else { row.setDouble(v, at: field.slot) }
            case .decimal:
                let text: String
                switch type {
                case SQLITE_INTEGER: text = String(statement.int64(i))
                case SQLITE_FLOAT: text = Self.decimalString(statement.double(i))
                default: text = statement.string(i) ?? ""
                }
                row.setText(text, at: field.slot)
            case .text:
                let count = Int(sqlite3_column_bytes(statement.handle, i))
                let bytes = type == SQLITE_BLOB
                    ? sqlite3_column_blob(statement.handle, i).map { UnsafeRawPointer($0) }
                    : sqlite3_column_text(statement.handle, i).map { UnsafeRawPointer($0) }
                row.setText(bytes: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count), at: field.slot)
            case .uuid:
                guard let uuid = Self.uuidBytes(statement, i) else { return }
                _ = uuid.withUnsafeBytes { row.setUUID(bytes: $0, at: field.slot) }
            case .blob:
                let count = Int(sqlite3_column_bytes(statement.handle, i))
                let bytes = type == SQLITE_BLOB
                    ? sqlite3_column_blob(statement.handle, i)
                    : sqlite3_column_text(statement.handle, i).map { UnsafeRawPointer($0) }
                row.setBlob(bytes: UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count), at: field.slot)
            case .externalBlob:
                let count = Int(sqlite3_column_bytes(statement.handle, i))
                let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement.handle, i), count: count)
                switch ExternalDataStorage.classify(bytes) {
                case .inline(let value):
                    row.setBlob(bytes: value, at: field.slot)
                case .file(let name):
                    let data: Data
                    do {
                        data = try externalData.read(name)
                    } catch {
                        throw corruptRow(table: plan.tableName, pk: pk, column: field.column,
                                         "names the external data file \(name), which can't be read in \(externalData.folder.path)")
                    }
                    _ = data.withUnsafeBytes { row.setBlob(bytes: $0, at: field.slot) }
                }
            }
        }
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
        SQLField.decimalString(value)
    }
}
