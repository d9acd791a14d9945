import Foundation

// MARK: - Comparisons

extension SQLPredicateCompiler {
    typealias Options = NSComparisonPredicate.Options

    func compile(_ p: NSComparisonPredicate, _ scope: Scope) throws -> String {
        let op = p.predicateOperatorType
        if op == .customSelector { throw StoreFetchUnsupported() }
        let lhs = try term(p.leftExpression, scope)
        let rhs = try term(p.rightExpression, scope)

        switch p.comparisonPredicateModifier {
        case .any, .all:
            guard case .toMany(let many) = lhs else { throw StoreFetchUnsupported() }
            if case .toMany = rhs { throw StoreFetchUnsupported() }
            if p.comparisonPredicateModifier == .any {
                return try someMember(of: many) { try compare(p, $0, rhs) }
            }
            return "NOT " + (try someMember(of: many) { not(try compare(p, $0, rhs)) })
        case .direct:
            switch (lhs, rhs) {
            case (.toMany(let many), _) where op == .contains:
                return try membership(of: rhs, in: many, p)
            case (_, .toMany(let many)) where op == .in:
                return try membership(of: lhs, in: many, p)
            case (.toMany, .toMany) where op == .equalTo || op == .notEqualTo,
                 (_, .toMany) where op == .between:
                throw StoreFetchUnsupported()
            case (.toMany(let many), _), (_, .toMany(let many)):
                throw Self.toManyError(many.path)
            default:
                return try compare(p, lhs, rhs)
            }
        }
    }

    /// `to-many CONTAINS x` / `x IN to-many`: some member equals `x`.
    private func membership(of needle: Term, in many: ToMany, _ p: NSComparisonPredicate) throws -> String {
        if case .constant(let value) = needle, PredicateValue.isNull(value) { return no }
        return try someMember(of: many) { try equality($0, needle, p.options, negated: false) }
    }

    /// `EXISTS (…)`: some element of the to-many key path passes `test`. A second to-many
    /// step nests another `EXISTS`, which selects what memory's flattened collection does
    /// (`clubs.members.name` is every member's name of every club).
    private func someMember(of many: ToMany, _ test: (Term) throws -> String) throws -> String {
        let group = try members(many, variable: nil)
        let element = try keyPath(many.rest, from: group.scope, path: many.path)
        let condition: String
        if case .toMany(let inner) = element {
            condition = try someMember(of: inner, test)
        } else {
            condition = try test(element)
        }
        return "EXISTS" + memberQuery("1", group, where: condition)
    }

    // MARK: - One value against one value

    func compare(_ p: NSComparisonPredicate, _ lhs: Term, _ rhs: Term) throws -> String {
        let op = p.predicateOperatorType
        let options = p.options
        if case .constant(let a) = lhs, case .constant(let b) = rhs {
            do {
                return try PredicateEvaluator(bindings: PredicateBindings([:])).apply(p, a, b) ? yes : no
            } catch {
                throw StoreFetchUnsupported()
            }
        }
        let leftNull = Self.isNullConstant(lhs), rightNull = Self.isNullConstant(rhs)
        switch op {
        case .equalTo, .notEqualTo:
            return try equality(lhs, rhs, options, negated: op == .notEqualTo)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if leftNull || rightNull { return no }
            let symbol = [.lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">",
                          .greaterThanOrEqualTo: ">="][op]!
            guard let (a, b) = try ordered(lhs, rhs, options) else { throw StoreFetchUnsupported() }
            return "\(a) \(symbol) \(b)"
        case .beginsWith, .endsWith, .like, .matches:
            if leftNull || rightNull { return no }
            guard kind(of: lhs) == .string, kind(of: rhs) == .string, dialect.hasCoreDataFunctions else {
                throw StoreFetchUnsupported()
            }
            if op == .matches {
                // The pattern must be a valid constant: memory reports a bad one per row.
                guard case .constant(let pattern as String) = rhs,
                      (try? PredicateRegexCache.shared.regex(
                          pattern, caseInsensitive: options.contains(.caseInsensitive))) != nil
                else { throw StoreFetchUnsupported() }
            }
            let function = [.beginsWith: "cd_beginswith", .endsWith: "cd_endswith",
                            .like: "cd_like", .matches: "cd_matches"][op]!
            return "\(function)(\(raw(lhs)), \(raw(rhs)), \(options.rawValue))"
        case .contains, .in:
            let (haystack, needle) = op == .contains ? (lhs, rhs) : (rhs, lhs)
            if Self.isNullConstant(haystack) || Self.isNullConstant(needle) { return no }
            if case .constant(let value) = haystack {
                if let elements = PredicateValue.collectionElements(value) {
                    return try list(needle, elements, options)
                }
                if op == .in, let dictionary = PredicateValue.dictionaryValue(value) {
                    return try list(needle, Array(dictionary.values), options)
                }
            }
            guard kind(of: haystack) == .string, kind(of: needle) == .string, dialect.hasCoreDataFunctions else {
                throw StoreFetchUnsupported()
            }
            return "cd_contains(\(raw(haystack)), \(raw(needle)), \(options.rawValue))"
        case .between:
            if leftNull { return no }
            guard case .constant(let value) = rhs, let bounds = PredicateValue.collectionElements(value),
                  bounds.count == 2 else { throw StoreFetchUnsupported() }
            if bounds.contains(where: PredicateValue.isNull) { return no }
            guard let (a, low) = try ordered(lhs, .constant(bounds[0]), options),
                  let (_, high) = try ordered(lhs, .constant(bounds[1]), options) else {
                throw StoreFetchUnsupported()
            }
            return "(\(a) >= \(low) AND \(a) <= \(high))"
        case .customSelector:
            throw StoreFetchUnsupported()
        }
    }

