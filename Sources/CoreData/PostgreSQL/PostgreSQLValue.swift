import Foundation

/// A statement parameter, sent with its PostgreSQL type (so the server never guesses).
enum PostgreSQLValue {
    case null
    /// `int8`.
    case integer(Int64)
    /// `float8`.
    case real(Double)
    /// `text`.
    case text(String)
    /// `bytea`, sent in binary.
    case bytes(Data)
    /// `numeric`, as its decimal text.
    case numeric(String)
}
