import Foundation

/// A recursive-descent parser for predicate format strings (<doc:PredicateLanguage#Grammar>,
/// <doc:PredicateLanguage#Precedence>), producing ``NSComparisonPredicate``, compound predicates
/// and ``NSExpression`` trees.
///
/// Format arguments are bound while parsing: `%@` becomes a constant (never re-parsed as
/// syntax), `%K` a key path. Every failure is a ``PredicateParseError`` naming what went
/// wrong and where; nothing here traps, whatever the input.
///
/// Precedence: `NOT` > `AND` > `OR`; in expressions unary minus > `**` > `* /` > `+ -`,
/// all left-associative. A parenthesis may open a predicate (`(a > 1 OR b < 2)`) or an
/// expression (`(a + b) > 3`): the parser reads the parenthesised text as a predicate and
/// lets a bare expression through only when a comparison operator follows the `)`.
struct PredicateParser {
    /// A parenthesised group: a predicate, or an expression that a comparison will use.
    enum Group {
        case predicate(NSPredicate)
        case expression(NSExpression)
    }

    let format: String
    let tokens: [PredicateToken]
    var position = 0
    let arguments: [Any]
    var argumentIndex = 0
    var depth = 0
    static let maximumDepth = 200

    init(format: String, arguments: [Any]) throws(PredicateParseError) {
        self.format = format
        self.arguments = arguments
        tokens = try PredicateTokenCache.tokens(of: format)
    }

    // MARK: - Entry points

    /// Parses a whole predicate format string.
    static func parsePredicate(
        _ format: String, arguments: [Any]
    ) throws(PredicateParseError) -> NSPredicate {
        do {
            var parser = try PredicateParser(format: format, arguments: arguments)
            if parser.current.kind == .end { throw parser.error("the format string is empty") }
            guard case .predicate(let predicate) = try parser.parseOr(allowBare: false) else {
                throw parser.error("expected a predicate")
            }
            try parser.expectEnd()
            return predicate
        } catch let error as PredicateParseError {
            throw error
        } catch {
            throw PredicateParseError(format: format, reason: "\(error)", position: 0)
        }
    }

    /// Parses a format string holding one expression (`NSExpression(format:)`).
    static func parseExpression(
        _ format: String, arguments: [Any]
    ) throws(PredicateParseError) -> NSExpression {
        do {
            var parser = try PredicateParser(format: format, arguments: arguments)
            if parser.current.kind == .end { throw parser.error("the format string is empty") }
            let expression = try parser.parseExpression()
            try parser.expectEnd()
            return expression
        } catch let error as PredicateParseError {
            throw error
        } catch {
            throw PredicateParseError(format: format, reason: "\(error)", position: 0)
        }
    }

    // MARK: - Tokens

    var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

    func peek(_ offset: Int) -> PredicateToken {
        tokens[min(position + offset, tokens.count - 1)]
    }

    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func error(_ reason: String, at token: PredicateToken? = nil) -> PredicateParseError {
        PredicateParseError(format: format, reason: reason,
                            position: (token ?? current).position)
    }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    func isKeyword(_ word: String) -> Bool { current.kind == .keyword(word) }

    mutating func expectSymbol(_ symbol: String, _ context: String) throws {
        guard isSymbol(symbol) else {
            throw error("expected '\(symbol)' \(context), found \(describe(current))")
        }
        advance()
    }

    mutating func expectEnd() throws {
        guard current.kind == .end else {
            throw error("unexpected \(describe(current)) after the end of the predicate "
                + "(extraneous tokens at end of string)")
        }
    }

