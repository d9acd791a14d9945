import Foundation
internal import CCoreDataSQLite

/// One SQLite value of any storage class, for copying a column's value from one row to
/// another without knowing its type.
enum SQLiteValue {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob(Data)

    /// The value of column `index` of the statement's current row.
    static func read(_ statement: SQLiteStatement, _ index: Int32) -> SQLiteValue {
        switch statement.columnType(index) {
        case SQLITE_INTEGER: return .integer(statement.int64(index))
        case SQLITE_FLOAT: return .double(statement.double(index))
        case SQLITE_TEXT: return .text(statement.string(index) ?? "")
        case SQLITE_BLOB: return .blob(statement.data(index) ?? Data())
        default: return .null
        }
    }

    /// Binds the value to parameter `index` of `statement`.
    func bind(to statement: SQLiteStatement, at index: Int32) throws {
        switch self {
        case .null: try statement.bindNull(index)
        case .integer(let value): try statement.bind(index, value)
        case .double(let value): try statement.bind(index, value)
        case .text(let value): try statement.bind(index, value)
        case .blob(let value): try statement.bind(index, value)
        }
    }
}
