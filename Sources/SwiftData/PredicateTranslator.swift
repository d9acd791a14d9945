import CoreData

/// Turns a Foundation `Predicate` over a model class into an `NSPredicate` the SQLite store
/// compiles to SQL, or reports that it cannot, so the fetch evaluates the predicate in
/// memory instead (never a wrong result).
///
/// Translated: `==`, `!=`, `<`, `<=`, `>`, `>=`; `&&`, `||`, `!`; Boolean properties used as
/// conditions; key paths through to-one relationships, with optional chaining; `contains`
/// and `starts(with:)` on strings; `contains` of a property in a constant array; `nil`.
/// Everything else (arithmetic, `??`, to-many key paths, `count`, closures over
/// relationships…) is evaluated in memory.
final class PredicateTranslator {
    struct Untranslatable: Error {}

    enum Term {
        /// A key path from the root model; `toMany` when its last step is a to-many relationship.
        case keyPath(String, toMany: Bool)
        case constant(Any?)
        case predicate(NSPredicate)
    }

    private let root: PredicateExpressions.VariableID
    /// Variables bound by `flatMap` (optional chaining), with the key path they stand for.
    var bound: [PredicateExpressions.VariableID: String] = [:]

    private init(root: PredicateExpressions.VariableID) {
        self.root = root
    }

    /// The `NSPredicate` of `predicate`, or nil when part of it has no translation.
    static func translate<T>(_ predicate: Predicate<T>) -> NSPredicate? {
        let translator = PredicateTranslator(root: predicate.variable.key)
        return try? translator.predicate(predicate.expression)
    }

    // MARK: - Terms

    func term(_ expression: Any) throws -> Term {
        guard let translatable = expression as? any TranslatableExpression else { throw Untranslatable() }
        return try translatable.translate(self)
    }

    func variable(_ key: PredicateExpressions.VariableID) throws -> Term {
        if key == root { return .keyPath("", toMany: false) }
        if let path = bound[key] { return .keyPath(path, toMany: false) }
        throw Untranslatable()
    }

    func predicate(_ expression: Any) throws -> NSPredicate {
        switch try term(expression) {
        case .predicate(let predicate):
            return predicate
        case .keyPath(let path, let toMany):
            guard !toMany, !path.isEmpty else { throw Untranslatable() }
            return compare(.keyPath(path, toMany: false), .equalTo, .constant(true))
        case .constant(let value as Bool):
            return NSPredicate(format: value ? "TRUEPREDICATE" : "FALSEPREDICATE")
        case .constant:
            throw Untranslatable()
        }
    }

    func expression(_ term: Term) throws -> NSExpression {
        switch term {
        case .keyPath(let path, let toMany):
            guard !toMany, !path.isEmpty else { throw Untranslatable() }
            if path == "SELF" { return NSExpression.expressionForEvaluatedObject() }
            return NSExpression(forKeyPath: path)
        case .constant(let value):
            return NSExpression(forConstantValue: value)
        case .predicate:
            throw Untranslatable()
        }
    }

    func compare(_ lhs: Term, _ type: NSComparisonPredicate.Operator, _ rhs: Term,
                 options: NSComparisonPredicate.Options = []) -> NSPredicate {
        // Both sides were checked by the callers (`comparison`).
        NSComparisonPredicate(leftExpression: (try? expression(lhs)) ?? NSExpression(forConstantValue: nil),
                              rightExpression: (try? expression(rhs)) ?? NSExpression(forConstantValue: nil),
                              modifier: .direct, type: type, options: options)
    }

    func comparison(_ lhs: Any, _ type: NSComparisonPredicate.Operator, _ rhs: Any) throws -> Term {
        let left = try term(lhs), right = try term(rhs)
        _ = try expression(left)
        _ = try expression(right)
        return .predicate(compare(left, type, right))
    }

    /// A string operation (`contains`, `starts(with:)`): a key path on the left, a constant
    /// string on the right.
    func stringOperation(_ base: Any, _ type: NSComparisonPredicate.Operator, _ other: Any) throws -> Term {
        guard case .keyPath(let path, false) = try term(base), !path.isEmpty,
              case .constant(let value as String) = try term(other) else { throw Untranslatable() }
        return .predicate(compare(.keyPath(path, toMany: false), type, .constant(value)))
    }

