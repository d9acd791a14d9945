import Foundation

/// A failure reported by libpq or the PostgreSQL server: the server's SQLSTATE (nil when the
/// connection itself failed), its message and the statement that failed. Bound values are never
/// part of the description.
struct PostgreSQLError: Error, CustomStringConvertible, LocalizedError {
    /// The five-character SQLSTATE (`40001`, `23505`, ...), or nil for a client-side failure.
    let sqlState: String?
    let message: String
    let sql: String?

    var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }

    /// The server's message, without codes or SQL: what `localizedDescription` shows.
    var errorDescription: String? { message }

    /// The connection broke (class 08, or no SQLSTATE at all: libpq lost the server, or a
    /// backend was terminated: 57P01..57P03).
    var isConnectionFailure: Bool {
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }

    /// A serialization failure or deadlock: the transaction may succeed when run again.
    var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// A unique index refused a row.
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// The error as a store reports it under `NSUnderlyingErrorKey`: domain
    /// ``PostgreSQLError/domain``, the SQLSTATE under `"PostgreSQLState"`.
    var nsError: NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let sql { info["PostgreSQLStatement"] = sql }
        if let sqlState { info["PostgreSQLState"] = sqlState }
        return NSError(domain: Self.domain, code: 1, userInfo: info)
    }

    /// The error domain of ``nsError``.
    static let domain = "PostgreSQLErrorDomain"
}
