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

    /// Same as ``expressionResultType``, in the `NSAttributeDescription.AttributeType`
    /// spelling (`description.resultType = .integer64`).
    open var resultType: NSAttributeDescription.AttributeType {
        get { NSAttributeDescription.AttributeType(rawValue: expressionResultType) }
        set { expressionResultType = newValue.rawValue }
    }

    public override init() { super.init() }

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSExpressionDescription() }

    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        guard let copy = copy as? NSExpressionDescription else { return }
        copy.expression = expression
        copy.expressionResultType = expressionResultType
    }

    /// Archives the description: the property's fields, the expression (as its format
    /// string) and the result type.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        ModelCoding.encode(expression, forKey: "NSExpression", with: coder)
        coder.encode(Int64(expressionResultType.rawValue), forKey: "NSExpressionResultType")
    }

    /// Reads an expression description archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        expression = ModelCoding.decodeExpression(forKey: "NSExpression", with: coder)
        expressionResultType = NSAttributeType(
            rawValue: ModelCoding.decodeUInt(forKey: "NSExpressionResultType", with: coder)) ?? .undefinedAttributeType
    }
}
