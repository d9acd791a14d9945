import Foundation

/// A format string that cannot be parsed, or a format argument that does not fit its specifier
/// (<doc:PredicateLanguage#Errors-in-a-format-string>). Converted to an `NSError` by ``nsError``.
struct PredicateParseError: Error, CustomStringConvertible {
    /// The format string being parsed.
    let format: String
    /// What went wrong, in words (without the position).
    let reason: String
    /// Zero-based character offset in `format` where the problem was found.
    let position: Int

    /// `Unable to parse the format string "…": <reason> at character <n>`.
    var description: String {
        "Unable to parse the format string \"\(format)\": \(reason) at character \(position)"
    }

    /// The `NSError` thrown by the throwing parser: `NSCocoaErrorDomain`,
    /// `NSFormattingError` (2048), the description under `NSLocalizedDescriptionKey`, and
    /// the format string and position under ``formatKey`` and ``positionKey``.
    var nsError: NSError {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.formatting.rawValue, userInfo: [
            NSLocalizedDescriptionKey: description,
            NSLocalizedFailureReasonErrorKey: reason,
            PredicateParseError.formatKey: format,
            PredicateParseError.positionKey: position,
        ])
    }

    /// userInfo key holding the format string that failed to parse.
    static let formatKey = "NSPredicateFormatString"
    /// userInfo key holding the zero-based character position of the error.
    static let positionKey = "NSPredicateFormatPosition"
}
