import Foundation
internal import CCoreDataLibPQ

/// The rows (or the command status) of one statement, freed when released. Values arrive in
/// PostgreSQL's text format; the accessors parse them.
final class PostgreSQLResult {
    let handle: OpaquePointer

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }
    var columnCount: Int { Int(PQnfields(handle)) }

    /// How many rows an INSERT, UPDATE or DELETE touched.
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The type OID of `column` (`pg_type.oid`: 20 `int8`, 25 `text`, 17 `bytea`, …).
    func typeOID(_ column: Int) -> UInt32 {
        UInt32(PQftype(handle, Int32(column)))
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value's text bytes (no NUL), valid while the result lives; nil for NULL.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer? {
        let r = Int32(row), c = Int32(column)
        guard PQgetisnull(handle, r, c) == 0, let value = PQgetvalue(handle, r, c) else { return nil }
        return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(handle, r, c)))
    }

    func string(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    func int64(_ row: Int, _ column: Int) -> Int64? {
        let r = Int32(row), c = Int32(column)
        guard PQgetisnull(handle, r, c) == 0, let value = PQgetvalue(handle, r, c) else { return nil }
        return strtoll(value, nil, 10)
    }

    /// A `float8` (PostgreSQL 12 and later print the shortest text that reads back exactly),
    /// or any number.
    func double(_ row: Int, _ column: Int) -> Double? {
        let r = Int32(row), c = Int32(column)
        guard PQgetisnull(handle, r, c) == 0, let value = PQgetvalue(handle, r, c) else { return nil }
        return strtod(value, nil)
    }

    /// A `bytea` value (text format: `\x` then hex digits).
    func data(_ row: Int, _ column: Int) -> Data? {
        guard let text = bytes(row, column) else { return nil }
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
            return Data(text)
        }
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: c &- UInt8(ascii: "A") &+ 10
            }
        }
        var bytes = [UInt8](repeating: 0, count: (text.count - 2) / 2)
        var i = 2, o = 0
        while i + 1 < text.count {
            bytes[o] = nibble(text[i]) << 4 | nibble(text[i + 1])
            i += 2
            o += 1
        }
        return Data(bytes)
    }
}
