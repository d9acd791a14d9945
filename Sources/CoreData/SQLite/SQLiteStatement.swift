import Foundation
internal import CCoreDataSQLite

/// One prepared statement, finalized when released. Parameters are 1-based and
/// columns 0-based, as in SQLite's C API.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    /// The connection's handle, for error messages (the connection outlives its
    /// statements: it owns the statement cache).
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(connection: connection, resultCode: rc, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// Clears bindings and resets the statement so that it can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bindNull(_ index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds every UTF-8 byte of a string (NUL characters included).
    func bind(_ index: Int32, _ value: String) throws {
        var value = value
        try value.withUTF8 { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try bindText(index, $0.baseAddress, count: $0.count) }
        }
    }

    /// Binds UTF-8 bytes (not necessarily NUL-terminated).
    func bindText(_ index: Int32, _ bytes: UnsafePointer<CChar>?, count: Int) throws {
        if let bytes, count > 0 {
            try check(sqlite3_bind_text(handle, index, bytes, Int32(count), cdsqlite_transient()))
        } else {
            try check(sqlite3_bind_text(handle, index, "", 0, cdsqlite_transient()))
        }
    }

    /// Binds bytes as a BLOB; a zero-length blob stays a (non-NULL) empty BLOB.
    func bindBlob(_ index: Int32, _ bytes: UnsafeRawPointer?, count: Int) throws {
        if count == 0 {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
        } else {
            try check(sqlite3_bind_blob(handle, index, bytes, Int32(count), cdsqlite_transient()))
        }
    }

    func bind(_ index: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { try bindBlob(index, $0.baseAddress, count: $0.count) }
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw SQLiteError(connection: connection, resultCode: rc, sql: sql) }
    }

    // MARK: - Stepping

    /// Advances: true when a row is available, false when done.
    @discardableResult
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection, resultCode: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or ignores them), then resets it.
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    // MARK: - Columns

    func columnType(_ index: Int32) -> Int32 { sqlite3_column_type(handle, index) }
    func isNull(_ index: Int32) -> Bool { columnType(index) == SQLITE_NULL }
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// A column as text, every byte of it (text may hold NUL characters).
    func string(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func data(_ index: Int32) -> Data? {
        guard columnType(index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }
    /// The largest parameter index the SQL uses.
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }
    func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }
}
