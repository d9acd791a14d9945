import Foundation

/// NSExpression's predefined functions (<doc:PredicateLanguage#Functions>): their selector
/// names, how format strings spell them, and their in-memory implementations.
enum PredicateFunctions {

    // MARK: - Names

    /// Selector name → number of arguments.
    static let arity: [String: Int] = [
        "average:": 1, "sum:": 1, "count:": 1, "min:": 1, "max:": 1, "median:": 1,
        "mode:": 1, "stddev:": 1,
        "sqrt:": 1, "log:": 1, "ln:": 1, "exp:": 1, "floor:": 1, "ceiling:": 1, "abs:": 1,
        "trunc:": 1, "random": 0, "random:": 1, "now": 0,
        "uppercase:": 1, "lowercase:": 1, "length:": 1, "noindex:": 1,
        "add:to:": 2, "from:subtract:": 2, "multiply:by:": 2, "divide:by:": 2,
        "modulus:by:": 2, "raise:toPower:": 2,
        "bitwiseAnd:with:": 2, "bitwiseOr:with:": 2, "bitwiseXor:with:": 2,
        "leftshift:by:": 2, "rightshift:by:": 2, "onesComplement:": 1,
        "castObject:toType:": 2, "objectFrom:withIndex:": 2,
        "distanceToLocation:fromLocation:": 2,
    ]

    static func isBuiltin(_ selector: String) -> Bool { arity[selector] != nil }

    /// The selector for `name(a, b, …)` in a format string: `now()` → `now`,
    /// `sum(x)` → `sum:`, `modulus(a, b)` → `modulus:by:`. Matching ignores case.
    /// Nil when there is no such function (a parse error).
    static func selector(forCallNamed name: String, argumentCount: Int) -> String? {
        if name.contains(":") {
            // Apple's printed spelling, `sum:(x)`: the selector itself.
            return arity[name] == argumentCount ? name : nil
        }
        let lower = name.lowercased()
        return arity.first { selector, count in
            count == argumentCount
                && (selector.split(separator: ":").first.map { $0.lowercased() == lower } ?? false)
        }?.key
    }

    /// The CAST target types we convert to.
    static let castTypes: Set<String> = ["NSDate", "NSNumber", "NSString", "NSDecimalNumber"]

    // MARK: - Calling

    static func call(_ name: String, _ args: [Any?]) throws -> Any? {
        guard let count = arity[name] else {
            throw PredicateEvaluationError.unsupported("Unsupported function \(name)")
        }
        guard args.count == count else {
            throw PredicateEvaluationError.invalidArgument(
                "\(name) takes \(count) arguments, not \(args.count)")
        }
        switch name {
        case "sum:": return try sum(collection(args[0], name))
        case "count:": return try collection(args[0], name).count
        case "average:": return try average(collection(args[0], name))
        case "min:": return try extreme(collection(args[0], name), .orderedAscending)
        case "max:": return try extreme(collection(args[0], name), .orderedDescending)
        case "median:": return try median(collection(args[0], name))
        case "mode:": return try mode(collection(args[0], name))
        case "stddev:": return try stddev(collection(args[0], name))
        case "sqrt:": return try math(args[0], name) { $0.squareRoot() }
        case "log:": return try math(args[0], name) { Foundation.log10($0) }
        case "ln:": return try math(args[0], name) { Foundation.log($0) }
        case "exp:": return try math(args[0], name) { Foundation.exp($0) }
        case "floor:": return try math(args[0], name) { $0.rounded(.down) }
        case "ceiling:": return try math(args[0], name) { $0.rounded(.up) }
        case "trunc:": return try math(args[0], name) { $0.rounded(.towardZero) }
        case "abs:":
            if PredicateValue.isNull(args[0]) { return nil }
            let n = try number(args[0], name)
            if case .int(let i) = n, i != .min { return Int(i.magnitude) }
            return Swift.abs(n.doubleValue)
        case "random": return Double.random(in: 0..<1)
        case "random:": return try collection(args[0], name).randomElement() ?? nil
        case "now": return Date()
        case "uppercase:": return try string(args[0], name)?.uppercased()
        case "lowercase:": return try string(args[0], name)?.lowercased()
        case "length:": return try string(args[0], name)?.utf16.count
        case "noindex:": return args[0]
        case "castObject:toType:": return try cast(args[0], to: args[1])
        case "objectFrom:withIndex:": return try index(args[0], args[1])
        case "distanceToLocation:fromLocation:":
            throw PredicateEvaluationError.unsupported("distanceToLocation:fromLocation: needs "
                + "CoreLocation, which does not exist on Linux")
        default: return try arithmetic(name, args)
        }
    }

    // MARK: - Aggregates

    private static func collection(_ value: Any?, _ name: String) throws -> [Any?] {
        if PredicateValue.isNull(value) { return [] }
        guard let items = PredicateValue.collectionElements(value) else {
            throw PredicateEvaluationError.typeMismatch(
                "\(name) needs a collection, not \(PredicateValue.describe(value))")
        }
        return items
    }

