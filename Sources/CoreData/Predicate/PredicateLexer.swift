import Foundation

/// One token of a predicate format string, with its character offset.
struct PredicateToken: Sendable {
    enum Kind: Equatable, Sendable {
        /// A key (`name`), or a `#`-escaped one (`#size`, escaped == true).
        case identifier(String, escaped: Bool)
        /// A reserved word, upper-cased: `AND`, `BEGINSWITH`, `UTI-CONFORMS-TO`, ….
        case keyword(String)
        /// `@count`, `@sum`: a collection operator key.
        case atKey(String)
        case integer(Int64)
        case double(Double)
        case string(String)
        /// `$NAME`.
        case variable(String)
        /// `%@`, `%K`, `%d`, `%ld`, …: the conversion without the `%`.
        case specifier(String)
        /// Punctuation and operators, canonical spelling: `==` for `=`, `<=` for `=<`,
        /// `!=` for `<>`, `&&`, `||`, `!`, `+`, `-`, `*`, `/`, `**`, `:=`, `(`, `)`, `{`,
        /// `}`, `[`, `]`, `,`, `.`.
        case symbol(String)
        case end
    }

    let kind: Kind
    /// Zero-based character offset in the format string.
    let position: Int
}

/// Splits a predicate format string into tokens (<doc:PredicateLanguage#Tokens>).
///
/// Keywords are case-insensitive, identifiers are C identifiers, strings take either
/// quote with backslash escapes (`\n \t \r \\ \' \" \xhh \uhhhh \ooo`), numbers take
/// exponents and `0x`/`0o`/`0b` prefixes. Format specifiers inside quotes are plain text.
struct PredicateLexer {
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE",
        "CI", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL",
        "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY",
        "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO", "UTI-EQUALS",
    ]

    private let format: String
    private let chars: [Character]
    private var index = 0

    init(_ format: String) {
        self.format = format
        chars = Array(format)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ format: String) throws(PredicateParseError) -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ reason: String, at position: Int) -> PredicateParseError {
        PredicateParseError(format: format, reason: reason, position: position)
    }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private static func isIdentifierStart(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && c.isLetter)
    }

    private static func isIdentifierBody(_ c: Character) -> Bool {
        c == "_" || (c.isASCII && (c.isLetter || c.isNumber))
    }

    // MARK: - Tokens

    mutating func next() throws(PredicateParseError) -> PredicateToken {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = index
        guard let c = peek() else { return PredicateToken(kind: .end, position: start) }
        func token(_ kind: PredicateToken.Kind) -> PredicateToken {
            PredicateToken(kind: kind, position: start)
        }
        if Self.isIdentifierStart(c) {
            let word = readIdentifier()
            let upper = word.uppercased()
            if upper == "UTI", peek() == "-" {
                for compound in ["UTI-CONFORMS-TO", "UTI-EQUALS"] {
                    let rest = Array(compound.dropFirst(3))
                    if index + rest.count <= chars.count,
                       String(chars[index..<index + rest.count]).uppercased() == String(rest),
                       index + rest.count == chars.count
                        || !Self.isIdentifierBody(chars[index + rest.count])
                    {
                        index += rest.count
                        return token(.keyword(compound))
                    }
                }
            }
            if Self.reservedWords.contains(upper) { return token(.keyword(upper)) }
            return token(.identifier(word + readSelectorTail(), escaped: false))
        }
        if c.isASCII, c.isNumber { return token(try readNumber()) }
        switch c {
        case "\"", "'": return token(.string(try readString(quote: c)))
        case "#", "@", "$":
            index += 1
            guard let first = peek(), Self.isIdentifierStart(first) else {
                throw error("expected an identifier after '\(c)'", at: start)
            }
            let word = readIdentifier()
            if c == "#" { return token(.identifier(word, escaped: true)) }
            if c == "@" { return token(.atKey(word)) }
            return token(.variable(word))
        case "%": return token(try readSpecifier())
        default: break
        }
        let two = peek(1).map { String([c, $0]) } ?? ""
        let twoCharacter: [String: String] = [
            "==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=", ">=": ">=",
            "=>": ">=", "&&": "&&", "||": "||", "**": "**", ":=": ":=",
        ]
        if let symbol = twoCharacter[two] {
            index += 2
            if symbol == "==" || symbol == "!=", peek() == "=" {
                throw error("unknown operator '\(two)='", at: start)
            }
            return token(.symbol(symbol))
        }
        if c == ">" && peek(1) == ">" { throw error("unknown operator '>>'", at: start) }
        if c == "<" && peek(1) == "<" { throw error("unknown operator '<<'", at: start) }
        let single: [Character: String] = [
            "=": "==", "<": "<", ">": ">", "!": "!", "+": "+", "-": "-", "*": "*", "/": "/",
            "(": "(", ")": ")", "{": "{", "}": "}", "[": "[", "]": "]", ",": ",", ".": ".",
        ]
        if let symbol = single[c] {
            index += 1
            return token(.symbol(symbol))
        }
        if c == "?" {
            throw error("'?' is not a valid token (LIKE wildcards only work inside strings)",
                        at: start)
        }
        throw error("unexpected character '\(c)'", at: start)
    }

    /// The `:` parts of a selector name written as a function call, the way Apple prints
    /// functions (`sum:(items.price)`, `modulus:by:(a, 2)`): colons directly after the
    /// identifier, each followed by more of the name or by the `(` of the call. A `:=`
    /// assignment is left alone.
    private mutating func readSelectorTail() -> String {
        let start = index
        var end = index
        while peek() == ":", peek(1) != "=" {
            index += 1
            while let c = peek(), Self.isIdentifierBody(c) { index += 1 }
            end = index
        }
        let nextIsCall = peek() == "("
        guard end > start, nextIsCall || chars[end - 1] == ":" else {
            index = start
            return ""
        }
        return String(chars[start..<end])
    }

    private mutating func readIdentifier() -> String {
        let start = index
        while let c = peek(), Self.isIdentifierBody(c) { index += 1 }
        return String(chars[start..<index])
    }

    // MARK: - Numbers

    private mutating func readNumber() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        if peek() == "0", let p = peek(1), "xXoObB".contains(p) {
            index += 2
            let radix = "xX".contains(p) ? 16 : ("oO".contains(p) ? 8 : 2)
            let digitsStart = index
            while let c = peek(), c.isASCII, c.isHexDigit || c == "_" { index += 1 }
            let digits = String(chars[digitsStart..<index])
            guard let value = Int64(digits, radix: radix) else {
                throw error("malformed number '\(String(chars[start..<index]))'", at: start)
            }
            return .integer(value)
        }
        var isDouble = false
        while let c = peek(), c.isASCII, c.isNumber { index += 1 }
        if peek() == ".", let d = peek(1), d.isASCII, d.isNumber {
            isDouble = true
            index += 1
            while let c = peek(), c.isASCII, c.isNumber { index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var look = 1
            if let sign = peek(1), sign == "+" || sign == "-" { look = 2 }
            if let d = peek(look), d.isASCII, d.isNumber {
                isDouble = true
                index += look
                while let c = peek(), c.isASCII, c.isNumber { index += 1 }
            }
        }
        if let c = peek(), Self.isIdentifierStart(c) {
            throw error("malformed number '\(String(chars[start...index]))'", at: start)
        }
        let text = String(chars[start..<index])
        if !isDouble, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else {
            throw error("malformed number '\(text)'", at: start)
        }
        return .double(value)
    }

    // MARK: - Strings

    private mutating func readString(quote: Character) throws(PredicateParseError) -> String {
        let start = index
        index += 1
        var result = ""
        while true {
            guard let c = peek() else { throw error("unterminated string", at: start) }
            index += 1
            if c == quote { return result }
            guard c == "\\" else { result.append(c); continue }
            guard let e = peek() else { throw error("unterminated string", at: start) }
            index += 1
            switch e {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0"..."7":
                // Characters compare as grapheme clusters: "1\u{301}" (a digit with a combining
                // mark) sorts between "1" and "2", so only ASCII digits are octal digits.
                var digits = String(e)
                while digits.count < 3, let d = peek(), d.isASCII, ("0"..."7").contains(d) {
                    digits.append(d); index += 1
                }
                guard e.isASCII, let code = UInt16(digits, radix: 8) else {
                    throw error("malformed octal escape in string", at: index - 1)
                }
                result.unicodeScalars.append(Unicode.Scalar(UInt8(code & 0xFF)))
            case "x", "u":
                let width = e == "x" ? 2 : 4
                var digits = ""
                while digits.count < width, let d = peek(), d.isHexDigit { digits.append(d); index += 1 }
                guard digits.count == width, let code = UInt32(digits, radix: 16),
                      let scalar = Unicode.Scalar(code)
                else { throw error("malformed \\\(e) escape in string", at: index - 1) }
                result.unicodeScalars.append(scalar)
            default:
                // \' \" \\ and any other escaped character (so `\*` keeps LIKE's escape).
                if e == "'" || e == "\"" || e == "\\" { result.append(e) }
                else { result.append("\\"); result.append(e) }
            }
        }
    }

    // MARK: - Format specifiers

    private mutating func readSpecifier() throws(PredicateParseError) -> PredicateToken.Kind {
        let start = index
        index += 1
        guard let c = peek() else { throw error("incomplete format specifier '%'", at: start) }
        if c == "@" || c == "K" { index += 1; return .specifier(String(c)) }
        if c == "%" {
            throw error("'%%' (a literal percent) is only meaningful inside a string", at: start)
        }
        if c.isASCII, c.isNumber {
            throw error("positional or width format specifiers are not supported", at: start)
        }
        var modifiers = ""
        while let m = peek(), "lqhzjt".contains(m), modifiers.count < 2 {
            modifiers.append(m); index += 1
        }
        guard let conversion = peek(), "diouxXfFeEgGcsSp".contains(conversion) else {
            throw error("unknown format specifier '%\(modifiers)\(peek().map(String.init) ?? "")'",
                        at: start)
        }
        index += 1
        return .specifier(modifiers + String(conversion))
    }
}
