import Foundation

/// Lets `NSPredicate(format:…)` be a factory initializer returning our subclasses
/// (<doc:DifferencesFromApple#Living-beside-Foundation>): Foundation's own format initializers are
/// unavailable on Linux, so overload resolution picks these.
public protocol _PredicateFactory {}

extension NSPredicate: _PredicateFactory {}

extension _PredicateFactory where Self: NSPredicate {

    /// Parses a predicate format string, substituting `args` for `%@`, `%K`, `%d`, ….
    ///
    /// ```swift
    /// let adults = NSPredicate(format: "age >= %d AND name BEGINSWITH[c] %@", 18, "a")
    /// ```
    ///
    /// A format string that does not parse, a missing argument or a `%K` given a
    /// non-string is a programmer error: this traps with Apple's wording
    /// (`Unable to parse the format string "…"`), where Apple's raises an exception. The
    /// module's internal throwing twin (which the C API uses) reports the same problems as an
    /// `NSError`; see <doc:PredicateLanguage#Errors-in-a-format-string>.
    public init(format predicateFormat: String, _ args: CVarArg...) {
        self.init(format: predicateFormat, argumentArray: args.map { $0 as Any })
    }

    /// Parses a predicate format string with an argument array; `NSNull()` stands for nil.
    /// Traps on a bad format, like ``init(format:_:)``.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let parsed: NSPredicate
        do {
            parsed = try PredicateParser.parsePredicate(predicateFormat,
                                                        arguments: arguments ?? [])
        } catch {
            preconditionFailure(
                "Unable to parse the format string \"\(predicateFormat)\": \(error.reason) "
                    + "at character \(error.position)")
        }
        guard let result = parsed as? Self else {
            preconditionFailure("The format string \"\(predicateFormat)\" parses to a "
                + "\(type(of: parsed)), not a \(Self.self)")
        }
        self = result
    }
}

extension NSPredicate {

    /// The throwing twin of `NSPredicate(format:argumentArray:)`.
    ///
    /// - Throws: an `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError`
    ///   (2048) whose `NSLocalizedDescriptionKey` names the problem and the character
    ///   position (also under `"NSPredicateFormatPosition"`).
    static func parse(format: String, arguments: [Any] = []) throws -> NSPredicate {
        do {
            return try PredicateParser.parsePredicate(format, arguments: arguments)
        } catch {
            throw error.nsError
        }
    }

    /// The throwing twin of `evaluate(with:substitutionVariables:)`: unknown keys,
    /// unbound variables, incomparable operands and bare to-many key paths throw an
    /// `NSError` in `NSCocoaErrorDomain` instead of answering `false`.
    func evaluateOrThrow(with object: Any?,
                         substitutionVariables bindings: [String: Any]? = nil) throws -> Bool {
        do {
            return try PredicateEvaluator(bindings: PredicateBindings(bindings ?? [:]))
                .evaluate(self, object: object)
        } catch let error as PredicateEvaluationError {
            throw error.nsError
        }
    }

    /// The canonical format string of any predicate, including Foundation's own
    /// `NSCompoundPredicate`s (whose `predicateFormat` is wrong on Linux).
    var formattedPredicate: String { PredicateFormatter.format(self) }
}

extension NSExpression {

    /// Parses an expression format string such as `"price * quantity"` or
    /// `"sum(items.price)"`. Traps on a bad format, with Apple's wording.
    public convenience init(format expressionFormat: String, _ args: CVarArg...) {
        self.init(format: expressionFormat, argumentArray: args.map { $0 as Any })
    }

    /// Parses an expression format string with an argument array. Traps on a bad format.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            let parsed = try PredicateParser.parseExpression(expressionFormat,
                                                             arguments: arguments)
            self.init(kind: parsed.kind)
        } catch {
            preconditionFailure(
                "Unable to parse the format string \"\(expressionFormat)\": \(error.reason) "
                    + "at character \(error.position)")
        }
    }

    /// The throwing twin of `NSExpression(format:argumentArray:)`.
    static func parse(format: String, arguments: [Any] = []) throws -> NSExpression {
        do {
            return try PredicateParser.parseExpression(format, arguments: arguments)
        } catch {
            throw error.nsError
        }
    }
}
