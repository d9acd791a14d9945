import Foundation

extension NSComparisonPredicate {
    /// The comparison operator, with Apple's raw values.
    public enum Operator: UInt, Sendable {
        /// `<`
        case lessThan = 0
        /// `<=` (also written `=<`)
        case lessThanOrEqualTo = 1
        /// `>`
        case greaterThan = 2
        /// `>=` (also written `=>`)
        case greaterThanOrEqualTo = 3
        /// `==` (also written `=`)
        case equalTo = 4
        /// `!=` (also written `<>`); true when the left side is nil and the right is not.
        case notEqualTo = 5
        /// `MATCHES`: an ICU regular expression matching the whole string.
        case matches = 6
        /// `LIKE`: a whole-string pattern with `*` and `?` wildcards.
        case like = 7
        /// `BEGINSWITH`
        case beginsWith = 8
        /// `ENDSWITH`
        case endsWith = 9
        /// `IN`: membership in a collection, or a substring of a string.
        case `in` = 10
        /// A comparison by the method named in
        /// ``NSComparisonPredicate/customSelector``.
        case customSelector = 11
        /// `CONTAINS`: a substring of a string, or membership in a collection on the left.
        case contains = 99
        /// `BETWEEN`: inclusive bounds given as a two-element collection.
        case between = 100
    }

    /// How the left side is applied: directly, or to every (ALL) / some (ANY) element.
    /// `NONE` is written `NOT ANY`.
    public enum Modifier: UInt, Sendable {
        /// No quantifier: the left side is compared as one value.
        case direct = 0
        /// `ALL`: every element of the left collection satisfies the comparison (true when it
        /// is empty).
        case all = 1
        /// `ANY` or `SOME`: at least one element does.
        case any = 2
    }

    /// String comparison options: `[c]`, `[d]`, `[n]`, `[l]`, with Apple's raw values.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: full Unicode case folding.
        public static let caseInsensitive = Options(rawValue: 0x01)
        /// `[d]`: diacritics are ignored.
        public static let diacriticInsensitive = Options(rawValue: 0x02)
        /// `[n]`: the strings are already folded; supersedes `[c]` and `[d]`.
        public static let normalized = Options(rawValue: 0x04)
        /// `[l]`: NSLocaleSensitivePredicateOption (accepted, no effect on evaluation).
        public static let localeSensitive = Options(rawValue: 0x08)
    }
}