    private static func numbers(_ values: [Any?], _ name: String) throws -> [PredicateNumber] {
        try values.filter { !PredicateValue.isNull($0) }.map { try number($0, name) }
    }

    /// `@sum` / `sum:`: 0 for an empty collection (<doc:PredicateLanguage#Collection-operators>);
    /// nils are skipped.
    static func sum(_ values: [Any?]) throws -> Any {
        var total = PredicateNumber.int(0)
        for n in try numbers(values, "@sum") {
            total = PredicateNumber.arithmetic(total, n, int: { $0.addingReportingOverflow($1) },
                                               double: +)
        }
        return total.anyValue
    }

    /// `@avg` / `average:`: a floating-point mean; nil for an empty collection (as SQL's
    /// AVG, so the SQL translator and memory agree).
    static func average(_ values: [Any?]) throws -> Any? {
        let items = try numbers(values, "@avg")
        guard !items.isEmpty else { return nil }
        return items.reduce(0) { $0 + $1.doubleValue } / Double(items.count)
    }

    /// `@min`/`@max`: nil for an empty collection; nils are skipped.
    static func extreme(_ values: [Any?], _ wanted: ComparisonResult) throws -> Any? {
        var best: Any? = nil
        for value in values where !PredicateValue.isNull(value) {
            if best == nil { best = value; continue }
            if try PredicateValue.compare(value, best) == wanted { best = value }
        }
        return best
    }

