import Foundation
internal import CCoreDataSQLite

// MARK: - SQLite as the shared SQL-store core's engine

extension SQLiteConnection: SQLStoreConnection {
    /// The statement of `sql`, prepared once per connection and cached by its SQL.
    func statement(_ sql: String) throws -> SQLiteStatement {
        try cached(sql)
    }
}

extension SQLiteStatement: SQLStoreStatement {
    /// Runs the statement to its end, resets it, and returns `sqlite3_changes()`.
    @discardableResult
    func execute() throws -> Int {
        try run()
        return Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// The value of `column` in its storage class.
    func value(_ column: Int32) -> SQLBinding {
        switch SQLiteValue.read(self, column) {
        case .null: .null
        case .integer(let number): .integer(number)
        case .double(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }

    /// Binds a decimal as Core Data's SQLite stores keep it: a REAL
    /// (<doc:StoreFormat#Attribute-columns>); text that is no number stays text.
    func bindDecimal(_ index: Int32, _ text: String) throws {
        if let number = Double(text) {
            try bind(index, number)
        } else {
            try bind(index, text)
        }
    }

    /// Binds `bindings` to parameters `?1`, `?2`, … Values the SQL does not use (the
    /// compiler bound a constant, then decided the comparison without it) are skipped.
    func bind(_ bindings: [SQLBinding]) throws {
        let count = parameterCount
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            guard index <= count else { break }
            switch binding {
            case .null: try bindNull(index)
            case .integer(let value): try bind(index, value)
            case .real(let value): try bind(index, value)
            case .text(let value): try bind(index, value)
            case .blob(let value): try bind(index, value)
            }
        }
    }
}
