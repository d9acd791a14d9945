import Foundation
internal import CCoreDataSQLite

/// A failure reported by SQLite: its result codes, its message and the statement that
/// failed. Bound values are never part of the description.
struct SQLiteError: Error, CustomStringConvertible, LocalizedError {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...).
    let resultCode: Int32
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, ...), or the primary one.
    let extendedResultCode: Int32
    let message: String
    let sql: String?

    init(resultCode: Int32, extendedResultCode: Int32? = nil, message: String? = nil, sql: String? = nil) {
        self.resultCode = resultCode & 0xFF
        self.extendedResultCode = extendedResultCode ?? resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode))
        self.sql = sql
    }

    /// The error of the last failed call on `connection`.
    init(connection: OpaquePointer?, resultCode: Int32, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? resultCode
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        self.init(resultCode: resultCode, extendedResultCode: extended, message: message, sql: sql)
    }

    var description: String {
        var text = "SQLite error \(resultCode)"
        if extendedResultCode != resultCode { text += " (extended \(extendedResultCode))" }
        text += ": \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }

    /// SQLite's message, without codes or SQL: what `localizedDescription` shows.
    var errorDescription: String? { message }

    var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    var isCorrupt: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }

    /// The error as Core Data reports it under `NSUnderlyingErrorKey`: domain
    /// `NSSQLiteErrorDomain`, code = the SQLite result code.
    var nsError: NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let sql { info["NSSQLiteSQLStatement"] = sql }
        if extendedResultCode != resultCode { info["NSSQLiteExtendedResultCode"] = Int(extendedResultCode) }
        return NSError(domain: NSSQLiteErrorDomain, code: Int(resultCode), userInfo: info)
    }
}
