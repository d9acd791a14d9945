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
    /// How many statements ``execute(_:_:)`` has sent on this connection (each a round trip):
    /// what tests count to tell one set-based statement from a statement per row.
    private(set) var statementsSent = 0

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
        statementsSent += 1
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
        return try checked(result, sql: sql)
    }

    /// The result of `sql` when it succeeded; else the server's (or libpq's) error, thrown.
    private func checked(_ result: OpaquePointer?, sql: String) throws -> PostgreSQLResult {
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
    ///
    /// A commit whose reply is lost is not reported as failed when it succeeded: the
    /// transaction's ID is read with `BEGIN` (one round trip for both), and when the connection
    /// breaks while COMMIT's reply is awaited, the server is asked after reconnecting whether
    /// that transaction committed (``outcome(of:backend:)``). A caller that saw an error can
    /// therefore run its changes again without committing them twice.
    @discardableResult
    func transaction<T>(isolation: String? = nil, _ body: () throws -> T) throws -> T {
        let begin = (isolation.map { "BEGIN ISOLATION LEVEL " + $0 } ?? "BEGIN") + "; SELECT txid_current()"
        let transactionID = try execute(begin).int64(0, 0)
        let backend = backendPID
        do {
            let value = try body()
            try commit(transactionID: transactionID, backend: backend)
            return value
        } catch {
            if isHealthy, inTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Test seam: when set, COMMIT is sent, then this runs with the connection's socket, then
    /// COMMIT's reply is read (the tests shut the socket here, so that the reply is lost). Nil
    /// in every other use.
    var afterSendingCommit: ((Int32) -> Void)?

    /// Sends `COMMIT`; when the connection breaks before the reply, returns normally if the
    /// server committed the transaction all the same, and rethrows the failure if it did not.
    private func commit(transactionID: Int64?, backend: Int32) throws {
        do {
            if let afterSendingCommit {
                guard PQsendQuery(handle, "COMMIT") == 1 else {
                    throw PostgreSQLError(sqlState: nil, message: Self.message(handle), sql: "COMMIT")
                }
                afterSendingCommit(PQsocket(handle))
                var failure: Error?
                while let result = PQgetResult(handle) {
                    do { _ = try checked(result, sql: "COMMIT") } catch { failure = failure ?? error }
                }
                if let failure { throw failure }
            } else {
                try execute("COMMIT")
            }
        } catch let error as PostgreSQLError where error.isConnectionFailure {
            guard let transactionID else { throw error }
            switch try outcome(of: transactionID, backend: backend) {
            case .some(true): return
            case .some(false): throw error
            case .none:
                throw PostgreSQLError(
                    sqlState: nil,
                    message: "The connection broke while the server was committing, and whether it committed is not known: \(error.message)",
                    sql: "COMMIT")
            }
        }
    }

    /// Whether transaction `id` committed (true) or not (false), asked on a new connection
    /// after the one that ran it broke; nil when the server cannot say (unreachable, or the
    /// answer no longer kept). A transaction still in progress belongs to the old backend
    /// (`backend`), which may not yet have seen its client go: that backend is ended, so the
    /// transaction either finishes its commit or aborts, and the question is asked again.
    /// Uses `txid_status` (PostgreSQL 10 and later).
    func outcome(of id: Int64, backend: Int32) throws -> Bool? {
        guard reconnect() else { return nil }
        for attempt in 0..<500 {
            let status = try execute("SELECT txid_status($1)", [.integer(id)]).string(0, 0)
            switch status {
            case "committed": return true
            case "aborted": return false
            case "in progress":
                if attempt == 0 {
                    // Only that backend, and only while it still runs this transaction (a
                    // process ID can be reused); backend_xid is the ID's low 32 bits.
                    _ = try execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND backend_xid::text::bigint = $2",
                        [.integer(Int64(backend)), .integer(id & 0xFFFF_FFFF)])
                }
                usleep(10_000)
            default: return nil
            }
        }
        return nil
    }
}
