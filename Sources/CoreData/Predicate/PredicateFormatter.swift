import Foundation

/// Prints predicates and expressions as Apple's `predicateFormat` does (<doc:PredicateLanguage#Printing-predicates>):
/// `==`, `!=`, `<=`, `>=`, upper-case keywords, double-quoted strings, `CAST(…, "NSDate")`
/// for dates, `1`/`0` for booleans, functions by selector (`sum:(items.price)`).
///
/// Apple's rules, which these follow:
/// - A compound predicate joins its subpredicates with ` AND ` / ` OR `, putting every
///   subpredicate that is itself a compound (NOT included) in parentheses:
///   `(a == 10 AND b == 30) AND c == 1`, `a == 1 AND (NOT b == 2)`. One subpredicate prints
///   alone; none prints `TRUEPREDICATE` (AND) or `FALSEPREDICATE` (OR). `NOT` prints
///   `NOT ` and its subpredicate, in parentheses when that is a compound.
/// - An arithmetic operand that is itself an infix operation is parenthesized:
///   `(a + b) * c`, `a + (b * c)`.
/// - Constants: strings in double quotes with `\` and `"` escaped, numbers (booleans
///   too) as `NSNumber` describes them, dates as `CAST(<seconds since 2001>, "NSDate")`
///   with six decimals, collections as `{a, b}`, and any other object (UUIDs, URLs, data,
///   managed objects, object IDs) by its description, unquoted.
///
/// The output parses back to an equal predicate, except where Apple's does not either:
/// objects printed by description, and `FUNCTION(…)` with its bare selector.
enum PredicateFormatter {

    // MARK: - Predicates

    /// The format of any predicate: ours, Foundation's compound predicates (whose own
    /// `predicateFormat` is wrong on Linux), `TRUEPREDICATE`/`FALSEPREDICATE`, and
    /// `BLOCKPREDICATE` for block predicates.
    static func format(_ predicate: NSPredicate) -> String {
        if let p = predicate as? NSComparisonPredicate { return format(comparison: p) }
        if let p = predicate as? NSCompoundPredicate { return format(compound: p) }
        // Foundation's isEqual tells its constant predicates apart from block predicates.
        if predicate.isEqual(NSPredicate(value: true)) { return "TRUEPREDICATE" }
        if predicate.isEqual(NSPredicate(value: false)) { return "FALSEPREDICATE" }
        return "BLOCKPREDICATE"
    }

    private static func format(comparison p: NSComparisonPredicate) -> String {
        var text = ""
        switch p.comparisonPredicateModifier {
        case .any: text = "ANY "
        case .all: text = "ALL "
        case .direct: break
        }
        text += format(p.leftExpression) + " "
        if p.predicateOperatorType == .customSelector {
            text += p.customSelector?.name ?? "UTI-EQUALS"
        } else {
            text += operatorName(p.predicateOperatorType)
        }
        var letters = ""
        if p.options.contains(.caseInsensitive) { letters += "c" }
        if p.options.contains(.diacriticInsensitive) { letters += "d" }
        if p.options.contains(.normalized) { letters += "n" }
        if p.options.contains(.localeSensitive) { letters += "l" }
        if !letters.isEmpty, p.predicateOperatorType != .between { text += "[\(letters)]" }
        return text + " " + format(p.rightExpression)
    }

    private static func format(compound p: NSCompoundPredicate) -> String {
        /// A subpredicate as Apple prints it inside a compound: parenthesized when it is a
        /// compound itself.
        func child(_ sub: NSPredicate) -> String {
            sub is NSCompoundPredicate ? "(" + format(sub) + ")" : format(sub)
        }
        let subpredicates = p.subpredicates
        switch p.compoundPredicateType {
        case .not:
            guard let sub = subpredicates.first else { return "TRUEPREDICATE" }
            return "NOT " + child(sub)
        case .and, .or:
            if subpredicates.isEmpty {
                return p.compoundPredicateType == .and ? "TRUEPREDICATE" : "FALSEPREDICATE"
            }
            if subpredicates.count == 1 { return format(subpredicates[0]) }
            let separator = p.compoundPredicateType == .and ? " AND " : " OR "
            return subpredicates.map(child).joined(separator: separator)
        }
    }

    static func operatorName(_ op: NSComparisonPredicate.Operator) -> String {
        switch op {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .customSelector: return "UTI-EQUALS"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }

    // MARK: - Expressions

    /// The infix operators Apple prints between two operands (`[` is the index form).
    private static let infix: [String: String] = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/",
        "raise:toPower:": "**", "objectFrom:withIndex:": "[", "bitwiseAnd:with:": "&",
        "bitwiseOr:with:": "|", "bitwiseXor:with:": "^", "leftshift:by:": "<<",
        "rightshift:by:": ">>",
    ]

    /// Whether Apple parenthesizes `e` as an operand of an infix operation: when it is an
    /// infix operation itself (not an index).
    private static func needsParentheses(_ e: NSExpression) -> Bool {
        guard case .function(let name, nil, let args) = e.kind, args.count == 2,
              let symbol = infix[name] else { return false }
        return symbol != "["
    }

