import Foundation
import Testing
import CCoreDataSQLite

/// Direct sqlite3 access to a file, independent of the code under test.
public final class RawDatabase {
    let db: OpaquePointer

    public init(_ url: URL, readOnly: Bool = true) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        guard sqlite3_open_v2(url.path, &handle, flags, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawError(message: "cannot open \(url.path)")
        }
        db = handle
    }

    deinit { sqlite3_close_v2(db) }

    public struct RawError: Error {
        public let message: String
    }

    /// Every row of a query; each value as Int64, Double, String, Data or nil.
    public func rows(_ sql: String) throws -> [[Any?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)) + " in " + sql)
        }
        defer { sqlite3_finalize(statement) }
        var result: [[Any?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            var row: [Any?] = []
            for i in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, i) {
                case SQLITE_INTEGER: row.append(sqlite3_column_int64(statement, i))
                case SQLITE_FLOAT: row.append(sqlite3_column_double(statement, i))
                case SQLITE_TEXT: row.append(String(cString: sqlite3_column_text(statement, i)))
                case SQLITE_BLOB:
                    let n = Int(sqlite3_column_bytes(statement, i))
                    row.append(n == 0 ? Data() : Data(bytes: sqlite3_column_blob(statement, i), count: n))
                default: row.append(nil)
                }
            }
            result.append(row)
        }
        return result
    }

    public func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)))
        }
    }

    public func scalar(_ sql: String) throws -> Any? { try rows(sql).first?.first ?? nil }

    /// Column name → declared type.
    public func columns(_ table: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try rows("PRAGMA table_info(\(table))") { result[row[1] as! String] = row[2] as? String }
        return result
    }

    public func tables() throws -> Set<String> {
        Set(try rows("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0[0] as! String })
    }

    /// Index name → (unique, columns).
    public func indexes() throws -> [String: (unique: Bool, columns: [String])] {
        var result: [String: (Bool, [String])] = [:]
        for table in try tables() {
            for row in try rows("PRAGMA index_list(\(table))") {
                let name = row[1] as! String
                if name.hasPrefix("sqlite_autoindex") { continue }
                let columns = try rows("PRAGMA index_info(\(name))").map { $0[2] as! String }
                result[name] = ((row[2] as! Int64) != 0, columns)
            }
        }
        return result
    }

    public func metadataPlist() throws -> [String: Any] {
        let data = try #require(try scalar("SELECT Z_PLIST FROM Z_METADATA") as? Data)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }
}

/// The bytes of a store's files, to prove a failure wrote nothing.
public func fileBytes(_ url: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    for suffix in ["", "-wal", "-journal"] {
        if let data = FileManager.default.contents(atPath: url.path + suffix) { result[suffix] = data }
    }
    return result
}