    private static func median(_ values: [Any?]) throws -> Any? {
        let sorted = try numbers(values, "median:").map(\.doubleValue).sorted()
        guard !sorted.isEmpty else { return nil }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// `mode:`: the most frequent values, as an array (several when tied).
    private static func mode(_ values: [Any?]) throws -> Any? {
        var counts: [(value: Any?, count: Int)] = []
        for value in values where !PredicateValue.isNull(value) {
            if let i = counts.firstIndex(where: { PredicateValue.isEqual($0.value, value) }) {
                counts[i].count += 1
            } else {
                counts.append((value, 1))
            }
        }
        let top = counts.map(\.count).max() ?? 0
        return counts.filter { $0.count == top }.map(\.value)
    }

    /// `stddev:`: population standard deviation.
    private static func stddev(_ values: [Any?]) throws -> Any? {
        let items = try numbers(values, "stddev:").map(\.doubleValue)
        guard !items.isEmpty else { return nil }
        let mean = items.reduce(0, +) / Double(items.count)
        return (items.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(items.count))
            .squareRoot()
    }

    // MARK: - Scalars

    static func number(_ value: Any?, _ name: String) throws -> PredicateNumber {
        guard case .number(let n) = PredicateValue.classify(value) else {
            throw PredicateEvaluationError.typeMismatch(
                "\(name) needs a number, not \(PredicateValue.describe(value))")
        }
        return n
    }

    private static func string(_ value: Any?, _ name: String) throws -> String? {
        switch PredicateValue.classify(value) {
        case .null: return nil
        case .string(let s): return s
        default:
            throw PredicateEvaluationError.typeMismatch(
                "\(name) needs a string, not \(PredicateValue.describe(value))")
        }
    }

    private static func math(
        _ value: Any?, _ name: String, _ body: (Double) -> Double
    ) throws -> Any? {
        if PredicateValue.isNull(value) { return nil }
        return body(try number(value, name).doubleValue)
    }

    private static func cast(_ value: Any?, to type: Any?) throws -> Any? {
        guard case .string(let target) = PredicateValue.classify(type) else {
            throw PredicateEvaluationError.invalidArgument("CAST needs a class name string")
        }
        let value = PredicateValue.unwrap(value)
        switch (target, PredicateValue.classify(value)) {
        case (_, .null): return nil
        case ("NSDate", .number(let n)): return Date(timeIntervalSinceReferenceDate: n.doubleValue)
        case ("NSDate", .date(let d)): return d
        case ("NSDate", .string(let s)):
            guard let seconds = Double(s) else { break }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case ("NSNumber", .number(let n)), ("NSDecimalNumber", .number(let n)): return n.anyValue
        case ("NSNumber", .date(let d)), ("NSDecimalNumber", .date(let d)):
            return d.timeIntervalSinceReferenceDate
        case ("NSNumber", .string(let s)), ("NSDecimalNumber", .string(let s)):
            if let i = Int(s) { return i }
            if let d = Double(s) { return d }
            return 0
        case ("NSString", .string(let s)): return s
        case ("NSString", .number(let n)): return n.description
        case ("NSString", .date(let d)): return String(d.timeIntervalSinceReferenceDate)
        default: break
        }
        throw PredicateEvaluationError.invalidArgument(
            "Can't CAST \(PredicateValue.describe(value)) to \(target)")
    }

    /// `x[FIRST]`, `x[LAST]`, `x[SIZE]`, `x[2]`, `dictionary['key']`.
    private static func index(_ container: Any?, _ index: Any?) throws -> Any? {
        if PredicateValue.isNull(container) { return nil }
        if let dictionary = PredicateValue.dictionaryValue(container),
           let key = PredicateValue.unwrap(index) as? AnyHashable
        {
            return PredicateValue.unwrap(dictionary[key])
        }
        guard let items = PredicateValue.collectionElements(container) else {
            throw PredicateEvaluationError.typeMismatch(
                "Can't index \(PredicateValue.describe(container))")
        }
        switch PredicateValue.classify(index) {
        case .string("FIRST"): return items.first ?? nil
        case .string("LAST"): return items.last ?? nil
        case .string("SIZE"): return items.count
        case .number(let n):
            let i = Int(n.doubleValue)
            guard items.indices.contains(i) else {
                throw PredicateEvaluationError.invalidArgument(
                    "Index \(i) is beyond bounds [0 .. \(items.count - 1)]")
            }
            return items[i]
        default:
            throw PredicateEvaluationError.typeMismatch(
                "Can't index with \(PredicateValue.describe(index))")
        }
    }

    // MARK: - Arithmetic

    private static func arithmetic(_ name: String, _ args: [Any?]) throws -> Any? {
        if args.contains(where: PredicateValue.isNull) { return nil }
        if name == "onesComplement:" { return try ~integer(args[0], name) }
        // Date arithmetic: date ± seconds, date - date.
        switch (name, PredicateValue.classify(args[0]), PredicateValue.classify(args[1])) {
        case ("add:to:", .date(let d), .number(let n)), ("add:to:", .number(let n), .date(let d)):
            return d.addingTimeInterval(n.doubleValue)
        case ("from:subtract:", .date(let d), .number(let n)):
            return d.addingTimeInterval(-n.doubleValue)
        case ("from:subtract:", .date(let a), .date(let b)):
            return a.timeIntervalSince(b)
        default: break
        }
        let a = try number(args[0], name), b = try number(args[1], name)
        switch name {
        case "add:to:":
            return PredicateNumber.arithmetic(a, b, int: { $0.addingReportingOverflow($1) },
                                              double: +).anyValue
        case "from:subtract:":
            return PredicateNumber.arithmetic(a, b, int: { $0.subtractingReportingOverflow($1) },
                                              double: -).anyValue
        case "multiply:by:":
            return PredicateNumber.arithmetic(a, b, int: { $0.multipliedReportingOverflow(by: $1) },
                                              double: *).anyValue
        case "divide:by:":
            return a.doubleValue / b.doubleValue
        case "modulus:by:":
            if case .int(let x) = a, case .int(let y) = b, y != 0 {
                return Int(x.remainderReportingOverflow(dividingBy: y).partialValue)
            }
            return fmod(a.doubleValue, b.doubleValue)
        case "raise:toPower:":
            return pow(a.doubleValue, b.doubleValue)
        case "bitwiseAnd:with:": return try integer(a, name) & integer(b, name)
        case "bitwiseOr:with:": return try integer(a, name) | integer(b, name)
        case "bitwiseXor:with:": return try integer(a, name) ^ integer(b, name)
        case "leftshift:by:": return try integer(a, name) << integer(b, name)
        case "rightshift:by:": return try integer(a, name) >> integer(b, name)
        default:
            throw PredicateEvaluationError.unsupported("Unsupported function \(name)")
        }
    }

    private static func integer(_ value: Any?, _ name: String) throws -> Int {
        let n: PredicateNumber
        if let given = value as? PredicateNumber { n = given } else { n = try number(value, name) }
        if case .int(let i) = n { return Int(i) }
        let d = n.doubleValue
        guard d.isFinite, d.rounded() == d, Swift.abs(d) < 9.2e18 else {
            throw PredicateEvaluationError.typeMismatch("\(name) needs integers, not \(d)")
        }
        return Int(d)
    }

    // MARK: - Custom selectors

    /// UTI-EQUALS and UTI-CONFORMS-TO. Linux has no UTI database: conformance is equality,
    /// a dotted-prefix child (`public.jpeg` conforms to `public`), or the root types
    /// `public.item` / `public.data` / `public.content`.
    static func customSelector(_ selector: Selector?, _ lhs: Any?, _ rhs: Any?) throws -> Bool {
        guard case .string(let left) = PredicateValue.classify(lhs),
              case .string(let right) = PredicateValue.classify(rhs)
        else { return false }
        switch selector?.name {
        case "UTI-EQUALS": return left.lowercased() == right.lowercased()
        case "UTI-CONFORMS-TO":
            let l = left.lowercased(), r = right.lowercased()
            return l == r || l.hasPrefix(r + ".")
                || ["public.item", "public.data", "public.content"].contains(r)
        default:
            throw PredicateEvaluationError.unsupported(
                "Custom selector \(selector?.name ?? "nil") cannot be called on Linux")
        }
    }
}
