import Foundation

extension NSExpression {
    /// What kind of expression an `NSExpression` is, with Apple's raw values.
    public enum ExpressionType: UInt, Sendable {
        /// A value: a literal or a substituted `%@` argument.
        case constantValue = 0
        /// `SELF`, the object being evaluated.
        case evaluatedObject = 1
        /// `$name`, bound at evaluation time.
        case variable = 2
        /// A key path such as `department.name`.
        case keyPath = 3
        /// A function call: a built-in such as `sum(x)`, an arithmetic operator, or
        /// `FUNCTION(…)`.
        case function = 4
        /// The union of two collections.
        case unionSet = 5
        /// The intersection of two collections.
        case intersectSet = 6
        /// The first collection without the members of the second.
        case minusSet = 7
        /// `SUBQUERY(collection, $x, predicate)`.
        case subquery = 13
        /// An array literal `{a, b, c}`.
        case aggregate = 14
        /// Any key of the evaluated object (`ANYKEY`).
        case anyKey = 15
        /// A Swift closure evaluated in memory only.
        case block = 19
        /// `TERNARY(predicate, a, b)`.
        case conditional = 20
        /// A fetch request run in a managed object context (``NSFetchRequestExpression``),
        /// Core Data's `NSFetchRequestExpressionType` (50).
        ///
        /// - Note: Apple parity: Foundation's enum on Apple platforms has no case for 50;
        ///   Core Data's constant ``NSFetchRequestExpressionType`` is that raw value. Here
        ///   the module owns the enum, so the value is a case; compare with the constant as
        ///   Apple code does.
        case fetchRequest = 50
    }
}
