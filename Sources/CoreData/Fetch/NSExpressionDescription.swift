import Foundation

/// A computed column of a dictionary fetch: a name and an expression, typically an
/// aggregate over the fetched (or grouped) objects.
///
/// ```swift
/// let total = NSExpressionDescription()
/// total.name = "total"
/// total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "quantity")])
/// total.expressionResultType = .integer64AttributeType
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["list", total]
/// request.propertiesToGroupBy = ["list"]
/// ```
///
/// Aggregates are the collection functions of `NSExpression`: `count:`, `sum:`, `min:`,
/// `max:`, `average:` (and `median:`, `mode:`, `stddev:`), over a key path; NULL values
/// are skipped, as SQL's aggregates skip them (so `count:` counts the non-nil values).
/// Any other expression is evaluated for the group's first object.
///
/// ## Topics
/// - ``expression``
/// - ``expressionResultType``
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    // @unchecked Sendable: as NSPropertyDescription, configured once and then read.

    /// The expression whose value fills the column.
    open var expression: NSExpression?
    /// The type the result is converted to (`.undefinedAttributeType` keeps it as is).
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    public override init() { super.init() }
}