    private static func operand(_ e: NSExpression) -> String {
        needsParentheses(e) ? "(" + format(e) + ")" : format(e)
    }

    static func format(_ e: NSExpression) -> String {
        switch e.kind {
        case .constant(let value): return format(constant: value)
        case .evaluatedObject: return "SELF"
        // After `$` every word is a name, reserved ones included: no `#` escape (the lexer
        // takes `$YES` as the variable YES, and `$#YES` not at all).
        case .variable(let name): return "$" + name
        case .anyKey: return "ANYKEY"
        case .fetchRequest(let request, let context, let countOnly):
            return "FETCH(\(format(request)), \(format(context)), \(countOnly ? "YES" : "NO"))"
        case .assignment(let name, let value): return "$\(name) := " + format(value)
        case .keyPath(let base, let path):
            let keys = path.split(separator: ".", omittingEmptySubsequences: false)
                .map { formatKey(String($0)) }.joined(separator: ".")
            if case .evaluatedObject = base.kind { return keys }
            return operand(base) + "." + keys
        case .aggregate(let items):
            return "{" + items.map(format).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        case .conditional(let predicate, let yes, let no):
            return "TERNARY(\(format(predicate)), \(format(yes)), \(format(no)))"
        case .function(let name, let target, let args):
            return format(function: name, target: target, args: args)
        }
    }

    private static func format(function name: String, target: NSExpression?,
                               args: [NSExpression]) -> String {
        if let target {
            // Apple's spelling, selector unquoted: `FUNCTION(SELF, foo: , 1)`.
            if args.isEmpty { return "FUNCTION(\(format(target)), \(name))" }
            let rest = args.map { ", " + format($0) }.joined()
            return "FUNCTION(\(format(target)), \(name) \(rest))"
        }
        if args.count == 2, let symbol = infix[name] {
            if symbol == "[" {
                var index = format(args[1])
                if case .constant(let value) = args[1].kind, let word = value as? String,
                   ["FIRST", "LAST", "SIZE"].contains(word)
                {
                    index = word
                }
                return operand(args[0]) + "[" + index + "]"
            }
            return operand(args[0]) + " \(symbol) " + operand(args[1])
        }
        if name == "onesComplement:", args.count == 1 { return "~" + operand(args[0]) }
        if name == "castObject:toType:" {
            return "CAST(" + args.map(format).joined(separator: ", ") + ")"
        }
        return formatKey(name) + "(" + args.map(format).joined(separator: ", ") + ")"
    }

    private static func formatKey(_ key: String) -> String {
        if PredicateLexer.reservedWords.contains(key.uppercased()) { return "#" + key }
        return key
    }

    // MARK: - Constants

    static func format(constant value: Any?) -> String {
        guard let value = PredicateValue.unwrap(value) else { return "nil" }
        switch PredicateValue.classify(value) {
        case .null: return "nil"
        case .number(let n): return numberDescription(n)
        case .string(let s): return quote(s)
        case .date(let d):
            return String(format: "CAST(%f, \"NSDate\")", d.timeIntervalSinceReferenceDate)
        case .collection(let items):
            return "{" + items.map(format(constant:)).joined(separator: ", ") + "}"
        case .dictionary(let d):
            let pairs = d.map { format(constant: $0.key.base) + "=" + format(constant: $0.value) }
            return "{" + pairs.sorted().joined(separator: ", ") + "}"
        case .other(let object): return describe(object: object)
        }
    }

    /// A number as `NSNumber` describes it: integers and whole doubles without a decimal
    /// point, booleans as `1`/`0`. Non-finite doubles print as a `CAST` so that they parse
    /// back (Apple prints `inf`, which would read as a key path).
    private static func numberDescription(_ n: PredicateNumber) -> String {
        switch n {
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return "CAST(\(quote(String(d))), \"NSNumber\")" }
            if d == d.rounded(), abs(d) < 1e16 { return String(Int64(d)) }
            return String(d)
        }
    }

    /// Objects print by description, unquoted, as on Apple: a UUID as its string, a URL
    /// as its absolute string, data as `{length = n, bytes = 0x…}`.
    private static func describe(object: Any) -> String {
        switch object {
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let data as Data: return describe(data: data)
        default: return String(describing: object)
        }
    }

    /// `NSData`'s description on Apple: every byte up to 24, else the first 16 and the
    /// last 8 in groups of four.
    static func describe(data: Data) -> String {
        func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
            bytes.map { String(format: "%02x", $0) }.joined()
        }
        func words<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
            stride(from: 0, to: bytes.count, by: 4).map { offset -> String in
                let start = bytes.index(bytes.startIndex, offsetBy: offset)
                let end = bytes.index(start, offsetBy: min(4, bytes.count - offset))
                return hex(bytes[start..<end])
            }.joined(separator: " ")
        }
        if data.count <= 24 { return "{length = \(data.count), bytes = 0x\(hex(data))}" }
        return "{length = \(data.count), bytes = 0x\(words(data.prefix(16))) ... "
            + "\(words(data.suffix(8))) }"
    }

    /// A double-quoted string literal: `\` and `"` are escaped, as Apple escapes them.
    static func quote(_ s: String) -> String {
        var out = "\""
        for character in s {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}
