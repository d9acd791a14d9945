import Synchronization

/// The token lists of recently parsed format strings, so a predicate built per call
/// (`NSPredicate(format: "ident == %lld", ident)` in a loop) is tokenized once.
///
/// Tokens depend on the format string alone (arguments are consumed by the parser), so a
/// cached list is exactly what tokenizing again would give. Format strings that fail to
/// tokenize are not kept. The cache holds at most ``limit`` strings and starts over when
/// full: programs use a handful of format strings over and over, while a program that
/// builds format strings from data should not grow it without bound.
enum PredicateTokenCache {
    static let limit = 256

    private static let recent = Mutex<[String: [PredicateToken]]>([:])

    /// The tokens of `format`, from the cache or tokenized now.
    static func tokens(of format: String) throws(PredicateParseError) -> [PredicateToken] {
        if let cached = recent.withLock({ $0[format] }) { return cached }
        let tokens = try PredicateLexer.tokenize(format)
        recent.withLock { recent in
            if recent.count >= limit { recent.removeAll(keepingCapacity: true) }
            recent[format] = tokens
        }
        return tokens
    }

    /// Whether `format`'s tokens are cached (for tests).
    static func contains(_ format: String) -> Bool { recent.withLock { $0[format] != nil } }

    /// How many format strings are cached (for tests).
    static var count: Int { recent.withLock { $0.count } }
}
