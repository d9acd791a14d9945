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
    /// let mine = NSPredicate(format: "owner == %@ AND id IN %@", person, ids)
    /// ```
    ///
    /// `%@` takes any value Apple accepts: strings, numbers, dates, UUIDs, URLs, data,
    /// managed objects and object IDs (a fetch compares an object ID as the object it
    /// names), arrays, sets and dictionaries of them (for `IN` and `BETWEEN`), an
    /// `NSExpression` (used as the expression itself) and `NSNull` for nil.
    ///
    /// A format string that does not parse, a missing argument or a `%K` given a
    /// non-string is a programmer error, as on Apple: this stops the program with Apple's
    /// wording (`Unable to parse the format string "…"`, followed here by the reason and
    /// the character position), in release builds too. For text typed by users, call the
    /// throwing ``init(validatingFormat:argumentArray:)`` instead.
    public init(format predicateFormat: String, _ args: CVarArg...) {
        self.init(format: predicateFormat, argumentArray: args.map { $0 as Any })
    }

    /// Parses a predicate format string with an argument array; `NSNull()` (or an
    /// `Optional` that is nil) stands for nil. Stops the program on a bad format, like
    /// ``init(format:_:)``.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        do {
            try self.init(validatingFormat: predicateFormat, argumentArray: arguments)
        } catch {
            coreDataMisuse(error.localizedDescription)
        }
    }

    /// Parses a predicate format string, throwing instead of stopping the program when it
    /// does not parse: the entry point for format strings that come from users or files.
    ///
    /// ```swift
    /// do {
    ///     request.predicate = try NSPredicate(validatingFormat: typedByUser)
    /// } catch let error as NSError {
    ///     print(error.localizedDescription)  // Unable to parse the format string "…": …
    /// }
    /// ```
    ///
    /// - Throws: an `NSError` in `NSCocoaErrorDomain` with code `NSFormattingError`
    ///   (2048): `NSLocalizedDescriptionKey` holds Apple's wording plus the reason and the
    ///   character position, `"NSPredicateFormatString"` the format and
    ///   `"NSPredicateFormatPosition"` the zero-based position.
    /// - Note: Apple parity: our addition. Apple's `NSPredicate(format:)` raises an
    ///   Objective-C exception for a bad format, which Swift cannot catch; this
    ///   initializer is the throwing twin that the C API and user-typed text need.
    public init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]? = nil) throws {
        let parsed = try NSPredicate.parse(format: predicateFormat, arguments: arguments ?? [])
        guard let result = parsed as? Self else {
            throw PredicateParseError(
                format: predicateFormat,
                reason: "it parses to a \(type(of: parsed)), not a \(Self.self)", position: 0
            ).nsError
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
    /// `"sum:(items.price)"`, substituting `args` as `NSPredicate(format:)` does.
    /// Stops the program on a bad format, with Apple's wording, in release builds too.
    public convenience init(format expressionFormat: String, _ args: CVarArg...) {
        self.init(format: expressionFormat, argumentArray: args.map { $0 as Any })
    }

    /// Parses an expression format string with an argument array. Stops the program on a
    /// bad format.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            try self.init(validatingFormat: expressionFormat, argumentArray: arguments)
        } catch {
            coreDataMisuse(error.localizedDescription)
        }
    }

    /// Parses an expression format string, throwing instead of stopping the program when
    /// it does not parse.
    ///
    /// - Throws: the `NSError` of `NSPredicate(validatingFormat:argumentArray:)`.
    /// - Note: Apple parity: our addition, the throwing twin of `NSExpression(format:)`.
    public convenience init(validatingFormat expressionFormat: String, argumentArray arguments: [Any] = []) throws {
        self.init(kind: try NSExpression.parse(format: expressionFormat, arguments: arguments).kind)
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
