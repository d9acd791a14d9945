import CCoreDataSQLite
import Foundation

/// The raw side: SQLite's C API with nothing in between, as a careful C programmer would
/// use it (prepared statements, one transaction per write, WAL, synchronous=NORMAL).
/// Statements are plain `OpaquePointer`s, stepped and read with `sqlite3_*` calls.
final class RawDatabase {
    let handle: OpaquePointer
    let path: String

    /// Opens (creating when asked) a database with the same flags and pragmas as our
    /// SQLite store.
    init(path: String, create: Bool = false) throws {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw BenchError("cannot open \(path): SQLite error \(rc)")
        }
        handle = db
        self.path = path
        if create {
            // What our store runs on a new file, before any table exists.
            try execute("PRAGMA auto_vacuum = 2")
            try execute("PRAGMA page_size = 4096")
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(message)
            throw BenchError("SQLite: \(text) in `\(sql)`")
        }
    }

    /// A prepared statement; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in `\(sql)`")
        }
        return statement
    }

    func check(_ rc: Int32, _ what: String) throws {
        if rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW {
            throw BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) (\(rc)) during \(what)")
        }
    }

    /// Rows of a query, each as an array of Int64 (for small bookkeeping queries).
    func integers(_ sql: String) throws -> [[Int64]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var rows: [[Int64]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { sqlite3_column_int64(statement, $0) })
        }
        return rows
    }

    // MARK: - Set-up and verification (never timed)

    /// Creates the same tables and indexes as `source` (our store's file), reading its
    /// `sqlite_master`, and copies its `Z_PRIMARYKEY` rows with `Z_MAX` = 0.
    func copySchema(from source: RawDatabase) throws {
        let statement = try source.prepare(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        defer { sqlite3_finalize(statement) }
        var ddl: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            ddl.append(String(cString: sqlite3_column_text(statement, 0)))
        }
        try execute("BEGIN")
        for sql in ddl { try execute(sql) }
        for row in try source.integers("SELECT Z_ENT, Z_SUPER FROM Z_PRIMARYKEY") {
            let name = try source.text("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = \(row[0])") ?? ""
            try execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(row[0]), '\(name)', \(row[1]), 0)")
        }
        try execute("COMMIT")
    }

    func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }

    /// `Z_ENT` of an entity, from `Z_PRIMARYKEY`.
    func entityID(_ name: String) throws -> Int64 {
        guard let row = try integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'").first else {
            throw BenchError("no entity \(name) in Z_PRIMARYKEY of \(path)")
        }
        return row[0]
    }

    /// Copies every row of `table` from `source` (same schema) into this database.
    func copyRows(of table: String, from source: RawDatabase) throws {
        let select = try source.prepare("SELECT * FROM \(table) ORDER BY rowid")
        defer { sqlite3_finalize(select) }
        let columns = sqlite3_column_count(select)
        let marks = Array(repeating: "?", count: Int(columns)).joined(separator: ", ")
        let insert = try prepare("INSERT INTO \(table) VALUES (\(marks))")
        defer { sqlite3_finalize(insert) }
        try execute("BEGIN")
        while sqlite3_step(select) == SQLITE_ROW {
            for c in 0..<columns {
                let value = sqlite3_column_value(select, c)
                sqlite3_bind_value(insert, c + 1, value)
            }
            try check(sqlite3_step(insert), "copying \(table)")
            sqlite3_reset(insert)
        }
        try execute("COMMIT")
    }

    /// A checksum of every value of every row of `table` (by column type), to prove that
    /// two files hold the same data.
    func tableChecksum(_ table: String) throws -> Checksum {
        let statement = try prepare("SELECT * FROM \(table)")
        defer { sqlite3_finalize(statement) }
        let columns = sqlite3_column_count(statement)
        var checksum = Checksum()
        while sqlite3_step(statement) == SQLITE_ROW {
            var row = RowHash()
            for c in 0..<columns {
                switch sqlite3_column_type(statement, c) {
                case SQLITE_INTEGER: row.add(sqlite3_column_int64(statement, c))
                case SQLITE_FLOAT: row.add(sqlite3_column_double(statement, c))
                case SQLITE_NULL: row.add(UInt64(0x5151))
                default:
                    let bytes = sqlite3_column_blob(statement, c)
                    let count = Int(sqlite3_column_bytes(statement, c))
                    row.add(bytes: UnsafeRawBufferPointer(start: bytes, count: count))
                }
            }
            checksum.add(row)
        }
        return checksum
    }

    /// Copies this whole database into a file at `path` (SQLite's online backup).
    func backup(to path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        var destination: OpaquePointer?
        guard sqlite3_open_v2(path, &destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
              let destination else { throw BenchError("cannot create \(path)") }
        defer { sqlite3_close_v2(destination) }
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            throw BenchError("cannot back up \(self.path)")
        }
        let rc = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw BenchError("backup of \(self.path) failed: \(rc)") }
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

