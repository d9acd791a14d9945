import Foundation
internal import CCoreDataSQLite

/// The SQL functions and collations that give compiled predicates and sorts Apple's meaning where
/// SQLite's own operators differ (<doc:PredicateLanguage#String-options>,
/// <doc:PredicateLanguage#Pattern-operators>).
///
/// Each one calls the very code the in-memory evaluator uses (``PredicateStringFolding``,
/// ``KeyedSortDescriptor/compareValues(_:_:selector:)``), so the two back ends agree by
/// construction rather than by imitation:
///
/// | SQL | meaning |
/// |---|---|
/// | `cd_fold(text, flags)` | `[c]`/`[d]` folding (flags are `NSComparisonPredicate.Options`) |
/// | `cd_beginswith(s, p, flags)`, `cd_endswith`, `cd_contains` | substring tests, `''` never matches |
/// | `cd_like(s, p, flags)` | anchored LIKE with only `*` and `?` |
/// | `cd_matches(s, p, flags)` | anchored ICU regular expression (`NSRegularExpression`) |
/// | `COLLATE CD_LOCALIZED`, `CD_LOCALIZED_CI`, `CD_LOCALIZED_STANDARD` | `localizedCompare:` and friends |
///
/// The substring functions answer 0 (not NULL) when an operand is NULL: every string
/// operator is false on nil.
enum SQLiteFunctions {
    static let collations: [SortKey.Comparison: String] = [
        .localized: "CD_LOCALIZED",
        .localizedCaseInsensitive: "CD_LOCALIZED_CI",
        .localizedStandard: "CD_LOCALIZED_STANDARD",
    ]

    /// Registers every function and collation on `connection`.
    static func register(on connection: SQLiteConnection) throws {
        let db = connection.handle
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        func check(_ rc: Int32, _ name: String) throws {
            guard rc == SQLITE_OK else {
                throw SQLiteError(connection: db, resultCode: rc, sql: "register \(name)")
            }
        }
        try check(sqlite3_create_function_v2(db, "cd_fold", 2, flags, nil, foldFunction, nil, nil, nil), "cd_fold")
        for (name, function) in [("cd_beginswith", beginsWithFunction), ("cd_endswith", endsWithFunction),
                                 ("cd_contains", containsFunction), ("cd_like", likeFunction),
                                 ("cd_matches", matchesFunction)] {
            try check(sqlite3_create_function_v2(db, name, 3, flags, nil, function, nil, nil, nil), name)
        }
        for (name, function) in [("CD_LOCALIZED", localizedCollation),
                                 ("CD_LOCALIZED_CI", localizedCaseInsensitiveCollation),
                                 ("CD_LOCALIZED_STANDARD", localizedStandardCollation)] {
            try check(sqlite3_create_collation_v2(db, name, SQLITE_UTF8, nil, function, nil), name)
        }
    }

    // MARK: - Reading arguments

    typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void
    typealias Collation = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32

    /// Argument `i` as a string, or nil when it is NULL.
    static func text(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> String? {
        guard let value = argv?[i], sqlite3_value_type(value) != SQLITE_NULL,
              let bytes = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    static func options(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> NSComparisonPredicate.Options {
        guard let value = argv?[i] else { return [] }
        return NSComparisonPredicate.Options(rawValue: UInt(max(0, sqlite3_value_int64(value))))
    }

    /// A three-argument string test: 0 when either string is NULL.
    static func test(
        _ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?,
        _ body: (String, String, NSComparisonPredicate.Options) throws -> Bool
    ) {
        guard let string = text(argv, 0), let pattern = text(argv, 1) else {
            sqlite3_result_int(context, 0)
            return
        }
        do {
            sqlite3_result_int(context, try body(string, pattern, options(argv, 2)) ? 1 : 0)
        } catch {
            sqlite3_result_error(context, "\(error)", -1)
        }
    }

    // MARK: - Functions

    static let foldFunction: Function = { context, _, argv in
        guard let string = text(argv, 0) else { sqlite3_result_null(context); return }
        let folded = PredicateStringFolding.fold(string, options(argv, 1))
        sqlite3_result_text(context, folded, -1, cdsqlite_transient())
    }

    static let beginsWithFunction: Function = { context, _, argv in
        test(context, argv, PredicateStringFolding.beginsWith)
    }

    static let endsWithFunction: Function = { context, _, argv in
        test(context, argv, PredicateStringFolding.endsWith)
    }

    static let containsFunction: Function = { context, _, argv in
        test(context, argv, PredicateStringFolding.contains)
    }

    static let likeFunction: Function = { context, _, argv in
        test(context, argv, PredicateStringFolding.like)
    }

    static let matchesFunction: Function = { context, _, argv in
        test(context, argv) { try PredicateStringFolding.matches($0, $1, $2) }
    }

    // MARK: - Collations

    static func collate(
        _ selector: String, _ leftCount: Int32, _ left: UnsafeRawPointer?,
        _ rightCount: Int32, _ right: UnsafeRawPointer?
    ) -> Int32 {
        func string(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
            guard let bytes, count > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
        }
        switch KeyedSortDescriptor.compareValues(
            string(left, leftCount), string(right, rightCount), selector: selector) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

    static let localizedCollation: Collation = { _, n1, s1, n2, s2 in
        collate("localizedCompare:", n1, s1, n2, s2)
    }

    static let localizedCaseInsensitiveCollation: Collation = { _, n1, s1, n2, s2 in
        collate("localizedCaseInsensitiveCompare:", n1, s1, n2, s2)
    }

    static let localizedStandardCollation: Collation = { _, n1, s1, n2, s2 in
        collate("localizedStandardCompare:", n1, s1, n2, s2)
    }
}
