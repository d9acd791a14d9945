import Foundation

/// A value met while evaluating a predicate, sorted into the few kinds the predicate semantics care
/// about (<doc:PredicateLanguage#Nil-and-NSNull>, <doc:PredicateLanguage#Types-and-equality>).
///
/// Swift hands the evaluator `Any?` values of many concrete types (`Int`, `Int32`,
/// `NSNumber`, `Float`, `NSString`, `Substring`, `NSDate`, `Set<AnyHashable>`,
/// `NSOrderedSet`, ...). ``classify(_:)`` folds them into one of these cases so every
/// operator is written once.
enum PredicateValue {
    case null
    case number(PredicateNumber)
    case string(String)
    case date(Date)
    case collection([Any?])
    case dictionary([AnyHashable: Any])
    case other(Any)

    // MARK: - Classification

    /// Flattens nested optionals, `NSNull` and `Optional.none` to `nil`.
    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // The common plain values first: their type answers without the runtime's search
        // for a protocol conformance that `as? any _PredicateOptional` costs.
        if PlainValue(value) != nil { return value }
        if let boxed = value as? any _PredicateOptional { return unwrap(boxed._predicateWrapped) }
        if value is NSNull { return nil }
        return value
    }

    /// Whether `value` is nil, `Optional.none` or `NSNull` (NSNull is treated like nil:
    /// <doc:PredicateLanguage#Nil-and-NSNull>).
    static func isNull(_ value: Any?) -> Bool { unwrap(value) == nil }

    static func classify(_ raw: Any?) -> PredicateValue {
        if let raw, let plain = PlainValue(raw) { return plain.classified(raw) }
        guard let value = unwrap(raw) else { return .null }
        if let number = PredicateNumber(value) { return .number(number) }
        if let string = value as? String { return .string(string) }
        if let substring = value as? Substring { return .string(String(substring)) }
        if let date = value as? Date { return .date(date) }
        if let items = collectionElements(value) { return .collection(items) }
        if let dictionary = dictionaryValue(value) { return .dictionary(dictionary) }
        return .other(value)
    }

    /// The elements of an array, set, ordered set (Swift or Foundation), or nil when
    /// `value` is not such a collection. Strings and dictionaries are not collections here.
    static func collectionElements(_ raw: Any?) -> [Any?]? {
        guard let value = unwrap(raw) else { return nil }
        if value is String || value is NSString { return nil }
        if let unordered = value as? UnorderedValues { return unordered.values }
        if let ordered = value as? NSOrderedSet { return ordered.array }
        if let array = value as? NSArray { return array.map { $0 } }
        if let set = value as? NSSet { return set.allObjects }
        if let array = value as? [Any?] { return array }
        if let array = value as? [Any] { return array }
        if let set = value as? Set<AnyHashable> { return Array(set) }
        return nil
    }

    /// A dictionary's contents, for key-value reading and for `IN` (which uses the values).
    static func dictionaryValue(_ raw: Any?) -> [AnyHashable: Any]? {
        guard let value = unwrap(raw) else { return nil }
        if let dictionary = value as? [AnyHashable: Any] { return dictionary }
        if let dictionary = value as? NSDictionary {
            var result: [AnyHashable: Any] = [:]
            for (key, element) in dictionary { if let key = key as? AnyHashable { result[key] = element } }
            return result
        }
        return nil
    }

    // MARK: - Equality

    /// `isEqual:`-style equality with the predicate rules: nil equals only nil, numbers
    /// compare by value across Int/Double/Bool/NSNumber, strings never equal numbers, and
    /// the string options fold both sides first.
    static func isEqual(
        _ lhs: Any?, _ rhs: Any?, options: NSComparisonPredicate.Options = []
    ) -> Bool {
        switch (classify(lhs), classify(rhs)) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case let (.number(a), .number(b)): return a.compare(b) == .orderedSame
        case let (.string(a), .string(b)):
            return PredicateStringFolding.fold(a, options) == PredicateStringFolding.fold(b, options)
        case let (.date(a), .date(b)): return a == b
        case let (.collection(a), .collection(b)):
            guard a.count == b.count else { return false }
            if isUnordered(lhs) || isUnordered(rhs) {
                return a.allSatisfy { x in b.contains { isEqual(x, $0, options: options) } }
                    && b.allSatisfy { y in a.contains { isEqual($0, y, options: options) } }
            }
            return zip(a, b).allSatisfy { isEqual($0, $1, options: options) }
        case let (.dictionary(a), .dictionary(b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in
                b[key].map { isEqual(value, $0, options: options) } ?? false
            }
        case let (.other(a), .other(b)): return isSameObject(a, b)
        default: return false
        }
    }

    /// Whether a collection is a set (its order means nothing).
    static func isUnordered(_ value: Any?) -> Bool {
        let value = unwrap(value)
        return value is NSSet || value is Set<AnyHashable> || value is UnorderedValues
    }

    private static func isSameObject(_ a: Any, _ b: Any) -> Bool {
        if type(of: a) is AnyClass, type(of: b) is AnyClass {
            let left = a as AnyObject, right = b as AnyObject
            if left === right { return true }
            // A managed object and an object ID are equal when the ID names the object, as
            // a fetch treats them (Apple accepts object IDs wherever objects go).
            if let x = left as? PredicateObjectReference, let y = right as? PredicateObjectReference,
               x.isObjectIDOnly != y.isObjectIDOnly
            {
                return x.predicateObjectID.isEqual(y.predicateObjectID)
            }
            if let left = left as? NSObject, let right = right as? NSObject {
                return left.isEqual(right)
            }
            return false
        }
        if let left = a as? AnyHashable, let right = b as? AnyHashable { return left == right }
        return false
    }

    // MARK: - Ordering

    /// Orders two non-nil values for `<`, `<=`, `>`, `>=`, BETWEEN, @min/@max.
    ///
    /// - Throws: a ``PredicateEvaluationError`` when the two values cannot be ordered (a
    ///   number against a string, a collection against anything): Foundation raises there
    ///   (<doc:PredicateLanguage#Types-and-equality>), it is never silently false.
    static func compare(
        _ lhs: Any?, _ rhs: Any?, options: NSComparisonPredicate.Options = []
    ) throws -> ComparisonResult {
        switch (classify(lhs), classify(rhs)) {
        case let (.number(a), .number(b)): return a.compare(b)
        case let (.string(a), .string(b)):
            return compareStrings(
                PredicateStringFolding.fold(a, options), PredicateStringFolding.fold(b, options))
        case let (.date(a), .date(b)): return a.compare(b)
        default:
            throw PredicateEvaluationError.typeMismatch(
                "Cannot compare \(describe(lhs)) with \(describe(rhs))")
        }
    }

    /// `compare:` without options: Unicode scalar (code point) order.
    static func compareStrings(_ a: String, _ b: String) -> ComparisonResult {
        var left = a.unicodeScalars.makeIterator(), right = b.unicodeScalars.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (x?, y?):
                if x.value < y.value { return .orderedAscending }
                if x.value > y.value { return .orderedDescending }
            }
        }
    }

    /// A short, user-facing rendering of a value for error messages.
    static func describe(_ value: Any?) -> String {
        switch classify(value) {
        case .null: return "nil"
        case .string(let s): return "\"\(s)\" (a string)"
        case .number(let n): return "\(n) (a number)"
        case .date(let d): return "\(d) (a date)"
        case .collection(let c): return "a collection of \(c.count) elements"
        case .dictionary: return "a dictionary"
        case .other(let o): return "\(o) (\(type(of: o)))"
        }
    }
}

