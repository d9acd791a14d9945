import Foundation

/// Structural equality and hashing of predicate and expression trees, behind `isEqual`
/// and `hash` of ``NSComparisonPredicate``, ``NSExpression`` and the parser's compound
/// predicates. Two trees are equal when they have the same shape, operators, options,
/// key paths and equal constants (numbers by value, so `1` equals `1.0` and `YES`).
enum PredicateStructure {

    // MARK: - Predicates

    static func equal(_ a: NSPredicate, _ b: NSPredicate) -> Bool {
        if a === b { return true }
        if let x = a as? NSComparisonPredicate, let y = b as? NSComparisonPredicate {
            return x.predicateOperatorType == y.predicateOperatorType
                && x.comparisonPredicateModifier == y.comparisonPredicateModifier
                && x.options == y.options
                && x.customSelector == y.customSelector
                && equal(x.leftExpression, y.leftExpression)
                && equal(x.rightExpression, y.rightExpression)
        }
        if let x = a as? NSCompoundPredicate, let y = b as? NSCompoundPredicate {
            return x.compoundPredicateType == y.compoundPredicateType
                && x.subpredicates.count == y.subpredicates.count
                && zip(x.subpredicates, y.subpredicates).allSatisfy { equal($0, $1) }
        }
        if a is NSComparisonPredicate || b is NSComparisonPredicate
            || a is NSCompoundPredicate || b is NSCompoundPredicate
        {
            return false
        }
        // Foundation's constant and block predicates: its own isEqual is right for them.
        return a.isEqual(b)
    }

    static func hash(_ predicate: NSPredicate) -> Int {
        var hasher = Hasher()
        if let p = predicate as? NSComparisonPredicate {
            hasher.combine(p.predicateOperatorType.rawValue)
            hasher.combine(p.comparisonPredicateModifier.rawValue)
            hasher.combine(hash(p.leftExpression))
            hasher.combine(hash(p.rightExpression))
        } else if let p = predicate as? NSCompoundPredicate {
            hasher.combine(p.compoundPredicateType.rawValue)
            for sub in p.subpredicates { hasher.combine(hash(sub)) }
        } else {
            hasher.combine(predicate.evaluate(with: nil))
        }
        return hasher.finalize()
    }

    // MARK: - Expressions

    static func equal(_ a: NSExpression, _ b: NSExpression) -> Bool {
        if a === b { return true }
        switch (a.kind, b.kind) {
        case let (.constant(x), .constant(y)): return constantsEqual(x, y)
        case (.evaluatedObject, .evaluatedObject), (.anyKey, .anyKey): return true
        case let (.variable(x), .variable(y)): return x == y
        case let (.keyPath(o1, p1), .keyPath(o2, p2)): return p1 == p2 && equal(o1, o2)
        case let (.function(n1, o1, a1), .function(n2, o2, a2)):
            guard n1 == n2, a1.count == a2.count else { return false }
            switch (o1, o2) {
            case (nil, nil): break
            case let (x?, y?): guard equal(x, y) else { return false }
            default: return false
            }
            return zip(a1, a2).allSatisfy { equal($0, $1) }
        case let (.aggregate(x), .aggregate(y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case let (.aggregate(items), .constant(value)), let (.constant(value), .aggregate(items)):
            // `{1, 2}` (an aggregate) and `%@` with `[1, 2]` (a constant) print alike.
            guard let values = constantValues(items) else { return false }
            return constantsEqual(values, value)
        case let (.subquery(c1, v1, p1), .subquery(c2, v2, p2)):
            return v1 == v2 && equal(c1, c2) && equal(p1, p2)
        case let (.conditional(p1, t1, f1), .conditional(p2, t2, f2)):
            return equal(p1, p2) && equal(t1, t2) && equal(f1, f2)
        case let (.assignment(v1, e1), .assignment(v2, e2)): return v1 == v2 && equal(e1, e2)
        case let (.fetchRequest(r1, c1, n1), .fetchRequest(r2, c2, n2)):
            return n1 == n2 && equal(r1, r2) && equal(c1, c2)
        default: return false
        }
    }

    private static func constantValues(_ items: [NSExpression]) -> [Any?]? {
        var values: [Any?] = []
        for item in items {
            guard case .constant(let value) = item.kind else { return nil }
            values.append(value)
        }
        return values
    }

    static func hash(_ expression: NSExpression) -> Int {
        var hasher = Hasher()
        switch expression.kind {
        case .aggregate, .constant: break  // equal across the two (see equal(_:_:))
        default: hasher.combine(expression.expressionType.rawValue)
        }
        switch expression.kind {
        case .constant(let value): hasher.combine(constantHash(value))
        case .variable(let name): hasher.combine(name)
        case .keyPath(_, let path): hasher.combine(path)
        case .function(let name, _, let arguments):
            hasher.combine(name)
            for argument in arguments { hasher.combine(hash(argument)) }
        case .aggregate(let items): hasher.combine(items.count)
        case .subquery(_, let variable, _), .assignment(let variable, _): hasher.combine(variable)
        case .evaluatedObject, .anyKey, .conditional: break
        case .fetchRequest(_, _, let countOnly): hasher.combine(countOnly)
        }
        return hasher.finalize()
    }

    // MARK: - Constants

    /// Like ``PredicateValue/isEqual(_:_:options:)``, but type-aware where the format
    /// would differ: a date is never equal to a number.
    static func constantsEqual(_ a: Any?, _ b: Any?) -> Bool {
        PredicateValue.isEqual(a, b)
    }

    private static func constantHash(_ value: Any?) -> Int {
        switch PredicateValue.classify(value) {
        case .null: return 0
        case .number(let n): return n.doubleValue.hashValue
        case .string(let s): return s.hashValue
        case .date(let d): return d.hashValue
        case .collection(let items): return items.count
        case .dictionary(let d): return d.count
        case .other: return 1
        }
    }
}
