import Foundation

/// Variable bindings for one evaluation: `$NAME` reads them, `$NAME := x` writes them.
final class PredicateBindings {
    var variables: [String: Any]
    init(_ variables: [String: Any]) { self.variables = variables }
}

/// Evaluates predicate and expression trees in memory (<doc:PredicateLanguage#Semantics>): the
/// engine behind `evaluate(with:)`, `expressionValue(with:context:)` and in-memory fetches.
///
/// ```swift
/// let p = try NSPredicate.parse(format: "age >= %@", arguments: [18])
/// let ok = try PredicateEvaluator(bindings: PredicateBindings([:]))
///     .evaluate(p, object: ["age": 20])
/// ```
///
/// Every failure throws a ``PredicateEvaluationError``; the non-throwing Apple API turns
/// that into `false` (predicates) or nil (expressions).
struct PredicateEvaluator {
    let bindings: PredicateBindings

    // MARK: - Predicates

    func evaluate(_ predicate: NSPredicate, object: Any?) throws -> Bool {
        if let comparison = predicate as? NSComparisonPredicate {
            return try evaluateComparison(comparison, object: object)
        }
        if let compound = predicate as? NSCompoundPredicate {
            switch compound.compoundPredicateType {
            case .and:
                for sub in compound.subpredicates where try !evaluate(sub, object: object) {
                    return false
                }
                return true
            case .or:
                for sub in compound.subpredicates where try evaluate(sub, object: object) {
                    return true
                }
                return false
            case .not:
                guard let sub = compound.subpredicates.first else { return true }
                return try !evaluate(sub, object: object)
            }
        }
        // TRUEPREDICATE, FALSEPREDICATE, block predicates and other subclasses.
        return predicate.evaluate(with: object, substitutionVariables: bindings.variables)
    }

    private func evaluateComparison(_ p: NSComparisonPredicate, object: Any?) throws -> Bool {
        let lhs = try value(of: p.leftExpression, object: object)
        let rhs = try value(of: p.rightExpression, object: object)
        switch p.comparisonPredicateModifier {
        case .direct:
            try rejectToMany(p, lhs: lhs, rhs: rhs)
            return try apply(p, lhs, rhs)
        case .any, .all:
            let elements: [Any?]
            if PredicateValue.isNull(lhs) {
                elements = []
            } else if let items = PredicateValue.collectionElements(lhs) {
                elements = items
            } else {
                throw PredicateEvaluationError.invalidArgument(
                    "The left hand side for an ALL or ANY operator must be either an NSArray "
                        + "or an NSSet, not \(PredicateValue.describe(lhs))")
            }
            if p.comparisonPredicateModifier == .any {
                for element in elements where try apply(p, element, rhs) { return true }
                return false
            }
            for element in elements where try !apply(p, element, rhs) { return false }
            return true
        }
    }

    /// <doc:PredicateLanguage#To-many-key-paths>: a to-many key path compared as if it were one
    /// value is an error naming the key path (the SQL translator rejects the same predicates).
    /// `CONTAINS` on the left, `IN`/`BETWEEN` on the right and collection-to-collection `==`/`!=`
    /// are fine.
    private func rejectToMany(_ p: NSComparisonPredicate, lhs: Any?, rhs: Any?) throws {
        let op = p.predicateOperatorType
        let leftIsCollection = PredicateValue.collectionElements(lhs) != nil
        let rightIsCollection = PredicateValue.collectionElements(rhs) != nil
        let bothCollections = leftIsCollection && rightIsCollection
            && (op == .equalTo || op == .notEqualTo)
        if leftIsCollection, op != .contains, !bothCollections,
           case .keyPath(_, let path) = p.leftExpression.kind
        {
            throw Self.toMany(path)
        }
        if rightIsCollection, op != .in, op != .between, !bothCollections,
           case .keyPath(_, let path) = p.rightExpression.kind
        {
            throw Self.toMany(path)
        }
    }

    static func toMany(_ path: String) -> PredicateEvaluationError {
        .toManyKeyNotAllowed(
            "to-many key not allowed here: '\(path)' is a collection; use ANY, ALL, NONE "
                + "or SUBQUERY to compare its elements")
    }

    // MARK: - Operators