/// A value that names a managed object: the object itself or its object ID. A predicate
/// compares an object with an ID by the ID (``PredicateValue/isEqual(_:_:options:)``).
protocol PredicateObjectReference: AnyObject {
    /// The ID of the object named.
    var predicateObjectID: NSObject { get }
    /// True for an object ID, false for the object itself.
    var isObjectIDOnly: Bool { get }
}

/// The Swift types predicate constants and format arguments are most often made of, told
/// apart by comparing metatypes (one comparison each), so that ``PredicateValue/unwrap(_:)``
/// and ``PredicateValue/classify(_:)`` can skip the dynamic casts they need for everything
/// else (`Optional` inside `Any`, `NSNull`, Foundation's reference types). A predicate built
/// per call (`NSPredicate(format: "ident == %lld", ident)`) meets one such value in its
/// parse, one in the SQL shape of its fetch and one in its bindings.
enum PlainValue {
    case int, int64, int32, int16, double, string

    @inline(__always)
    init?(_ value: Any) {
        let type = ObjectIdentifier(Swift.type(of: value))
        switch type {
        case ObjectIdentifier(Int.self): self = .int
        case ObjectIdentifier(Int64.self): self = .int64
        case ObjectIdentifier(String.self): self = .string
        case ObjectIdentifier(Double.self): self = .double
        case ObjectIdentifier(Int32.self): self = .int32
        case ObjectIdentifier(Int16.self): self = .int16
        default: return nil
        }
    }

    /// `PredicateValue.classify(value)` for a value of this type.
    @inline(__always)
    func classified(_ value: Any) -> PredicateValue {
        switch self {
        case .int: return .number(.int(Int64(value as! Int)))
        case .int64: return .number(.int(value as! Int64))
        case .int32: return .number(.int(Int64(value as! Int32)))
        case .int16: return .number(.int(Int64(value as! Int16)))
        case .double: return .number(.double(value as! Double))
        case .string: return .string(value as! String)
        }
    }
}

/// Lets ``PredicateValue/unwrap(_:)`` see through an `Optional` hidden inside `Any`.
protocol _PredicateOptional {
    var _predicateWrapped: Any? { get }
}

extension Optional: _PredicateOptional {
    var _predicateWrapped: Any? { self.map { $0 as Any } }
}
