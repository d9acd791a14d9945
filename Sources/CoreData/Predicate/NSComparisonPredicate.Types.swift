import Foundation

extension NSComparisonPredicate {
    /// The comparison operator, with Apple's raw values.
    public enum Operator: UInt, Sendable {
        case lessThan = 0
        case lessThanOrEqualTo = 1
        case greaterThan = 2
        case greaterThanOrEqualTo = 3
        case equalTo = 4
        case notEqualTo = 5
        case matches = 6
        case like = 7
        case beginsWith = 8
        case endsWith = 9
        case `in` = 10
        case customSelector = 11
        case contains = 99
        case between = 100
    }

    /// How the left side is applied: directly, or to every (ALL) / some (ANY) element.
    /// `NONE` is written `NOT ANY`.
    public enum Modifier: UInt, Sendable {
        case direct = 0
        case all = 1
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
