import Foundation

/// A statement of the shared SQL-store core (``SQLStoreStatement``) on a PostgreSQL
/// connection: the parameters bound are collected, then sent with the SQL in one
/// `PQexecParams` when the statement first steps or runs; its rows are read from that result.
///
/// libpq has no cursor over a result: the whole result arrives at once, and ``row`` is the
/// index of the current row in it.
final class PostgreSQLStoreStatement: SQLStoreStatement {
    let connection: PostgreSQLConnection
    let sql: String
    /// The parameters bound, `$1` first.
    private(set) var parameters: [PostgreSQLValue] = []
    /// The result, once the statement ran.
    private(set) var result: PostgreSQLResult?
    /// The current row of ``result``.
    private(set) var row = -1

    init(connection: PostgreSQLConnection, sql: String) {
        self.connection = connection
        self.sql = sql
    }

    // MARK: - Binding

    private func set(_ index: Int32, _ value: PostgreSQLValue) {
        let i = Int(index) - 1
        if i >= parameters.count {
            parameters += repeatElement(PostgreSQLValue.null, count: i - parameters.count + 1)
        }
        parameters[i] = value
    }

    func bindNull(_ index: Int32) throws { set(index, .null) }
    func bind(_ index: Int32, _ value: Int64) throws { set(index, .integer(value)) }
    func bind(_ index: Int32, _ value: Double) throws { set(index, .real(value)) }

    func bindText(_ index: Int32, _ bytes: UnsafePointer<CChar>?, count: Int) throws {
        let text = bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
        set(index, .text(text))
    }

    func bindBlob(_ index: Int32, _ bytes: UnsafeRawPointer?, count: Int) throws {
        set(index, .bytes(bytes.map { Data(bytes: $0, count: count) } ?? Data()))
    }

    /// Binds a decimal as a `NUMERIC` parameter.
    func bindDecimal(_ index: Int32, _ text: String) throws { set(index, .numeric(text)) }

    func bind(_ bindings: [SQLBinding]) throws {
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .null: set(index, .null)
            case .integer(let v): set(index, .integer(v))
            case .real(let v): set(index, .real(v))
            case .text(let v): set(index, .text(v))
            case .blob(let v): set(index, .bytes(v))
            }
        }
    }

    // MARK: - Running

    func step() throws -> Bool {
        if result == nil {
            result = try connection.execute(sql, parameters)
            row = -1
        }
        row += 1
        return row < result!.rowCount
    }

    @discardableResult
    func execute() throws -> Int {
        defer { reset() }
        return try connection.execute(sql, parameters).affectedRows
    }

    func reset() {
        parameters.removeAll(keepingCapacity: true)
        result = nil
        row = -1
    }

    // MARK: - Columns

    func int64(_ column: Int32) -> Int64 { result?.int64(row, Int(column)) ?? 0 }
    func isNull(_ column: Int32) -> Bool { result?.isNull(row, Int(column)) ?? true }
    func double(_ column: Int32) -> Double { result?.double(row, Int(column)) ?? 0 }
    func string(_ column: Int32) -> String? { result?.string(row, Int(column)) }
    func data(_ column: Int32) -> Data? { result?.data(row, Int(column)) }

    /// The value of `column` by the type PostgreSQL gives the column: integers
    /// as integers, floating-point numbers as reals, `bytea` as data, anything else as text.
    func value(_ column: Int32) -> SQLBinding {
        guard let result, !result.isNull(row, Int(column)) else { return .null }
        switch result.typeOID(Int(column)) {
        case 20, 21, 23: return .integer(result.int64(row, Int(column)) ?? 0)
        case 700, 701: return .real(result.double(row, Int(column)) ?? 0)
        case 17: return .blob(result.data(row, Int(column)) ?? Data())
        default: return .text(result.string(row, Int(column)) ?? "")
        }
    }
}

extension PostgreSQLConnection: SQLStoreConnection {
    /// A new statement of `sql` (libpq sends the SQL with its parameters each time).
    func statement(_ sql: String) throws -> PostgreSQLStoreStatement {
        PostgreSQLStoreStatement(connection: self, sql: sql)
    }
}
