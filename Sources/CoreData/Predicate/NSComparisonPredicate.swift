import Foundation

/// A predicate that compares two expressions with one operator: `age >= 18`,
/// `ANY tags.name ==[c] "swift"`, `price BETWEEN {1, 10}`.
///
/// ```swift
/// let p = NSComparisonPredicate(
///     leftExpression: NSExpression(forKeyPath: "name"),
///     rightExpression: NSExpression(forConstantValue: "J*"),
///     modifier: .direct, type: .like, options: [.caseInsensitive])
/// p.evaluate(with: ["name": "john"])   // true
/// ```
///
/// - Note: Apple parity: Foundation's `NSComparisonPredicate` on Linux cannot be created,
///   so this is the module's own subclass of Foundation's `NSPredicate`. A file importing
///   both Foundation and CoreData calls it unqualified but writes
///   `CoreData.NSComparisonPredicate` where the name is a type (`as?`, annotations,
///   `NSComparisonPredicate.Operator`), as ``NSExpression`` explains.
///
/// ## Topics
/// ### Creating
/// - ``init(leftExpression:rightExpression:modifier:type:options:)``
/// - ``init(leftExpression:rightExpression:customSelector:)``
/// ### Inspecting
/// - ``leftExpression``
/// - ``rightExpression``
/// - ``predicateOperatorType``
/// - ``comparisonPredicateModifier``
/// - ``options``
/// - ``customSelector``
open class NSComparisonPredicate: NSPredicate {

    /// The left side of the comparison.
    public let leftExpression: NSExpression
    /// The right side of the comparison.
    public let rightExpression: NSExpression
    /// The operator: `==`, `<`, `LIKE`, `IN`, …
    public let predicateOperatorType: Operator
    /// Whether the left side is one value (`direct`) or a collection quantified by `ANY` or
    /// `ALL`.
    public let comparisonPredicateModifier: Modifier
    /// The string options of the comparison (`[c]`, `[d]`, `[n]`, `[l]`).
    public let options: Options
    /// The selector of a `.customSelector` predicate; on Linux only `UTI-CONFORMS-TO` and
    /// `UTI-EQUALS` (written `Selector("UTI-CONFORMS-TO")`) evaluate.
    public let customSelector: Selector?

    /// A comparison of two expressions: `leftExpression <type>[options] rightExpression`,
    /// quantified by `modifier`.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
                modifier: Modifier, type: Operator, options: Options = []) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        customSelector = nil
        super.init(value: false)
    }

    /// A comparison by a named method, such as `Selector("UTI-CONFORMS-TO")`.
    ///
    /// - Note: Apple parity: Linux has no Objective-C messaging, so only the UTI selectors
    ///   evaluate; any other selector fails when the predicate is evaluated.
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
                customSelector selector: Selector) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = .direct
        predicateOperatorType = .customSelector
        options = []
        customSelector = selector
        super.init(value: false)
    }

    init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
         modifier: Modifier, customSelector selector: Selector) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = .customSelector
        options = []
        customSelector = selector
        super.init(value: false)
    }

    // MARK: - Evaluating

    /// Evaluates the comparison; any evaluation error (unknown key, unbound variable,
    /// incomparable operands, bare to-many key path) answers `false`, because this method
    /// cannot throw. `NSPredicate.evaluate(_:with:substitutionVariables:)` throws instead.
    open override func evaluate(with object: Any?,
                                substitutionVariables bindings: [String: Any]?) -> Bool {
        (try? PredicateEvaluator(bindings: PredicateBindings(bindings ?? [:]))
            .evaluate(self, object: object)) ?? false
    }

    // MARK: - NSObject

    /// The canonical format string: parses back to an equal predicate.
    open override var predicateFormat: String { PredicateFormatter.format(self) }

    open override var description: String { predicateFormat }

    open override func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return self === other || PredicateStructure.equal(self, other)
    }

    open override var hash: Int { PredicateStructure.hash(self) }
}
