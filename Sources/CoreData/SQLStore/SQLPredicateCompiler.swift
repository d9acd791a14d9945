import Foundation

/// Compiles a fetch's predicate (and sort key paths) to SQL over Core Data's SQLite
/// layout: one statement, values bound as numbered parameters (never spliced), `LEFT JOIN`s
/// for to-one key paths, correlated `EXISTS` / `COUNT` subqueries for to-many key paths,
/// quantifiers, collection operators and `SUBQUERY`, and the functions of
/// ``SQLiteFunctions`` where SQLite's operators mean something else than Apple's.
///
/// The SQL must select exactly what ``PredicateEvaluator`` selects
/// (<doc:PredicateLanguage#Semantics>):
/// - NULL: SQL's three-valued logic is harmless under AND/OR (NULL and false are both "no
///   row"), so only `NOT` needs care: its operand is wrapped in `COALESCE(…, 0)`. `!=` is
///   `IS NOT`, so `nil != 'v'` holds as in memory.
/// - Types: comparisons are typed at compile time from the model (attribute types) and the
///   constants; `==` between different kinds is false and `!=` true (no string↔number
///   coercion), dates are seconds since 2001, UUIDs 16-byte blobs, booleans 0/1, objects
///   their `Z_PK`.
/// - Anything whose SQL meaning could differ from memory (ordering a string against a
///   number, which Foundation refuses at run time; arbitrary functions; unbound
///   variables) throws ``StoreFetchUnsupported``, and the context evaluates in memory.
/// - Errors that are errors in both back ends (an unknown key, a to-many key path used as
///   one value) throw the evaluator's `NSError`.
///
/// - Note: Apple parity: Apple's SQLite store leaves NULL rows out of `!=`; we answer as memory
///   does (<doc:PredicateLanguage#Nil-and-NSNull>). Plain `==` on strings compares UTF-8 bytes, so
///   precomposed and decomposed spellings of one text differ (memory's `==` treats them as equal);
///   `[c]`/`[d]` comparisons fold both sides and agree.
final class SQLPredicateCompiler {
    let schema: SQLiteSchema
    /// The store being queried: object constants of other stores match nothing.
    let backend: StoreBackend
    /// How the store's engine spells the SQL.
    let dialect: SQLDialect
    private(set) var bindings: [SQLBinding] = []
    private var aliasCount = 0
    /// The outermost scope: the fetched entity's table as `t0`.
    let root: Scope

    /// A table in a FROM clause whose rows key paths start from: the fetched entity's
    /// table, or the members of a to-many relationship inside a subquery.
    final class Scope {
        let alias: String
        let entity: NSEntityDescription
        /// `$variable` of the SUBQUERY whose members this scope is, if any.
        let variable: String?
        let parent: Scope?
        /// `LEFT JOIN`s for to-one key paths, in the order they were needed.
        var joins: [String] = []
        var joinAliases: [String: String] = [:]

        init(alias: String, entity: NSEntityDescription, variable: String?, parent: Scope?) {
            self.alias = alias
            self.entity = entity
            self.variable = variable
            self.parent = parent
        }
    }

    init(schema: SQLiteSchema, entity: NSEntityDescription, backend: StoreBackend, dialect: SQLDialect = .sqlite) {
        self.schema = schema
        self.backend = backend
        self.dialect = dialect
        root = Scope(alias: "t0", entity: entity, variable: nil, parent: nil)
    }

    // MARK: - Entry points

    /// The SQL condition for `predicate` on the root scope.
    func condition(_ predicate: NSPredicate) throws -> String {
        let sql = try compile(predicate, root)
        // SQLite allows 32766 parameters; huge IN lists are filtered in memory instead.
        if bindings.count > 30_000 { throw StoreFetchUnsupported() }
        return sql
    }

    /// The FROM clause: the root table as `t0` and every join the compiled SQL needs.
    func fromClause(table: String) -> String {
        ([table + " t0"] + root.joins).joined(separator: " ")
    }

    /// A numbered parameter for `value`.
    func parameter(_ value: SQLBinding) -> String {
        bindings.append(value)
        return dialect.parameter(bindings.count)
    }

    func newAlias(_ prefix: String) -> String {
        aliasCount += 1
        return prefix + String(aliasCount)
    }

    // MARK: - Predicates

    func compile(_ predicate: NSPredicate, _ scope: Scope) throws -> String {
        if let comparison = predicate as? NSComparisonPredicate {
            return try compile(comparison, scope)
        }
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.subpredicates.map { try compile($0, scope) }
            switch compound.compoundPredicateType {
            case .and: return parts.isEmpty ? yes : "(" + parts.joined(separator: " AND ") + ")"
            case .or: return parts.isEmpty ? no : "(" + parts.joined(separator: " OR ") + ")"
            case .not:
                guard let part = parts.first else { return yes }
                return not(part)
            }
        }
        if predicate.isEqual(NSPredicate(value: true)) { return yes }
        if predicate.isEqual(NSPredicate(value: false)) { return no }
        throw StoreFetchUnsupported() // block predicates run in memory only
    }

    /// Two-valued negation: a NULL operand (an unknown comparison) counts as false first.
    func not(_ sql: String) -> String {
        "NOT COALESCE(\(sql), \(no))"
    }

    /// The dialect's condition that always holds.
    var yes: String { dialect.alwaysTrue }
    /// The dialect's condition that never holds.
    var no: String { dialect.alwaysFalse }

    // MARK: - Errors

    static func toManyError(_ path: String) -> NSError {
        PredicateEvaluator.toMany(path).nsError
    }

    static func unknownKeyError(_ key: String, _ entity: NSEntityDescription) -> NSError {
        PredicateEvaluationError.unknownKey(key, entityName: entity.name).nsError
    }
}

/// A value bound to a numbered SQL parameter, encoded as the store encodes it.
enum SQLBinding {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}
