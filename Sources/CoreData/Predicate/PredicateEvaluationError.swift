import Foundation

/// Why evaluating a predicate or expression failed at run time: an unknown key, an
/// unbound `$VAR`, operands that cannot be compared, a bare to-many key path.
///
/// Foundation raises an Objective-C exception in these cases; the throwing evaluation
/// entry points throw ``nsError`` instead, and `evaluate(with:)` answers `false`.
enum PredicateEvaluationError: Error, CustomStringConvertible {
    /// A key that the object does not have (`valueForUndefinedKey:` on Apple).
    case unknownKey(String)
    /// `$NAME` with no binding.
    case unboundVariable(String)
    /// Operands of the wrong type for the operator (ordering a string against a number).
    case typeMismatch(String)
    /// A to-many key path used where one value is needed
    /// (<doc:PredicateLanguage#To-many-key-paths>).
    case toManyKeyNotAllowed(String)
    /// A malformed operand (BETWEEN without two bounds, an invalid regular expression).
    case invalidArgument(String)
    /// A construct we parse but cannot evaluate on Linux (custom FUNCTION selectors).
    case unsupported(String)

    var description: String {
        switch self {
        case .unknownKey(let m), .typeMismatch(let m), .invalidArgument(let m),
             .unsupported(let m), .toManyKeyNotAllowed(let m):
            return m
        case .unboundVariable(let name): return "Can't get value for '\(name)' in bindings"
        }
    }

    /// An unknown key of an entity, named as the errors of both back ends name it.
    static func unknownKey(_ key: String, entityName: String?) -> PredicateEvaluationError {
        .unknownKey("the entity \(entityName ?? "?") has no property named '\(key)'")
    }

    /// `NSCocoaErrorDomain`; unknown keys use `NSKeyValueValidationError` (1024),
    /// everything else `NSFormattingError` (2048) with the message as the description.
    var nsError: NSError {
        let code: Int
        if case .unknownKey = self { code = CocoaError.keyValueValidation.rawValue }
        else { code = CocoaError.formatting.rawValue }
        return NSError(domain: NSCocoaErrorDomain, code: code,
                       userInfo: [NSLocalizedDescriptionKey: description])
    }
}