    /// `!p`, with the negation pushed into comparisons (`==` becomes `!=`, which the store
    /// compares null-safely) so that a missing value answers as Swift's `!` does.
    func negate(_ predicate: NSPredicate) -> NSPredicate {
        if let comparison = predicate as? NSComparisonPredicate, comparison.comparisonPredicateModifier == .direct {
            let flipped: NSComparisonPredicate.Operator? = switch comparison.predicateOperatorType {
            case .equalTo: .notEqualTo
            case .notEqualTo: .equalTo
            case .lessThan: .greaterThanOrEqualTo
            case .lessThanOrEqualTo: .greaterThan
            case .greaterThan: .lessThanOrEqualTo
            case .greaterThanOrEqualTo: .lessThan
            default: nil
            }
            if let flipped {
                return NSComparisonPredicate(leftExpression: comparison.leftExpression,
                                             rightExpression: comparison.rightExpression,
                                             modifier: .direct, type: flipped, options: comparison.options)
            }
        }
        if let compound = predicate as? NSCompoundPredicate {
            let parts = compound.subpredicates
            switch compound.compoundPredicateType {
            case .and: return NSCompoundPredicate(orPredicateWithSubpredicates: parts.map(negate))
            case .or: return NSCompoundPredicate(andPredicateWithSubpredicates: parts.map(negate))
            case .not: return parts.count == 1 ? parts[0] : NSCompoundPredicate(andPredicateWithSubpredicates: parts)
            @unknown default: break
            }
        }
        return NSCompoundPredicate(notPredicateWithSubpredicate: predicate)
    }
}

/// A `PredicateExpressions` node that has a store translation.
protocol TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term
}

extension PredicateExpressions.Variable: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        try translator.variable(key)
    }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        if type(of: keyPath as AnyKeyPath).valueType == PersistentIdentifier.self {
            // `persistentModelID`: the object itself (compared by object ID).
            guard case .keyPath(let prefix, false) = try translator.term(root) else {
                throw PredicateTranslator.Untranslatable()
            }
            return .keyPath(prefix.isEmpty ? "SELF" : prefix, toMany: false)
        }
        guard case .keyPath(let prefix, false) = try translator.term(root),
              let property = KeyPathTable.shared.property(keyPath as AnyKeyPath) else {
            throw PredicateTranslator.Untranslatable()
        }
        return .keyPath(prefix.isEmpty ? property.name : prefix + "." + property.name, toMany: property.isToMany)
    }
}

extension PredicateExpressions.Value: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        guard let constant = ValueBridge.constant(value) else { throw PredicateTranslator.Untranslatable() }
        return .constant(constant)
    }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        .constant(nil)
    }
}

extension PredicateExpressions.Equal: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        try translator.comparison(lhs, .equalTo, rhs)
    }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        try translator.comparison(lhs, .notEqualTo, rhs)
    }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        let type: NSComparisonPredicate.Operator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return try translator.comparison(lhs, type, rhs)
    }
}

extension PredicateExpressions.Conjunction: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        .predicate(NSCompoundPredicate(andPredicateWithSubpredicates: [
            try translator.predicate(lhs), try translator.predicate(rhs),
        ]))
    }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        .predicate(NSCompoundPredicate(orPredicateWithSubpredicates: [
            try translator.predicate(lhs), try translator.predicate(rhs),
        ]))
    }
}

extension PredicateExpressions.Negation: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        .predicate(translator.negate(try translator.predicate(wrapped)))
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        guard case .keyPath(let path, false) = try translator.term(wrapped), !path.isEmpty else {
            throw PredicateTranslator.Untranslatable()
        }
        translator.bound[variable.key] = path
        let result = try translator.term(transform)
        guard case .keyPath = result else { throw PredicateTranslator.Untranslatable() }
        return result
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        try translator.stringOperation(base, .contains, other)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        try translator.stringOperation(base, .beginsWith, prefix)
    }
}

extension PredicateExpressions.SequenceContains: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        // A property in a constant collection: `IN`.
        guard case .keyPath(let path, false) = try translator.term(element), !path.isEmpty,
              let values = (sequence as? any ConstantSequence)?.elements else {
            throw PredicateTranslator.Untranslatable()
        }
        var constants: [Any] = []
        for value in values {
            guard let constant = ValueBridge.constant(value), let present = constant else {
                throw PredicateTranslator.Untranslatable()
            }
            constants.append(present)
        }
        return .predicate(translator.compare(.keyPath(path, toMany: false), .in, .constant(constants)))
    }
}

/// A constant sequence in a predicate (`[1, 2, 3].contains($0.rank)`).
protocol ConstantSequence {
    var elements: [Any] { get }
}

extension PredicateExpressions.Value: ConstantSequence where Output: Sequence {
    var elements: [Any] { value.map { $0 as Any } }
}
