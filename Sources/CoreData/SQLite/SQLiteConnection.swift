import Foundation
internal import CCoreDataSQLite

/// One SQLite database connection, closed when released. Keeps a cache of prepared
/// statements keyed by their SQL, so that each statement is prepared once.
///
/// Not thread-safe: the store that owns it is only called under its coordinator's lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// The file, when opened through SQLite's default file layer (see ``SQLiteOpenFiles``).
    private let openFile: SQLiteOpenFiles.FileID?
    private var statements: [String: SQLiteStatement] = [:]
    /// Called with the SQL of every statement SQLite starts (see
    /// `SQLiteConnection+Trace.swift`); nil when nobody listens.
    var statementObserver: ((String) -> Void)? {
        didSet { installTrace(statementObserver != nil) }
    }

    /// Opens (and with `create`, creates) the database at `path`.
    ///
    /// Uses `SQLITE_OPEN_NOMUTEX` (the coordinator serialises calls) and extended result
    /// codes; `busyTimeout` is how long a statement waits for another connection's lock.
    /// With `uri`, `ATTACH` accepts `file:` URIs (`?mode=ro`).
    init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeout: TimeInterval = 1, uri: Bool = false) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if uri { flags |= SQLITE_OPEN_URI }
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(connection: db, resultCode: rc)
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        openFile = uri ? nil : SQLiteOpenFiles.id(of: path)
        if let openFile { SQLiteOpenFiles.opened(openFile) }
        sqlite3_busy_timeout(db, Int32(max(0, min(busyTimeout * 1000, Double(Int32.max)))))
    }

    deinit {
        statements = [:]
        sqlite3_close_v2(handle)
        if let openFile { SQLiteOpenFiles.closed(openFile) }
    }

    // MARK: - Running SQL

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: handle, resultCode: rc, sql: sql) }
    }

    /// A new statement, not cached (for one-off SQL such as DDL and PRAGMAs).
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: handle, sql: sql)
    }

    /// The cached statement for `sql`, reset and with cleared bindings.
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        // Compiled predicates make many distinct statements: keep the cache bounded
        // (statements in use stay alive through their callers' references).
        if statements.count >= 512 { statements.removeAll(keepingCapacity: true) }
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql`, as text (PRAGMAs).
    func scalarString(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.string(0) : nil
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Resets every statement of this connection that is still stepping, which ends the
    /// read transaction it holds (<https://www.sqlite.org/c3ref/stmt_busy.html>).
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    // MARK: - Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`; rolls back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: - Schema introspection

    /// The columns of a table (`PRAGMA table_info`), as (name, declared type); empty when
    /// the table does not exist.
    func columns(ofTable table: String) throws -> [(name: String, type: String)] {
        let statement = try prepare("PRAGMA table_info(\(SQLiteConnection.quote(table)))")
        var result: [(String, String)] = []
        while try statement.step() {
            result.append((statement.string(1) ?? "", statement.string(2) ?? ""))
        }
        return result
    }

    /// The indexes of a table (`PRAGMA index_list`), as (name, unique).
    func indexes(ofTable table: String) throws -> [(name: String, unique: Bool)] {
        let statement = try prepare("PRAGMA index_list(\(SQLiteConnection.quote(table)))")
        var result: [(String, Bool)] = []
        while try statement.step() { result.append((statement.string(1) ?? "", statement.int64(2) != 0)) }
        return result
    }

    /// The indexed columns of an index (`PRAGMA index_info`), in order.
    func indexColumns(_ index: String) throws -> [String] {
        let statement = try prepare("PRAGMA index_info(\(SQLiteConnection.quote(index)))")
        var result: [String] = []
        while try statement.step() { result.append(statement.string(2) ?? "") }
        return result
    }

    // MARK: - Backup

    /// Copies the whole `main` database of `source` into this connection's database,
    /// through SQLite's online backup API (so content still in a WAL comes along).
    func restore(from source: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw SQLiteError(connection: handle, resultCode: sqlite3_errcode(handle))
        }
        let rc = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw SQLiteError(connection: handle, resultCode: rc) }
        guard finish == SQLITE_OK else { throw SQLiteError(connection: handle, resultCode: finish) }
    }

    // MARK: - Quoting

    /// An identifier in double quotes, with embedded quotes doubled.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
