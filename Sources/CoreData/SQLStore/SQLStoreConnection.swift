import Foundation

/// What the shared SQL-store core (``SQLStoreCore``) needs of an engine's connection: a
/// statement for a piece of SQL, to bind, step through and run.
///
/// The SQLite store's ``SQLiteConnection`` answers with a statement prepared once and cached
/// by its SQL; the PostgreSQL store's ``PostgreSQLConnection`` with a statement that collects
/// its parameters and sends them with the SQL when it first runs (libpq's `PQexecParams`).
/// The SQL is written in the store's ``SQLDialect`` (`?1` or `$1` placeholders).
///
/// Failures are thrown as the engine reports them (``SQLiteError``, ``PostgreSQLError``: its
/// code, message and SQL); each store turns them into Core Data's errors, as only it knows
/// which of its engine's codes mean a timeout, a lost connection or a broken constraint.
///
/// ## Topics
/// - ``statement(_:)``
protocol SQLStoreConnection: AnyObject {
    associatedtype Statement: SQLStoreStatement
    /// A statement of `sql`, with no parameter bound and no row read yet.
    func statement(_ sql: String) throws -> Statement
}

/// One statement of a ``SQLStoreConnection``: parameters bound by 1-based index, rows read by
/// 0-based column, as SQLite's C API and libpq number them.
///
/// ## Topics
/// ### Binding
/// - ``bindNull(_:)``
/// - ``bindText(_:_:count:)``
/// - ``bindBlob(_:_:count:)``
/// - ``bindDecimal(_:_:)``
/// ### Running
/// - ``step()``
/// - ``execute()``
/// - ``reset()``
/// ### Columns
/// - ``int64(_:)``
/// - ``isNull(_:)``
/// - ``double(_:)``
/// - ``string(_:)``
/// - ``data(_:)``
/// - ``value(_:)``
protocol SQLStoreStatement: AnyObject {
    func bindNull(_ index: Int32) throws
    func bind(_ index: Int32, _ value: Int64) throws
    func bind(_ index: Int32, _ value: Double) throws
    /// Binds `count` bytes of UTF-8 text.
    func bindText(_ index: Int32, _ bytes: UnsafePointer<CChar>?, count: Int) throws
    /// Binds `count` bytes of binary data.
    func bindBlob(_ index: Int32, _ bytes: UnsafeRawPointer?, count: Int) throws
    /// Binds a decimal number, given as its decimal text (`10.11`), as the engine stores
    /// decimals: SQLite as REAL (Apple's format), PostgreSQL as `NUMERIC`.
    func bindDecimal(_ index: Int32, _ text: String) throws
    /// Binds the values a predicate compiler collected (``SQLPredicateCompiler/bindings``),
    /// from parameter 1 on.
    func bind(_ bindings: [SQLBinding]) throws

    /// Advances to the next row of the result (the first call runs the statement): true when
    /// a row is there to read.
    func step() throws -> Bool
    /// Runs a statement that returns no rows, then resets it; returns how many rows it
    /// inserted, changed or deleted.
    @discardableResult
    func execute() throws -> Int
    /// Forgets the bound parameters and the rows read, ready to run again.
    func reset()

    /// The integer in `column` of the current row (0 for NULL).
    func int64(_ column: Int32) -> Int64
    /// Whether `column` of the current row is NULL.
    func isNull(_ column: Int32) -> Bool
    /// The real number in `column` of the current row (0 for NULL).
    func double(_ column: Int32) -> Double
    /// The text in `column` of the current row; nil for NULL.
    func string(_ column: Int32) -> String?
    /// The binary data in `column` of the current row; nil for NULL.
    func data(_ column: Int32) -> Data?
    /// The value in `column` of the current row, of the type the engine reports for it.
    func value(_ column: Int32) -> SQLBinding
}
