import Foundation

/// Turns predicates and expressions archived by Apple's `NSPredicate` / `NSExpression`
/// `encodeWithCoder:` into format strings, which our parser then reads.
///
/// Classes read: `NSComparisonPredicate` (with `NSEqualityPredicateOperator`,
/// `NSComparisonPredicateOperator`, `NSInPredicateOperator`, `NSLikePredicateOperator`,
/// `NSBeginsWithPredicateOperator`, `NSEndsWithPredicateOperator`,
/// `NSMatchingPredicateOperator`, `NSBetweenPredicateOperator` and the like: they all carry
/// `NSOperatorType`, `NSModifier` and options), `NSCompoundPredicate`, `NSTruePredicate`,
/// `NSFalsePredicate`; expressions `NSConstantValueExpression`, `NSSelfExpression`,
/// `NSVariableExpression`, `NSKeyPathExpression`, `NSKeyPathSpecifierExpression`,
/// `NSFunctionExpression`, `NSAggregateExpression`. Anything else is an error naming it.
struct ArchivedPredicateReader {
    let archive: ArchiveGraph

    func predicate(_ object: ArchivedObject, depth: Int = 0) throws -> String {
        guard depth < 200 else { throw PropertyListFormatError("an archived predicate nests too deeply") }
        switch object.className {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate":
            let parts = try object.members("NSSubpredicates").map { reference -> String in
                guard case .uid(let index) = reference, let sub = try archive.object(at: index) else {
                    throw PropertyListFormatError("an archived compound predicate has an empty member")
                }
                return "(" + (try predicate(sub, depth: depth + 1)) + ")"
            }
            switch try object.integer("NSCompoundPredicateType") ?? 1 {
            case 0:
                guard let only = parts.first else { throw PropertyListFormatError("an archived NOT predicate is empty") }
                return "NOT " + only
            case 2: return parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
            default: return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
            }
        case "NSComparisonPredicate":
            guard let left = try object.object("NSLeftExpression"), let right = try object.object("NSRightExpression") else {
                throw PropertyListFormatError("an archived comparison predicate lacks an expression")
            }
            guard let op = try object.object("NSPredicateOperator") else {
                throw PropertyListFormatError("an archived comparison predicate has no operator")
            }
            let type = try op.integer("NSOperatorType") ?? 4
            let modifier = try op.integer("NSModifier") ?? object.integer("NSModifier") ?? 0
            let options = try op.integer("NSOptions") ?? op.integer("NSFlags") ?? 0
            var symbol: String
            switch type {
            case 0: symbol = "<"
            case 1: symbol = "<="
            case 2: symbol = ">"
            case 3: symbol = ">="
            case 4: symbol = try op.bool("NSNegate") ? "!=" : "=="
            case 5: symbol = "!="
            case 6: symbol = "MATCHES"
            case 7: symbol = "LIKE"
            case 8: symbol = "BEGINSWITH"
            case 9: symbol = "ENDSWITH"
            case 10: symbol = "IN"
            case 99: symbol = "CONTAINS"
            case 100: symbol = "BETWEEN"
            default:
                throw PropertyListFormatError("an archived predicate uses operator type \(type), which is not supported")
            }
            var flags = ""
            if options & 1 != 0 { flags += "c" }
            if options & 2 != 0 { flags += "d" }
            if options & 8 != 0 { flags += "n" }
            if !flags.isEmpty { symbol += "[\(flags)]" }
            let prefix = modifier == 1 ? "ALL " : modifier == 2 ? "ANY " : ""
            return prefix + (try expression(left, depth: depth + 1)) + " " + symbol + " "
                + (try expression(right, depth: depth + 1))
        default:
            throw PropertyListFormatError("an archived predicate of class \(object.className) is not supported")
        }
    }

    func expression(_ object: ArchivedObject, depth: Int = 0) throws -> String {
        guard depth < 200 else { throw PropertyListFormatError("an archived expression nests too deeply") }
        switch object.className {
        case "NSSelfExpression": return "SELF"
        case "NSVariableExpression": return "$" + (try object.string("NSVariable") ?? "")
        case "NSKeyPathSpecifierExpression": return try object.string("NSKeyPath") ?? ""
        case "NSConstantValueExpression":
            guard let value = object.fields["NSConstantValue"] else { return "nil" }
            return try constant(value, depth: depth)
        case "NSAggregateExpression":
            let items = try object.members("NSCollection").map { reference -> String in
                guard case .uid(let index) = reference, let item = try archive.object(at: index) else {
                    return try constant(reference, depth: depth + 1)
                }
                return try item.isKind(of: "NSExpression") ? expression(item, depth: depth + 1) : constant(reference, depth: depth + 1)
            }
            return "{" + items.joined(separator: ", ") + "}"
        case "NSKeyPathExpression", "NSFunctionExpression":
            let selector = try object.string("NSSelectorName") ?? ""
            let arguments = try object.members("NSArguments").map { reference -> ArchivedObject in
                guard case .uid(let index) = reference, let item = try archive.object(at: index) else {
                    throw PropertyListFormatError("an archived function has an empty argument")
                }
                return item
            }
            let operand = try object.object("NSOperand")
            if selector == "valueForKeyPath:", arguments.count == 1 {
                let path = try expression(arguments[0], depth: depth + 1)
                guard let operand, operand.className != "NSSelfExpression" else { return path }
                return try expression(operand, depth: depth + 1) + "." + path
            }
            let texts = try arguments.map { try expression($0, depth: depth + 1) }
            if let operand, operand.className == "NSConstantValueExpression",
               try operand.string("NSConstantValueClassName") == "_NSPredicateUtilities" || operand.fields["NSConstantValue"] == nil {
                let name = selector.split(separator: ":").first.map(String.init) ?? selector
                return name + "(" + texts.joined(separator: ", ") + ")"
            }
            let receiver = try operand.map { try expression($0, depth: depth + 1) } ?? "SELF"
            return "FUNCTION(" + ([receiver, quoted(selector)] + texts).joined(separator: ", ") + ")"
        default:
            throw PropertyListFormatError("an archived expression of class \(object.className) is not supported")
        }
    }

    private func constant(_ value: PropertyListValue, depth: Int) throws -> String {
        let plain = try archive.plainValue(value, depth: depth)
        return try literal(plain)
    }

    private func literal(_ value: Any?) throws -> String {
        switch value {
        case nil, is NSNull: return "nil"
        case let text as String: return quoted(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return number.boolValue ? "YES" : "NO"
            default: return "\(number)"
            }
        case let decimal as Decimal: return "\(decimal)"
        case let date as Date: return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")"
        case let items as [Any]: return "{" + (try items.map { try literal($0) }).joined(separator: ", ") + "}"
        default:
            throw PropertyListFormatError("an archived predicate holds a constant of type \(type(of: value!)), which is not supported")
        }
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
