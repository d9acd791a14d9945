import Foundation

/// An attribute whose value Core Data computes from the object's other values when the
/// object is saved (`derived="YES"` in model files).
///
/// ```swift
/// let itemCount = NSDerivedAttributeDescription()
/// itemCount.name = "itemCount"
/// itemCount.attributeType = .integer64AttributeType
/// itemCount.derivationExpression = NSExpression(format: "items.@count")
/// ```
///
/// The expressions Apple documents for derived attributes are supported: a copy of another
/// attribute (`title`), a to-one key path (`list.title`), aggregates over a to-many
/// relationship (`items.@count`, `items.@sum.price`), `lowercase:(title)`,
/// `uppercase:(title)`, `canonical:(title)` (folded for case and diacritics) and `now()`.
/// A model file's `derivationExpression` and one set in code derive the same way.
///
/// - Note: Apple parity: Apple's SQLite store computes derived values with SQL triggers;
///   here the context computes them, for both store types, just before it validates a save.
///   An expression that cannot be evaluated leaves the value unchanged.
///
/// ## Topics
/// - ``derivationExpression``
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    private var _derivationExpression: NSExpression?

    /// The expression that computes the value, evaluated with the object as `SELF`.
    open var derivationExpression: NSExpression? {
        get {
            if let _derivationExpression { return _derivationExpression }
            guard let text = derivationExpressionString, !text.isEmpty else { return nil }
            return DerivedValue.expression(parsing: text)
        }
        set {
            assertEditable()
            _derivationExpression = newValue
            derivationExpressionString = newValue.map(DerivedValue.text)
        }
    }

    public override init() { super.init() }

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSDerivedAttributeDescription() }

    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        (copy as? NSDerivedAttributeDescription)?._derivationExpression = _derivationExpression
    }

    /// Reads a derived attribute archived by `encode(with:)` (the attribute's fields,
    /// the expression as its text).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        _derivationExpression = derivationExpressionString.flatMap(DerivedValue.expression(parsing:))
    }

    /// Sets the derivation from a model file's text, kept as written for the version hash.
    func setDerivation(text: String) {
        derivationExpressionString = text
        _derivationExpression = DerivedValue.expression(parsing: text)
    }
}

/// How derived attributes read and evaluate their expressions.
enum DerivedValue {
    /// The expression of a model file's (or a format string's) derivation text. Model
    /// files write functions as `lowercase:(name)`; the parser reads `lowercase(name)`;
    /// `canonical:` is a Core Data derivation function, not an `NSExpression` one.
    static func expression(parsing text: String) -> NSExpression? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "([A-Za-z]+):\\(", with: "$1(", options: .regularExpression)
        if trimmed.hasPrefix("canonical(") && trimmed.hasSuffix(")") {
            let inner = String(trimmed.dropFirst("canonical(".count).dropLast())
            guard let argument = try? NSExpression.parse(format: inner) else { return nil }
            return NSExpression(forFunction: "canonical:", arguments: [argument])
        }
        return try? NSExpression.parse(format: trimmed)
    }

    /// The text of an expression set in code, as a model file would write it (what the
    /// version hash reads).
    static func text(_ expression: NSExpression) -> String {
        if expression.expressionType == .function, expression.function == "canonical:",
           let argument = expression.arguments?.first {
            return "canonical:(\(argument))"
        }
        return expression.description
    }

    /// The value of `expression` for `object`; nil when it cannot be evaluated.
    static func evaluate(_ expression: NSExpression, with object: Any) -> Any? {
        if expression.expressionType == .function, expression.function == "canonical:",
           let argument = expression.arguments?.first {
            let value = argument.expressionValue(with: object, context: nil)
            guard let string = value as? String else { return value }
            return string.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        return expression.expressionValue(with: object, context: nil)
    }
}