    /// Applies the operator of `p` to one left and one right value.
    func apply(_ p: NSComparisonPredicate, _ lhs: Any?, _ rhs: Any?) throws -> Bool {
        let options = p.options
        let op = p.predicateOperatorType
        switch op {
        case .equalTo: return PredicateValue.isEqual(lhs, rhs, options: options)
        case .notEqualTo: return !PredicateValue.isEqual(lhs, rhs, options: options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if PredicateValue.isNull(lhs) || PredicateValue.isNull(rhs) { return false }
            let order = try PredicateValue.compare(lhs, rhs, options: options)
            switch op {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqualTo: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .matches, .like, .beginsWith, .endsWith:
            if PredicateValue.isNull(lhs) || PredicateValue.isNull(rhs) { return false }
            guard case .string(let s) = PredicateValue.classify(lhs),
                  case .string(let pattern) = PredicateValue.classify(rhs)
            else {
                throw PredicateEvaluationError.typeMismatch(
                    "Can't do \(PredicateFormatter.operatorName(op)) with "
                        + "\(PredicateValue.describe(lhs)) and \(PredicateValue.describe(rhs))")
            }
            switch op {
            case .matches: return try PredicateStringFolding.matches(s, pattern, options)
            case .like: return PredicateStringFolding.like(s, pattern, options)
            case .beginsWith: return PredicateStringFolding.beginsWith(s, pattern, options)
            default: return PredicateStringFolding.endsWith(s, pattern, options)
            }
        case .contains:
            return try membership(haystack: lhs, needle: rhs, options: options, op: "CONTAINS")
        case .in:
            return try membership(haystack: rhs, needle: lhs, options: options, op: "IN")
        case .between:
            if PredicateValue.isNull(lhs) { return false }
            guard let bounds = PredicateValue.collectionElements(rhs), bounds.count == 2 else {
                throw PredicateEvaluationError.invalidArgument(
                    "BETWEEN needs a collection of exactly two bounds, not "
                        + PredicateValue.describe(rhs))
            }
            if PredicateValue.isNull(bounds[0]) || PredicateValue.isNull(bounds[1]) { return false }
            return try PredicateValue.compare(lhs, bounds[0], options: options) != .orderedAscending
                && PredicateValue.compare(lhs, bounds[1], options: options) != .orderedDescending
        case .customSelector:
            return try PredicateFunctions.customSelector(p.customSelector, lhs, rhs)
        }
    }

    /// CONTAINS and IN: membership in a collection (a dictionary's values for IN) or a
    /// substring test on strings. A nil on either side is false.
    private func membership(
        haystack: Any?, needle: Any?, options: NSComparisonPredicate.Options, op: String
    ) throws -> Bool {
        if PredicateValue.isNull(haystack) || PredicateValue.isNull(needle) { return false }
        if let elements = PredicateValue.collectionElements(haystack) {
            return elements.contains { PredicateValue.isEqual($0, needle, options: options) }
        }
        if op == "IN", let dictionary = PredicateValue.dictionaryValue(haystack) {
            return dictionary.values.contains {
                PredicateValue.isEqual($0, needle, options: options)
            }
        }
        if case .string(let text) = PredicateValue.classify(haystack) {
            guard case .string(let part) = PredicateValue.classify(needle) else {
                throw PredicateEvaluationError.typeMismatch(
                    "Can't do a substring operation (\(op)) with "
                        + PredicateValue.describe(needle))
            }
            return PredicateStringFolding.contains(text, part, options)
        }
        throw PredicateEvaluationError.typeMismatch(
            "Can't look for a value (\(op)) in something that's not a collection: "
                + PredicateValue.describe(haystack))
    }

    // MARK: - Expressions

    func value(of expression: NSExpression, object: Any?) throws -> Any? {
        switch expression.kind {
        case .constant(let value):
            return value
        case .evaluatedObject:
            return PredicateValue.unwrap(object)
        case .variable(let name):
            guard let bound = bindings.variables[name] else {
                throw PredicateEvaluationError.unboundVariable(name)
            }
            return PredicateValue.unwrap(bound)
        case .keyPath(let operand, let path):
            let base = try value(of: operand, object: object)
            return try KeyValueReader.value(forKeyPath: path, of: base)
        case .function(let name, let operand, let arguments):
            if let operand, !PredicateFunctions.isBuiltin(name) {
                if let target = try value(of: operand, object: object) as? any PredicateFunctionTarget {
                    let values = try arguments.map { try value(of: $0, object: object) }
                    return try target.predicateFunctionValue(selector: name, arguments: values)
                }
                throw PredicateEvaluationError.unsupported(
                    "FUNCTION(…, '\(name)'): calling arbitrary methods is not supported on Linux")
            }
            let values = try arguments.map { try value(of: $0, object: object) }
            return try PredicateFunctions.call(name, values)
        case .aggregate(let items):
            return try items.map { try value(of: $0, object: object) }
        case .subquery(let collection, let variable, let predicate):
            let source = try value(of: collection, object: object)
            guard let elements = PredicateValue.collectionElements(source)
                ?? (PredicateValue.isNull(source) ? [] : nil)
            else {
                throw PredicateEvaluationError.invalidArgument(
                    "SUBQUERY needs a collection, not \(PredicateValue.describe(source))")
            }
            var matches: [Any?] = []
            for element in elements {
                var variables = bindings.variables
                variables[variable] = element ?? NSNull()
                let inner = PredicateEvaluator(bindings: PredicateBindings(variables))
                if try inner.evaluate(predicate, object: element) { matches.append(element) }
            }
            return matches
        case .conditional(let predicate, let yes, let no):
            return try value(of: evaluate(predicate, object: object) ? yes : no, object: object)
        case .assignment(let name, let expression):
            let result = try value(of: expression, object: object)
            bindings.variables[name] = result ?? NSNull()
            return result
        case .anyKey:
            throw PredicateEvaluationError.unsupported("ANYKEY is only meaningful in Spotlight")
        case .fetchRequest(let request, let context, let countOnly):
            let runner = try value(of: context, object: object)
            guard let runner = runner as? FetchExpressionRunning else {
                throw PredicateEvaluationError.invalidArgument(
                    "A fetch request expression needs a managed object context, not "
                        + PredicateValue.describe(runner))
            }
            return try runner.runFetchExpression(value(of: request, object: object), countOnly: countOnly)
        }
    }
}
