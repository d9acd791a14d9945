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
    /// The subclass model every result is (a top-level `$0 is Sub` conjunct): the fetch
    /// reads that class's entity, so type checks and casts of the root to it (or to its
    /// superclasses) hold for every row.
    let narrowed: (any PersistentModel.Type)?

    private init(root: PredicateExpressions.VariableID, narrowed: (any PersistentModel.Type)?) {
        self.root = root
        self.narrowed = narrowed
    }

    /// The `NSPredicate` of `predicate`, or nil when part of it has no translation.
    static func translate<T>(_ predicate: Predicate<T>) -> NSPredicate? {
        translate(predicate, narrowedTo: nil)
    }

    /// The `NSPredicate` of `predicate` for a fetch of `narrowed`'s entity, or nil when part
    /// of it has no translation.
    static func translate<T>(_ predicate: Predicate<T>, narrowedTo narrowed: (any PersistentModel.Type)?) -> NSPredicate? {
        let translator = PredicateTranslator(root: predicate.variable.key, narrowed: narrowed)
        return try? translator.predicate(predicate.expression)
    }

    /// The model class a top-level conjunct `$0 is Sub` requires of every result, if any:
    /// fetching `Sub`'s entity then answers that conjunct in the store.
    static func narrowing<T: PersistentModel>(_ predicate: Predicate<T>) -> (any PersistentModel.Type)? {
        var conjuncts: [Any] = [predicate.expression]
        while let next = conjuncts.popLast() {
            if let conjunction = next as? any ConjunctionParts {
                conjuncts += conjunction.parts
            } else if let check = next as? any TypeCheckParts,
                      let variable = check.checkedInput as? PredicateExpressions.Variable<T>,
                      variable.key == predicate.variable.key,
                      let desired = check.desiredType as? any PersistentModel.Type,
                      ObjectIdentifier(desired) != ObjectIdentifier(T.self),
                      PredicateTranslator(root: predicate.variable.key, narrowed: desired).narrowedRowsAre(T.self) {
                return desired
            }
        }
        return nil
    }

    /// Whether every row of the narrowed fetch is a `type`: the narrowed class is `type`
    /// or one of its subclasses.
    func narrowedRowsAre(_ type: Any.Type) -> Bool {
        var current: Any.Type? = narrowed
        while let candidate = current {
            if candidate == type { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    /// Whether `expression` is the predicate's root variable.
    func isRoot(_ expression: Any) -> Bool {
        (try? variable(of: expression)) == root
    }

    private func variable(of expression: Any) throws -> PredicateExpressions.VariableID {
        guard let variable = expression as? any VariableKey else { throw Untranslatable() }
        return variable.variableKey
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
              let property = KeyPathTable.shared.property(keyPath as AnyKeyPath), !property.isArchived else {
            // Unknown key paths, and `Codable` values (stored encoded): evaluated in memory.
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
        guard case .keyPath(let path, false) = try translator.term(wrapped),
              !path.isEmpty || wrapped is any CastParts else {
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

// MARK: - Class inheritance

/// `$0 is Sub`: true for every row when the fetch reads `Sub`'s entity (see
/// ``PredicateTranslator/narrowing(_:)``); otherwise left to memory.
extension PredicateExpressions.TypeCheck: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        guard translator.isRoot(input), translator.narrowedRowsAre(Desired.self) else {
            throw PredicateTranslator.Untranslatable()
        }
        return .constant(true)
    }
}

/// `$0 as? Sub` (as in `($0 as? Sub)?.property`): the root itself when the fetch reads
/// `Sub`'s entity; otherwise left to memory.
extension PredicateExpressions.ConditionalCast: TranslatableExpression {
    func translate(_ translator: PredicateTranslator) throws -> PredicateTranslator.Term {
        guard translator.isRoot(input), translator.narrowedRowsAre(Desired.self) else {
            throw PredicateTranslator.Untranslatable()
        }
        return try translator.term(input)
    }
}

/// A conjunction's two sides, seen without their types.
protocol ConjunctionParts {
    var parts: [Any] { get }
}

extension PredicateExpressions.Conjunction: ConjunctionParts {
    var parts: [Any] { [lhs, rhs] }
}

/// A type check's input and the type it checks for, seen without their types.
protocol TypeCheckParts {
    var checkedInput: Any { get }
    var desiredType: Any.Type { get }
}

extension PredicateExpressions.TypeCheck: TypeCheckParts {
    var checkedInput: Any { input }
    var desiredType: Any.Type { Desired.self }
}

/// A conditional cast (`as?`), whatever its types.
protocol CastParts {}

extension PredicateExpressions.ConditionalCast: CastParts {}

/// A predicate variable's key, whatever its type.
protocol VariableKey {
    var variableKey: PredicateExpressions.VariableID { get }
}

extension PredicateExpressions.Variable: VariableKey {
    var variableKey: PredicateExpressions.VariableID { key }
}
