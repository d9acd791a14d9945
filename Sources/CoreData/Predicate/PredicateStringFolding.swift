import Foundation

/// The string side of the comparison options (<doc:PredicateLanguage#String-options>,
/// <doc:PredicateLanguage#Pattern-operators>): folding for `[c]`/`[d]`, LIKE's wildcards, MATCHES'
/// anchored regular expressions and the substring operators.
enum PredicateStringFolding {

    // MARK: - Folding

    /// Folds `string` as the options ask: `[d]` removes diacritics (canonical decomposition,
    /// combining marks dropped), `[c]` applies full Unicode case folding (so `ß` folds to
    /// `ss`). `[n]` means the strings are already normalized, so nothing is done.
    static func fold(_ string: String, _ options: NSComparisonPredicate.Options) -> String {
        if options.contains(.normalized) { return string }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        if folding.isEmpty { return string }
        return string.folding(options: folding, locale: nil)
    }

    // MARK: - Substrings

    /// CONTAINS / IN on strings. An empty needle never matches.
    ///
    /// - Note: Apple parity: Foundation's `rangeOfString:` reports "not found" for `""`, so
    ///   `x CONTAINS ''`, `x BEGINSWITH ''`, `x ENDSWITH ''` and `'' IN x` are false here too
    ///   (Swift's `contains("")` would say true). The SQL translator must match this.
    static func contains(
        _ haystack: String, _ needle: String, _ options: NSComparisonPredicate.Options
    ) -> Bool {
        guard !needle.isEmpty else { return false }
        return fold(haystack, options).contains(fold(needle, options))
    }

    static func beginsWith(
        _ string: String, _ prefix: String, _ options: NSComparisonPredicate.Options
    ) -> Bool {
        guard !prefix.isEmpty else { return false }
        return fold(string, options).hasPrefix(fold(prefix, options))
    }

    static func endsWith(
        _ string: String, _ suffix: String, _ options: NSComparisonPredicate.Options
    ) -> Bool {
        guard !suffix.isEmpty else { return false }
        return fold(string, options).hasSuffix(fold(suffix, options))
    }

    // MARK: - LIKE

    /// LIKE: an anchored match where only `*` (any run) and `?` (one character) are
    /// wildcards and a backslash makes the next character literal. Everything else,
    /// `.`, `%`, `_`, `[`, `]` and `^` included, is literal.
    static func like(
        _ string: String, _ pattern: String, _ options: NSComparisonPredicate.Options
    ) -> Bool {
        enum Piece: Equatable { case literal(Character), one, any }
        var pieces: [Piece] = []
        var escaped = false
        for character in fold(pattern, options) {
            if escaped { pieces.append(.literal(character)); escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "*": pieces.append(.any)
            case "?": pieces.append(.one)
            default: pieces.append(.literal(character))
            }
        }
        if escaped { pieces.append(.literal("\\")) }
        let text = Array(fold(string, options))
        // Greedy matching with a single backtrack point for the last `*`: O(n·m) worst case.
        var t = 0, p = 0
        var star: Int? = nil, starText = 0
        while t < text.count {
            if p < pieces.count, pieces[p] == .one || pieces[p] == .literal(text[t]) {
                t += 1; p += 1
            } else if p < pieces.count, pieces[p] == .any {
                star = p; starText = t; p += 1
            } else if let s = star {
                p = s + 1; starText += 1; t = starText
            } else {
                return false
            }
        }
        while p < pieces.count, pieces[p] == .any { p += 1 }
        return p == pieces.count
    }

    // MARK: - MATCHES

    /// MATCHES: an ICU regular expression that must match the entire string. `[c]` sets
    /// the case-insensitive flag; `[d]` folds diacritics out of the tested string.
    static func matches(
        _ string: String, _ pattern: String, _ options: NSComparisonPredicate.Options
    ) throws -> Bool {
        let regex = try PredicateRegexCache.shared.regex(
            pattern, caseInsensitive: options.contains(.caseInsensitive)
                && !options.contains(.normalized))
        var subject = string
        if options.contains(.diacriticInsensitive), !options.contains(.normalized) {
            subject = fold(string, [.diacriticInsensitive])
        }
        let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        guard let match = regex.firstMatch(in: subject, options: [.anchored], range: range)
        else { return false }
        return match.range == range
    }
}

/// Compiled MATCHES patterns, shared by all evaluations.
final class PredicateRegexCache: @unchecked Sendable {  // `lock` guards `entries`.
    static let shared = PredicateRegexCache()
    private let lock = NSLock()
    private var entries: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = entries[key] { return cached }
        // Wrap so alternations stay inside the anchors: `a|b` must match all of "a" or "b".
        let wrapped = "(?:" + pattern + ")\\z"
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(
                pattern: wrapped, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw PredicateEvaluationError.invalidArgument(
                "Can't do regex matching, reason: invalid regular expression \"\(pattern)\"")
        }
        if entries.count > 256 { entries.removeAll() }
        entries[key] = regex
        return regex
    }
}
