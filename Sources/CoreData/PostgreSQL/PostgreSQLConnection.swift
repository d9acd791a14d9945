import Foundation
internal import CCoreDataLibPQ

/// One libpq connection to a PostgreSQL server, closed when released.
///
/// libpq is synchronous, as the coordinator's calls into a store are: a statement runs and
/// its whole result arrives before the call returns. Not thread-safe: the store that owns it
/// is only called under its coordinator's lock.
final class PostgreSQLConnection {
    let handle: OpaquePointer
    /// What the connection was opened with (a `postgresql://` URI or `key=value` pairs).
    let connectionString: String

    /// Connects; throws when the server cannot be reached or refuses the connection.
    init(connectionString: String) throws {
        guard let conn = PQconnectdb(connectionString) else {
            throw PostgreSQLError(sqlState: nil, message: "libpq could not allocate a connection", sql: nil)
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = Self.message(conn)
            PQfinish(conn)
            throw PostgreSQLError(sqlState: nil, message: message, sql: nil)
        }
        handle = conn
        self.connectionString = connectionString
        // Warnings and notices (e.g. "table already exists, skipping") are not ours to print.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is usable (false after the server went away).
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and not yet rolled back).
    var inTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Connects again after the server dropped the connection; true when it worked.
    func reconnect() -> Bool {
        PQreset(handle)
        return isHealthy
    }

    /// The server's process ID for this connection (`pg_backend_pid()`).
    var backendPID: Int32 { PQbackendPID(handle) }

    private static func message(_ conn: OpaquePointer) -> String {
        guard let text = PQerrorMessage(conn) else { return "unknown libpq error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Running SQL

    /// Runs one statement with typed parameters (`$1`, `$2`, …) and returns its result.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws -> PostgreSQLResult {
        let count = parameters.count
        var types = [Oid](repeating: 0, count: count)
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
        var values = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
        defer { for value in values { value?.deallocate() } }
        func copy(_ bytes: UnsafeRawBufferPointer, terminated: Bool) -> UnsafeMutablePointer<CChar> {
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            if let base = bytes.baseAddress { UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: bytes.count) }
            if terminated { pointer[bytes.count] = 0 }
            return pointer
        }
        func text(_ string: String, _ i: Int) {
            var string = string
            values[i] = string.withUTF8 { copy(UnsafeRawBufferPointer($0), terminated: true) }
        }
        for (i, parameter) in parameters.enumerated() {
            switch parameter {
            case .null: break
            case .integer(let v): types[i] = 20; text(String(v), i)
            case .real(let v): types[i] = 701; text(v.isNaN ? "NaN" : "\(v)", i)
            case .text(let v): types[i] = 25; text(v, i)
            case .numeric(let v): types[i] = 1700; text(v, i)
            case .bytes(let v):
                types[i] = 17
                formats[i] = 1
                lengths[i] = Int32(v.count)
                values[i] = v.withUnsafeBytes { copy($0, terminated: false) }
            }
        }
        let raw = values.map { UnsafePointer($0) }
        let result = count == 0
            ? PQexec(handle, sql)
            : PQexecParams(handle, sql, Int32(count), types, raw, lengths, formats, 0)
        guard let result else {
            throw PostgreSQLError(sqlState: nil, message: Self.message(handle), sql: sql)
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            var message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? Self.message(handle)
            if let detail = PQresultErrorField(result, Int32(UInt8(ascii: "D"))) {
                message += " (" + String(cString: detail) + ")"
            }
            PQclear(result)
            throw PostgreSQLError(sqlState: state, message: message, sql: sql)
        }
        return PostgreSQLResult(handle: result)
    }

    /// Runs `body` inside `BEGIN` … `COMMIT` (with `isolation`, e.g. `SERIALIZABLE`); any
    /// error rolls back and is rethrown. A connection that broke is left for the caller to
    /// reconnect.
    func transaction<T>(isolation: String? = nil, _ body: () throws -> T) throws -> T {
        try execute(isolation.map { "BEGIN ISOLATION LEVEL " + $0 } ?? "BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isHealthy, inTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
