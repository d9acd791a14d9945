import CCoreDataLibPQ
import Foundation

/// The raw side of the PostgreSQL rows: libpq's C API with nothing in between, as a careful
/// C programmer uses it (statements prepared once with `PQprepare`, text parameters, one
/// transaction per write). Results are plain `OpaquePointer`s read with `PQgetvalue`.
final class RawPostgreSQL {
    let handle: OpaquePointer

    init(url: String) throws {
        guard let conn = PQconnectdb(url) else { throw BenchError("libpq: out of memory") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw BenchError("libpq: cannot connect: \(message)")
        }
        handle = conn
        _ = try? execute("SET client_min_messages = WARNING")
    }

    deinit { PQfinish(handle) }

    /// Runs SQL without parameters; the result is cleared.
    func execute(_ sql: String) throws {
        PQclear(try check(PQexec(handle, sql), sql))
    }

    /// Every row of a query, each value as text or nil.
    func rows(_ sql: String) throws -> [[String?]] {
        let result = try check(PQexec(handle, sql), sql)
        defer { PQclear(result) }
        return (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// Prepares `sql` under `name` on this connection.
    func prepare(_ name: String, _ sql: String, parameters: Int32) throws {
        PQclear(try check(PQprepare(handle, name, sql, parameters, nil), sql))
    }

    /// Runs the prepared statement `name` with text parameters; the caller clears the result.
    func run(_ name: String, _ values: [UnsafePointer<CChar>?]) throws -> OpaquePointer {
        try check(PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0), name)
    }

    private func check(_ result: OpaquePointer?, _ what: String) throws -> OpaquePointer {
        guard let result else { throw BenchError("libpq: \(String(cString: PQerrorMessage(handle))) in `\(what)`") }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw BenchError("libpq: \(message) in `\(what)`")
        }
        return result
    }

    /// A value of a result as an integer, parsed from PostgreSQL's text form.
    @inline(__always)
    static func int64(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Int64 {
        strtoll(PQgetvalue(result, row, column), nil, 10)
    }

    @inline(__always)
    static func double(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Double {
        strtod(PQgetvalue(result, row, column), nil)
    }

    @inline(__always)
    static func string(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> String? {
        guard PQgetisnull(result, row, column) == 0, let text = PQgetvalue(result, row, column) else { return nil }
        let count = Int(PQgetlength(result, row, column))
        return text.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// The 10 record values of a row whose record columns start at `first`, hashed as the
    /// SQLite side's `RawDatabase.hashRecord` hashes them.
    static func hashRecord(_ result: OpaquePointer, _ row: Int32, from first: Int32) -> RowHash {
        var hash = RowHash()
        hash.add(int64(result, row, first))
        hash.add(int64(result, row, first + 1))
        hash.add(int64(result, row, first + 2))
        hash.add(int64(result, row, first + 3))
        hash.add(double(result, row, first + 4))
        hash.add(double(result, row, first + 5))
        hash.add(string(result, row, first + 6))
        hash.add(string(result, row, first + 7))
        hash.add(string(result, row, first + 8))
        if PQgetisnull(result, row, first + 9) != 0 {
            hash.add(nil as Date?)
        } else {
            hash.add(Date(timeIntervalSinceReferenceDate: double(result, row, first + 9)))
        }
        return hash
    }

    /// An order-independent checksum of every record without `Z_PK` (each side numbers its
    /// rows in its own order): `Z_ENT`, `Z_OPT` and the 10 values.
    func recordContents() throws -> Checksum {
        let result = try check(PQexec(handle, "SELECT Z_ENT, Z_OPT, \(BenchModel.recordColumns) FROM ZRECORD"), "checksum")
        defer { PQclear(result) }
        var checksum = Checksum()
        for row in 0..<PQntuples(result) {
            var hash = Self.hashRecord(result, row, from: 2)
            hash.add(Self.int64(result, row, 0))
            hash.add(Self.int64(result, row, 1))
            checksum.add(hash)
        }
        return checksum
    }
}