    // MARK: - Equality and membership

    /// `==` (`=`, or `IS NULL`) and `!=` (`IS NOT`): values of different kinds are never
    /// equal; strings fold as the options say.
    func equality(_ lhs: Term, _ rhs: Term, _ options: Options, negated: Bool) throws -> String {
        if Self.isNullConstant(lhs) || Self.isNullConstant(rhs) {
            let other = Self.isNullConstant(lhs) ? rhs : lhs
            if case .constant = other { return negated ? no : yes }
            guard case .scalar(let sql, _) = other else { throw StoreFetchUnsupported() }
            return negated ? "\(sql) IS NOT NULL" : "\(sql) IS NULL"
        }
        let leftKind = kind(of: lhs), rightKind = kind(of: rhs)
        if leftKind == .other || rightKind == .other { throw StoreFetchUnsupported() }
        guard let leftKind, leftKind == rightKind else {
            // Collections against values, numbers against strings…: never equal.
            if leftKind == nil || rightKind == nil { throw StoreFetchUnsupported() }
            return negated ? yes : no
        }
        guard let a = try value(lhs, leftKind, options), let b = try value(rhs, leftKind, options) else {
            return negated ? yes : no // an object of another store or not yet saved
        }
        return negated ? dialect.isDistinct(a, b) : "\(a) = \(b)"
    }

    /// `needle IN (…)` over the constant `elements` of the needle's kind.
    private func list(_ needle: Term, _ elements: [Any?], _ options: Options) throws -> String {
        guard let needleKind = kind(of: needle), needleKind != .other else { throw StoreFetchUnsupported() }
        if case .constant = needle { throw StoreFetchUnsupported() }
        var items: [String] = []
        for element in elements where !PredicateValue.isNull(element) {
            let constant = Term.constant(element)
            guard kind(of: constant) == needleKind,
                  let sql = try value(constant, needleKind, options) else { continue }
            items.append(sql)
        }
        guard !items.isEmpty, let sql = try value(needle, needleKind, options) else { return no }
        return "\(sql) IN (\(items.joined(separator: ", ")))"
    }

    /// Both sides of an ordering comparison, or nil when memory would refuse to order them.
    private func ordered(_ lhs: Term, _ rhs: Term, _ options: Options) throws -> (String, String)? {
        guard let k = kind(of: lhs), k == kind(of: rhs), k == .number || k == .date || k == .string,
              let a = try value(lhs, k, options), let b = try value(rhs, k, options) else { return nil }
        return (a, b)
    }

    // MARK: - Operand SQL

    /// The SQL of an operand for comparing as `kind`: constants become parameters (encoded
    /// as the store encodes them), strings fold for `[c]`/`[d]`. Nil for an object that
    /// no row of this store can be.
    private func value(_ term: Term, _ kind: Kind, _ options: Options) throws -> String? {
        let folding = kind == .string && Self.folds(options)
        switch term {
        case .scalar(let sql, _):
            if folding && !dialect.hasCoreDataFunctions { throw StoreFetchUnsupported() }
            return folding ? "cd_fold(\(sql), \(options.rawValue))" : sql
        case .toMany:
            throw StoreFetchUnsupported()
        case .constant(let raw):
            switch PredicateValue.classify(raw) {
            case .number(let n): return parameter(Self.binding(n))
            case .string(let s):
                return parameter(.text(folding ? PredicateStringFolding.fold(s, options) : s))
            case .date(let d): return parameter(.real(d.timeIntervalSinceReferenceDate))
            case .other(let object):
                if let uuid = object as? UUID {
                    return parameter(.blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }))
                }
                if let data = object as? Data { return parameter(.blob(data)) }
                if let url = object as? URL { return parameter(.text(url.absoluteString)) }
                if let object = object as? StoredObjectReference {
                    guard let key = object.storeKey(in: backend) else { return nil }
                    return parameter(.integer(key.pk))
                }
                throw StoreFetchUnsupported()
            default:
                throw StoreFetchUnsupported()
            }
        }
    }

    /// A compiled operand as a plain SQL value, for the string functions (which fold
    /// themselves).
    private func raw(_ term: Term) -> String {
        switch term {
        case .scalar(let sql, _): return sql
        case .constant(let value):
            if case .string(let s) = PredicateValue.classify(value) { return parameter(.text(s)) }
            return parameter(.null)
        case .toMany: return "NULL"
        }
    }

    /// The kind of an operand; nil for a constant collection or dictionary.
    func kind(of term: Term) -> Kind? {
        switch term {
        case .scalar(_, let kind): return kind
        case .toMany: return nil
        case .constant(let value):
            switch PredicateValue.classify(value) {
            case .null, .collection, .dictionary: return nil
            case .number: return .number
            case .string: return .string
            case .date: return .date
            case .other(let object):
                if object is UUID { return .uuid }
                if object is Data { return .data }
                if object is URL { return .uri }
                if let object = object as? StoredObjectReference {
                    return .object(ObjectIdentifier(object.rootEntity))
                }
                return .other
            }
        }
    }

    static func isNullConstant(_ term: Term) -> Bool {
        if case .constant(let value) = term { return PredicateValue.isNull(value) }
        return false
    }

    /// Whether `[c]`/`[d]` change the strings (`[n]` says they are folded already).
    static func folds(_ options: Options) -> Bool {
        !options.contains(.normalized)
            && (options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive))
    }
}