// MARK: - Reading a Record row the raw way

extension RawDatabase {
    /// The SELECT list every raw read of a record uses (same columns our store reads).
    static let recordSelect = "SELECT Z_PK, Z_ENT, Z_OPT, \(BenchModel.recordColumns) FROM ZRECORD"

    /// Reads the 10 attributes of the row under `statement` (columns from `first` on) into
    /// Swift values, as a program using SQLite directly would, and hashes them.
    @inline(__always)
    static func hashRecord(_ statement: OpaquePointer, from first: Int32) -> RowHash {
        var row = RowHash()
        row.add(sqlite3_column_int64(statement, first))
        row.add(sqlite3_column_int64(statement, first + 1))
        row.add(sqlite3_column_int64(statement, first + 2))
        row.add(sqlite3_column_int64(statement, first + 3))
        row.add(sqlite3_column_double(statement, first + 4))
        row.add(sqlite3_column_double(statement, first + 5))
        row.add(string(statement, first + 6))
        row.add(string(statement, first + 7))
        row.add(string(statement, first + 8))
        row.add(date(statement, first + 9))
        return row
    }

    @inline(__always)
    static func string(_ statement: OpaquePointer, _ column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always)
    static func date(_ statement: OpaquePointer, _ column: Int32) -> Date? {
        if sqlite3_column_type(statement, column) == SQLITE_NULL { return nil }
        return Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, column))
    }
}

/// A record row held the way a program using SQLite directly holds it: one struct of Swift
/// values per row, every column our store reads for a record (`Z_PK`, `Z_ENT`, `Z_OPT`
/// and the 10 attributes).
struct RawRecord {
    var pk: Int64
    var entity: Int64
    var opt: Int64
    var ident: Int64
    var quantity: Int64
    var rank: Int64
    var flags: Int64
    var price: Double
    var weight: Double
    var name: String?
    var city: String?
    var notes: String?
    var created: Date?

    /// The row under `statement`, a SELECT of `RawDatabase.recordSelect`'s columns.
    @inline(__always)
    init(_ statement: OpaquePointer) {
        pk = sqlite3_column_int64(statement, 0)
        entity = sqlite3_column_int64(statement, 1)
        opt = sqlite3_column_int64(statement, 2)
        ident = sqlite3_column_int64(statement, 3)
        quantity = sqlite3_column_int64(statement, 4)
        rank = sqlite3_column_int64(statement, 5)
        flags = sqlite3_column_int64(statement, 6)
        price = sqlite3_column_double(statement, 7)
        weight = sqlite3_column_double(statement, 8)
        name = RawDatabase.string(statement, 9)
        city = RawDatabase.string(statement, 10)
        notes = RawDatabase.string(statement, 11)
        created = RawDatabase.date(statement, 12)
    }

    /// The primary key, then the 10 attributes (what `Bench.hash(_:key:)` hashes).
    var hash: RowHash {
        var row = RowHash()
        row.add(pk)
        row.add(ident)
        row.add(quantity)
        row.add(rank)
        row.add(flags)
        row.add(price)
        row.add(weight)
        row.add(name)
        row.add(city)
        row.add(notes)
        row.add(created)
        return row
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension BenchError {
    /// An error in one line: an `NSError`'s `localizedDescription` (its `description`
    /// would dump the whole userInfo), else the error's own description.
    static func describe(_ error: Error) -> String {
        type(of: error) is NSError.Type ? (error as NSError).localizedDescription : "\(error)"
    }
}
