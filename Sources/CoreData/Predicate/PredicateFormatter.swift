import Foundation

/// Prints predicates and expressions in canonical format syntax
/// (<doc:PredicateLanguage#Printing-predicates>): `==`, `!=`, `<=`, `>=`, upper-case keywords,
/// double-quoted strings, `CAST(…, "NSDate")` for dates, parentheses only where the tree needs
/// them. The output parses back to an equal tree.
///
/// Constants that have no literal syntax (UUIDs, data, arbitrary objects) print as a
/// quoted description and do not round-trip.
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
        func child(_ sub: NSPredicate) -> String {
            if let c = sub as? NSCompoundPredicate, c.compoundPredicateType != .not {
                return "(" + format(sub) + ")"
            }
            return format(sub)
        }
        switch p.compoundPredicateType {
        case .not:
            guard let sub = p.subpredicates.first else { return "TRUEPREDICATE" }
            return "NOT " + child(sub)
        case .and:
            if p.subpredicates.isEmpty { return "TRUEPREDICATE" }
            return p.subpredicates.map(child).joined(separator: " AND ")
        case .or:
            if p.subpredicates.isEmpty { return "FALSEPREDICATE" }
            return p.subpredicates.map(child).joined(separator: " OR ")
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

    private static let infix: [String: (symbol: String, level: Int)] = [
        "add:to:": ("+", 1), "from:subtract:": ("-", 1),
        "multiply:by:": ("*", 2), "divide:by:": ("/", 2), "raise:toPower:": ("**", 3),
    ]

    /// Binding strength of an expression's printed form (4: atoms and postfix forms).
    private static func level(_ e: NSExpression) -> Int {
        if case .function(let name, nil, let args) = e.kind, args.count == 2,
           let op = infix[name]
        {
            return op.level
        }
        if case .assignment = e.kind { return 0 }
        if case .constant(let value) = e.kind, case .number(let n) = PredicateValue.classify(value),
           n.doubleValue < 0
        {
            return 3  // "-2" is a unary minus: tighter than `**`'s operands need only on the left
        }
        return 4
    }

    private static func wrapped(_ e: NSExpression, atLeast minimum: Int) -> String {
        level(e) >= minimum ? format(e) : "(" + format(e) + ")"
    }

    static func format(_ e: NSExpression) -> String {
        switch e.kind {
        case .constant(let value): return format(constant: value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .anyKey: return "ANYKEY"
        case .assignment(let name, let value): return "$\(name) := " + format(value)
        case .keyPath(let operand, let path):
            let keys = path.split(separator: ".", omittingEmptySubsequences: false)
                .map { formatKey(String($0)) }.joined(separator: ".")
            if case .evaluatedObject = operand.kind { return keys }
            return wrapped(operand, atLeast: 4) + "." + keys
        case .aggregate(let items):
            return "{" + items.map(format).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        case .conditional(let predicate, let yes, let no):
            return "TERNARY(\(format(predicate)), \(format(yes)), \(format(no)))"
        case .function(let name, let operand, let args):
            return format(function: name, operand: operand, args: args)
        }
    }

    private static func format(function name: String, operand: NSExpression?,
                               args: [NSExpression]) -> String {
        if let operand {
            return "FUNCTION(" + ([format(operand), quote(name)] + args.map(format))
                .joined(separator: ", ") + ")"
        }
        if args.count == 2, let op = infix[name] {
            // Left-associative: a same-level right operand keeps its parentheses.
            let leftMinimum = op.symbol == "**" ? 4 : op.level
            return wrapped(args[0], atLeast: leftMinimum) + " \(op.symbol) "
                + wrapped(args[1], atLeast: op.level + 1)
        }
        if name == "castObject:toType:", args.count == 2 {
            return "CAST(\(format(args[0])), \(format(args[1])))"
        }
        if name == "objectFrom:withIndex:", args.count == 2 {
            var index = format(args[1])
            if case .constant(let value) = args[1].kind, let word = value as? String,
               ["FIRST", "LAST", "SIZE"].contains(word)
            {
                index = word
            }
            return wrapped(args[0], atLeast: 4) + "[" + index + "]"
        }
        let callName = name.split(separator: ":").first.map(String.init) ?? name
        return callName + "(" + args.map(format).joined(separator: ", ") + ")"
    }

    private static func formatKey(_ key: String) -> String {
        if PredicateLexer.reservedWords.contains(key.uppercased()) { return "#" + key }
        return key
    }

    // MARK: - Constants

    static func format(constant value: Any?) -> String {
        let value = PredicateValue.unwrap(value)
        if let value, type(of: value) == Bool.self, let flag = value as? Bool {
            return flag ? "TRUE" : "FALSE"
        }
        switch PredicateValue.classify(value) {
        case .null: return "nil"
        case .number(.int(let i)): return String(i)
        case .number(.double(let d)):
            return d.isFinite ? String(d) : "CAST(\(quote(String(d))), \"NSNumber\")"
        case .string(let s): return quote(s)
        case .date(let d): return "CAST(\(String(d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .collection(let items): return "{" + items.map(format(constant:)).joined(separator: ", ") + "}"
        case .dictionary(let d): return "{" + d.values.map(format(constant:)).joined(separator: ", ") + "}"
        case .other(let object): return quote("\(object)")
        }
    }

    /// A double-quoted string literal with backslash escapes.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
