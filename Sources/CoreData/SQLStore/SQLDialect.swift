import Foundation

/// How the shared SQL compiler (``SQLPredicateCompiler``) spells what SQLite and PostgreSQL
/// spell differently. One compiler decides what a predicate means; the dialect only says how
/// the engine writes it, and which of the SQLite store's Swift functions (``SQLiteFunctions``:
/// string folding, pattern operators, localized collations) the engine has. Where it has none,
/// the compiler throws ``StoreFetchUnsupported`` and the context evaluates in memory, so both
/// stores answer every predicate as memory does.
enum SQLDialect {
    case sqlite
    case postgreSQL

    /// The placeholder of the `index`th bound value (1-based): `?1` or `$1`.
    func parameter(_ index: Int) -> String {
        switch self {
        case .sqlite: "?\(index)"
        case .postgreSQL: "$\(index)"
        }
    }

    /// A condition that always holds.
    var alwaysTrue: String {
        switch self {
        case .sqlite: "1"
        case .postgreSQL: "TRUE"
        }
    }

    /// A condition that never holds.
    var alwaysFalse: String {
        switch self {
        case .sqlite: "0"
        case .postgreSQL: "FALSE"
        }
    }

    /// `a` differs from `b`, NULL counting as a value: SQLite's `IS NOT`, SQL's `IS DISTINCT FROM`.
    func isDistinct(_ a: String, _ b: String) -> String {
        switch self {
        case .sqlite: "\(a) IS NOT \(b)"
        case .postgreSQL: "\(a) IS DISTINCT FROM \(b)"
        }
    }

    /// The sum of a column over rows, 0 (never NULL) when there are none.
    func total(_ value: String) -> String {
        switch self {
        case .sqlite: "TOTAL(\(value))"
        case .postgreSQL: "COALESCE(SUM(\(value)), 0)"
        }
    }

    /// The name of the engine's double-precision type, for real division.
    var realType: String {
        switch self {
        case .sqlite: "REAL"
        case .postgreSQL: "DOUBLE PRECISION"
        }
    }

    /// Whether keys are reserved with one `UPDATE … RETURNING` (a round trip saved on
    /// PostgreSQL; SQLite runs the update and the select in-process).
    var reservesKeysWithReturning: Bool { self == .postgreSQL }

    /// Whether the SQLite store's Swift functions and collations (``SQLiteFunctions``) exist.
    var hasCoreDataFunctions: Bool { self == .sqlite }

    /// What ends a SELECT of rows that must not change before the transaction commits:
    /// PostgreSQL's ` FOR SHARE`; nothing on SQLite, whose writer holds the whole database.
    var shareLock: String {
        switch self {
        case .sqlite: ""
        case .postgreSQL: " FOR SHARE"
        }
    }

    /// How a deleted row's preserved value is read into a history tombstone column
    /// (`ZTOMBSTONE<n>` of `ACHANGE`): SQLite's columns take any type, so the value as it is;
    /// PostgreSQL's are `TEXT` (one column holds values of different attributes), so its text
    /// form (`bytea` as `\x` and hex digits).
    func tombstoneValue(_ column: String) -> String {
        switch self {
        case .sqlite: column
        case .postgreSQL: "CAST(\(column) AS TEXT)"
        }
    }

    /// An INSERT of one row that does nothing when a row with the same key exists.
    func insertIgnoringDuplicates(into table: String, columns: [String], values: [String]) -> String {
        let list = "\(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        switch self {
        case .sqlite: return "INSERT OR IGNORE INTO " + list
        case .postgreSQL: return "INSERT INTO " + list + " ON CONFLICT DO NOTHING"
        }
    }

    /// An INSERT of a SELECT's rows that skips each row whose key is already there.
    func insertSelectIgnoringDuplicates(into table: String, columns: [String], select: String) -> String {
        let list = "\(table) (\(columns.joined(separator: ", "))) \(select)"
        switch self {
        case .sqlite: return "INSERT OR IGNORE INTO " + list
        case .postgreSQL: return "INSERT INTO " + list + " ON CONFLICT DO NOTHING"
        }
    }

    /// Whether an `UPDATE` can say which rows it changed (`RETURNING`), which a batch update
    /// uses where other processes write between statements (PostgreSQL at READ COMMITTED).
    var updatesReturningRows: Bool { self == .postgreSQL }

    /// A number as an integer column stores it, its fraction dropped (toward zero, as
    /// SQLite's `CAST … AS INTEGER` does; PostgreSQL's integer cast would round).
    func integerTruncating(_ value: String) -> String {
        switch self {
        case .sqlite: "CAST((\(value)) AS INTEGER)"
        case .postgreSQL: "CAST(TRUNC(CAST((\(value)) AS NUMERIC)) AS BIGINT)"
        }
    }

    /// A number as a Boolean column stores it: 1 unless it is 0, NULL for NULL.
    func nonZero(_ value: String) -> String {
        switch self {
        case .sqlite: "((\(value)) != 0)"
        case .postgreSQL: "CAST(((\(value)) <> 0) AS INTEGER)"
        }
    }

    /// The code a refused batch delete carries under `NSSQLiteErrorDomain`:
    /// `SQLITE_CONSTRAINT_TRIGGER` (1811) on SQLite, whose delete rules Apple's store runs as
    /// triggers; none on PostgreSQL.
    var deleteRuleTriggerCode: Int? { self == .sqlite ? 1811 : nil }
}
