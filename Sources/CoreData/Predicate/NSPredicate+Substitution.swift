import Foundation

extension NSPredicate {

    /// A copy of the predicate with `$NAME` variables replaced by constants from
    /// `variables`. Variables without a value stay in place (evaluating them later fails);
    /// a SUBQUERY's own iteration variable is never replaced.
    ///
    /// ```swift
    /// let template = NSPredicate(format: "age > $MIN")
    /// let adults = template.withSubstitutionVariables(["MIN": 17])
    /// ```
    ///
    /// - Note: Apple parity: Foundation declares this method unavailable on Linux; this
    ///   extension provides it. Block predicates and constant predicates return `self`.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        let substituted = PredicateSubstitution(variables: variables).predicate(self)
        return (substituted as? Self) ?? self
    }
}

/// Rewrites predicate and expression trees, replacing bound variables by constants.
struct PredicateSubstitution {
    let variables: [String: Any]

    func predicate(_ p: NSPredicate) -> NSPredicate {
        if let c = p as? NSComparisonPredicate {
            let left = expression(c.leftExpression), right = expression(c.rightExpression)
            if let selector = c.customSelector {
                return NSComparisonPredicate(leftExpression: left, rightExpression: right,
                                             modifier: c.comparisonPredicateModifier,
                                             customSelector: selector)
            }
            return NSComparisonPredicate(leftExpression: left, rightExpression: right,
                                         modifier: c.comparisonPredicateModifier,
                                         type: c.predicateOperatorType, options: c.options)
        }
        if let c = p as? NSCompoundPredicate {
            return ParsedCompoundPredicate(c.compoundPredicateType, c.subpredicates.map(predicate))
        }
        return p
    }

    func expression(_ e: NSExpression) -> NSExpression {
        switch e.kind {
        case .variable(let name):
            guard let value = variables[name] else { return e }
            if let expression = value as? NSExpression { return expression }
            return NSExpression(forConstantValue: value)
        case .constant, .evaluatedObject, .anyKey:
            return e
        case .keyPath(let operand, let path):
            return NSExpression(kind: .keyPath(operand: expression(operand), path: path))
        case .function(let name, let operand, let arguments):
            return NSExpression(kind: .function(name: name, operand: operand.map(expression),
                                                arguments: arguments.map(expression)))
        case .aggregate(let items):
            return NSExpression(kind: .aggregate(items.map(expression)))
        case .subquery(let collection, let variable, let inner):
            var scoped = variables
            scoped[variable] = nil
            let nested = PredicateSubstitution(variables: scoped)
            return NSExpression(kind: .subquery(collection: expression(collection),
                                                variable: variable,
                                                predicate: nested.predicate(inner)))
        case .conditional(let condition, let yes, let no):
            return NSExpression(kind: .conditional(predicate(condition), expression(yes),
                                                   expression(no)))
        case .assignment(let name, let value):
            return NSExpression(kind: .assignment(variable: name, value: expression(value)))
        case .fetchRequest(let request, let context, let countOnly):
            return NSFetchRequestExpression(kind: .fetchRequest(
                request: expression(request), context: expression(context), countOnly: countOnly))
        }
    }
}
