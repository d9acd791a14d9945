import Foundation

/// One operand of a comparison predicate: a constant, the evaluated object, a key path,
/// a variable, a function call, an aggregate, a subquery or a conditional.
///
/// ```swift
/// let price = NSExpression(forKeyPath: "price")
/// let limit = NSExpression(forConstantValue: 10)
/// let cheap = NSComparisonPredicate(leftExpression: price, rightExpression: limit,
///                                   modifier: .direct, type: .lessThan, options: [])
/// ```
///
/// The tree is immutable. Internally every expression is a `Kind` case, which is what
/// the evaluator and the SQL compiler switch over; Apple's accessors read from it.
///
/// - Note: Apple parity: Foundation on Linux declares an `NSExpression` that cannot be
///   used or subclassed, so this is the module's own class. A file that imports only
///   CoreData (which re-exports Foundation) sees this one everywhere. A file that also
///   writes `import Foundation` sees two classes of this name: calls resolve to this one
///   (`NSExpression(forKeyPath:)`, `NSExpression.expressionForEvaluatedObject()`,
///   `NSExpression(format:)`, inferred `.keyPath`), because Foundation's initializers and
///   methods are unavailable, but where the name is a type (annotations, parameter and
///   return types, `as?`/`is`, generic arguments, `NSExpression.ExpressionType`,
///   extensions, subclasses) it is ambiguous and must be written `CoreData.NSExpression`
///   (or `CoreData::NSExpression`); there `NSExpression.self` names Foundation's class.
///   Swift offers a library no way out: a type from a directly imported module is only
///   hidden by another module's type of the same name when it is `unavailable`, and
///   Foundation's is `deprecated`. `scripts/measure-foundation-names.sh` measures each
///   position.
/// - Note: Apple parity: accessors that do not apply to the expression's type (for
///   example `keyPath` on a constant) return an empty value instead of raising.
///
/// ## Topics
/// ### Creating expressions
/// - ``init(forConstantValue:)``
/// - ``init(forKeyPath:)``
/// - ``init(forVariable:)``
/// - ``expressionForEvaluatedObject()``
/// - ``init(forFunction:arguments:)``
/// - ``init(forAggregate:)``
/// - ``init(forSubquery:usingIteratorVariable:predicate:)``
/// - ``init(forConditional:trueExpression:falseExpression:)``
/// - ``init(format:_:)``
/// ### Evaluating
/// - ``expressionValue(with:context:)``
open class NSExpression: NSObject, NSCopying {

    /// The shape of an expression: the data structure the evaluator and SQL compiler walk.
    enum Kind {
        /// A literal or `%@` argument: `Int`, `Double`, `Bool`, `String`, `Date`, arrays,
        /// sets, dictionaries, `nil`, or any object.
        case constant(Any?)
        /// `SELF`.
        case evaluatedObject
        /// `$NAME`.
        case variable(String)
        /// `a.b.@count`: a KVC key path (segments separated by dots, collection operators
        /// as `@name` segments) read from `operand` (`SELF` for a plain key path).
        case keyPath(operand: NSExpression, path: String)
        /// A built-in function (`sum:`, `add:to:`, `castObject:toType:`,
        /// `objectFrom:withIndex:` …) with `operand == nil`, or `FUNCTION(operand, 'sel')`.
        case function(name: String, operand: NSExpression?, arguments: [NSExpression])
        /// `{a, b, c}`.
        case aggregate([NSExpression])
        /// `SUBQUERY(collection, $variable, predicate)`.
        case subquery(collection: NSExpression, variable: String, predicate: NSPredicate)
        /// `TERNARY(predicate, a, b)`.
        case conditional(NSPredicate, NSExpression, NSExpression)
        /// `$NAME := expression`.
        case assignment(variable: String, value: NSExpression)
        /// `ANYKEY` (a Spotlight construct: parsed, not evaluated).
        case anyKey
        /// `FETCH(request, context, countOnly)`: the results (or the count) of a fetch
        /// request run in a managed object context (``NSFetchRequestExpression``).
        case fetchRequest(request: NSExpression, context: NSExpression, countOnly: Bool)
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    // MARK: - Creating expressions

    /// An expression that always produces `value` (nil, `NSNull`, numbers, strings, dates,
    /// collections).
    public convenience init(forConstantValue value: Any?) {
        self.init(kind: .constant(PredicateValue.unwrap(value)))
    }

    /// The object being evaluated (`SELF`).
    open class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(kind: .evaluatedObject)
    }

    /// A key path read from the evaluated object, e.g. `"department.name"` or
    /// `"projects.@sum.hours"`.
    public convenience init(forKeyPath keyPath: String) {
        self.init(kind: .keyPath(operand: NSExpression(kind: .evaluatedObject), path: keyPath))
    }

    /// A variable, bound at evaluation time or by `withSubstitutionVariables(_:)`.
    public convenience init(forVariable string: String) {
        self.init(kind: .variable(string))
    }