    func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .identifier(let name, let escaped): return "'\(escaped ? "#" : "")\(name)'"
        case .keyword(let word): return "'\(word)'"
        case .atKey(let name): return "'@\(name)'"
        case .integer(let value): return "'\(value)'"
        case .double(let value): return "'\(value)'"
        case .string(let value): return "the string \"\(value)\""
        case .variable(let name): return "'$\(name)'"
        case .specifier(let conversion): return "'%\(conversion)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "the end of the string"
        }
    }

    mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting is too deep") }
    }

    // MARK: - Predicates

    mutating func parseOr(allowBare: Bool) throws -> Group {
        let first = try parseAnd(allowBare: allowBare)
        guard case .predicate(let head) = first else { return first }
        var parts = [head]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            parts.append(try parsePredicateOperand { try $0.parseAnd(allowBare: false) })
        }
        return .predicate(parts.count == 1 ? head : ParsedCompoundPredicate(.or, parts))
    }

    mutating func parseAnd(allowBare: Bool) throws -> Group {
        let first = try parseNot(allowBare: allowBare)
        guard case .predicate(let head) = first else { return first }
        var parts = [head]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            parts.append(try parsePredicateOperand { try $0.parseNot(allowBare: false) })
        }
        return .predicate(parts.count == 1 ? head : ParsedCompoundPredicate(.and, parts))
    }

    private mutating func parsePredicateOperand(
        _ body: (inout PredicateParser) throws -> Group
    ) throws -> NSPredicate {
        let start = current
        if isKeyword("AND") || isKeyword("OR") || isSymbol("&&") || isSymbol("||") {
            throw error("doubled \(describe(current)): expected a predicate")
        }
        guard case .predicate(let predicate) = try body(&self) else {
            throw error("expected a comparison operator after the expression starting at "
                + "\(describe(start))")
        }
        return predicate
    }

    mutating func parseNot(allowBare: Bool) throws -> Group {
        if isKeyword("NOT") || isSymbol("!") {
            advance()
            try enter()
            defer { depth -= 1 }
            let inner = try parsePredicateOperand { try $0.parseNot(allowBare: false) }
            return .predicate(ParsedCompoundPredicate(.not, [inner]))
        }
        return try parsePrimary(allowBare: allowBare)
    }

    mutating func parsePrimary(allowBare: Bool) throws -> Group {
        if isKeyword("TRUEPREDICATE") { advance(); return .predicate(ConstantPredicate(true)) }
        if isKeyword("FALSEPREDICATE") { advance(); return .predicate(ConstantPredicate(false)) }
        if isSymbol("(") {
            advance()
            try enter()
            let inner = try parseOr(allowBare: true)
            try expectSymbol(")", "to close the parenthesis")
            depth -= 1
            switch inner {
            case .predicate(let predicate): return .predicate(predicate)
            case .expression(let seed): return try parseComparison(seed: seed, allowBare: allowBare)
            }
        }
        return try parseComparison(seed: nil, allowBare: allowBare)
    }

    /// `[ANY|SOME|ALL|NONE] expression operator[options] expression`. With a `seed`, the
    /// left expression starts from an already parsed parenthesised expression.
    mutating func parseComparison(seed: NSExpression?, allowBare: Bool) throws -> Group {
        var modifier = NSComparisonPredicate.Modifier.direct
        var negate = false
        if seed == nil {
            switch current.kind {
            case .keyword("ANY"), .keyword("SOME"): modifier = .any; advance()
            case .keyword("ALL"): modifier = .all; advance()
            case .keyword("NONE"): modifier = .any; negate = true; advance()
            default: break
            }
        }
        let lhs = try parseExpression(seed: seed)
        guard let op = comparisonOperator(current.kind) else {
            if allowBare, modifier == .direct, isSymbol(")") { return .expression(lhs) }
            if case .identifier(let word, false) = current.kind {
                throw error("unknown operator '\(word)'")
            }
            throw error("expected a comparison operator, found \(describe(current)) "
                + "(a bare expression such as 'active' must be written 'active == YES')")
        }
        advance()
        var options: NSComparisonPredicate.Options = []
        if isSymbol("[") && op.type != .between {
            options = try parseOptions()
        }
        let rhs = try parseExpression()
        let predicate: NSPredicate
        if let selector = op.selector {
            predicate = NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs,
                                              modifier: modifier,
                                              customSelector: Selector(selector))
        } else {
            predicate = NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs,
                                              modifier: modifier, type: op.type,
                                              options: options)
        }
        return .predicate(negate ? ParsedCompoundPredicate(.not, [predicate]) : predicate)
    }

    private func comparisonOperator(
        _ kind: PredicateToken.Kind
    ) -> (type: NSComparisonPredicate.Operator, selector: String?)? {
        switch kind {
        case .symbol("=="): return (.equalTo, nil)
        case .symbol("!="): return (.notEqualTo, nil)
        case .symbol("<"): return (.lessThan, nil)
        case .symbol("<="): return (.lessThanOrEqualTo, nil)
        case .symbol(">"): return (.greaterThan, nil)
        case .symbol(">="): return (.greaterThanOrEqualTo, nil)
        case .keyword("IN"): return (.in, nil)
        case .keyword("CONTAINS"): return (.contains, nil)
        case .keyword("BEGINSWITH"): return (.beginsWith, nil)
        case .keyword("ENDSWITH"): return (.endsWith, nil)
        case .keyword("LIKE"): return (.like, nil)
        case .keyword("MATCHES"): return (.matches, nil)
        case .keyword("BETWEEN"): return (.between, nil)
        case .keyword("UTI-CONFORMS-TO"): return (.customSelector, "UTI-CONFORMS-TO")
        case .keyword("UTI-EQUALS"): return (.customSelector, "UTI-EQUALS")
        default: return nil
        }
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]`, `[l]` in any combination.
    private mutating func parseOptions() throws -> NSComparisonPredicate.Options {
        let open = current
        advance()
        guard case .identifier(let letters, false) = current.kind else {
            throw error("malformed option bracket: expected letters from c, d, n, l", at: open)
        }
        var options: NSComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default:
                throw error("malformed option bracket: unknown option '\(letter)' "
                    + "(expected c, d, n or l)")
            }
        }
        advance()
        try expectSymbol("]", "to close the option bracket")
        return options
    }
}