    /// A built-in function such as `"sum:"`, `"add:to:"` or `"now"`. `parameters` are
    /// expressions (other values are wrapped as constants).
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        self.init(kind: .function(name: name, operand: nil,
                                  arguments: parameters.map(NSExpression.wrap)))
    }

    /// `FUNCTION(target, 'selectorName', arguments…)`.
    ///
    /// - Note: Apple parity: arbitrary Objective-C selectors cannot be called on Linux;
    ///   evaluating such an expression fails unless `selectorName` is a built-in function.
    public convenience init(forFunction target: NSExpression, selectorName name: String,
                            arguments parameters: [Any]?) {
        self.init(kind: .function(name: name, operand: target,
                                  arguments: (parameters ?? []).map(NSExpression.wrap)))
    }

    /// An aggregate `{a, b, c}`: `subexpressions` are expressions (other values are
    /// wrapped as constants).
    public convenience init(forAggregate subexpressions: [Any]) {
        self.init(kind: .aggregate(subexpressions.map(NSExpression.wrap)))
    }

    /// `SUBQUERY(expression, $variable, predicate)`: the elements of `expression`'s value
    /// for which `predicate` holds with `$variable` bound to the element.
    public convenience init(forSubquery expression: NSExpression,
                            usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(kind: .subquery(collection: expression, variable: variable,
                                  predicate: predicate))
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(forConditional predicate: NSPredicate,
                            trueExpression: NSExpression, falseExpression: NSExpression) {
        self.init(kind: .conditional(predicate, trueExpression, falseExpression))
    }

    /// `ANYKEY`.
    open class func expressionForAnyKey() -> NSExpression { NSExpression(kind: .anyKey) }

    static func wrap(_ value: Any) -> NSExpression {
        (value as? NSExpression) ?? NSExpression(forConstantValue: value)
    }

    // MARK: - Accessors

    /// The Apple-compatible type of this expression.
    open var expressionType: ExpressionType {
        switch kind {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable, .assignment: return .variable
        case .keyPath: return .keyPath
        case .function: return .function
        case .aggregate: return .aggregate
        case .subquery: return .subquery
        case .conditional: return .conditional
        case .anyKey: return .anyKey
        case .fetchRequest: return .fetchRequest
        }
    }

    /// The constant of a `.constantValue` expression (nil otherwise).
    open var constantValue: Any? {
        if case .constant(let value) = kind { return value }
        return nil
    }

    /// The key path of a `.keyPath` expression ("" otherwise).
    open var keyPath: String {
        if case .keyPath(_, let path) = kind { return path }
        return ""
    }

    /// The name of a `.variable` expression ("" otherwise).
    open var variable: String {
        switch kind {
        case .variable(let name), .assignment(let name, _): return name
        case .subquery(_, let name, _): return name
        default: return ""
        }
    }

    /// The selector name of a `.function` expression, e.g. `"add:to:"` ("" otherwise).
    open var function: String {
        if case .function(let name, _, _) = kind { return name }
        return ""
    }

    /// The arguments of a `.function` expression (nil otherwise).
    open var arguments: [NSExpression]? {
        if case .function(_, _, let arguments) = kind { return arguments }
        return nil
    }

    /// The receiver of a key path or `FUNCTION(...)` expression; `SELF` otherwise.
    open var operand: NSExpression {
        switch kind {
        case .keyPath(let operand, _): return operand
        case .function(_, let operand?, _): return operand
        case .assignment(_, let value): return value
        default: return NSExpression(kind: .evaluatedObject)
        }
    }

    /// An aggregate's subexpressions (`[NSExpression]`), or a subquery's collection
    /// expression.
    open var collection: Any {
        switch kind {
        case .aggregate(let items): return items
        case .subquery(let collection, _, _): return collection
        default: return [NSExpression]()
        }
    }

    /// The predicate of a subquery or conditional (`FALSEPREDICATE` otherwise).
    open var predicate: NSPredicate {
        switch kind {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): return predicate
        default: return NSPredicate(value: false)
        }
    }

    /// The expression a conditional produces when its predicate holds.
    open var `true`: NSExpression {
        if case .conditional(_, let yes, _) = kind { return yes }
        return NSExpression(forConstantValue: nil)
    }

    /// The expression a conditional produces when its predicate does not hold.
    open var `false`: NSExpression {
        if case .conditional(_, _, let no) = kind { return no }
        return NSExpression(forConstantValue: nil)
    }

    // MARK: - Evaluating

    /// The value of the expression for `object`. Variables are read from (and `:=`
    /// assignments written to) `context`.
    ///
    /// This cannot throw, so a failure (an unknown key, an unbound variable, a type error)
    /// answers nil; `value(with:variables:)` is the throwing twin.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: Any] = [:]
        for (key, value) in context ?? [:] { if let key = key as? String { variables[key] = value } }
        let bindings = PredicateBindings(variables)
        let result = try? PredicateEvaluator(bindings: bindings).value(of: self, object: object)
        if let context {
            for (key, value) in bindings.variables { context[key] = value }
        }
        return Self.plain(result ?? nil)
    }

    /// Values read through a set leave as the plain array they were before.
    static func plain(_ value: Any?) -> Any? {
        (value as? UnorderedValues)?.values ?? value
    }

    /// Throwing twin of ``expressionValue(with:context:)``.
    func value(with object: Any?, variables: [String: Any] = [:]) throws -> Any? {
        do {
            return Self.plain(try PredicateEvaluator(bindings: PredicateBindings(variables))
                .value(of: self, object: object))
        } catch let error as PredicateEvaluationError {
            throw error.nsError
        }
    }

    // MARK: - NSObject

    open func copy(with zone: NSZone? = nil) -> Any { self }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return self === other || PredicateStructure.equal(self, other)
    }

    open override var hash: Int { PredicateStructure.hash(self) }

    open override var description: String { PredicateFormatter.format(self) }
}
