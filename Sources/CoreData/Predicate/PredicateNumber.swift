import Foundation

/// A number read from any Swift or Foundation numeric type, `Bool` included (Core Data's booleans
/// are NSNumbers, so `active == 1` and `active == YES` both hold:
/// <doc:PredicateLanguage#Types-and-equality>).
///
/// Integers stay exact as `Int64`; everything else is a `Double`.
enum PredicateNumber: CustomStringConvertible {
    case int(Int64)
    case double(Double)

    // MARK: - Reading

    init?(_ value: Any) {
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            self = PredicateNumber.fromNSNumber(number)
            return
        }
        switch value {
        case let v as Bool: self = .int(v ? 1 : 0)
        case let v as Int: self = .int(Int64(v))
        case let v as Int8: self = .int(Int64(v))
        case let v as Int16: self = .int(Int64(v))
        case let v as Int32: self = .int(Int64(v))
        case let v as Int64: self = .int(v)
        case let v as UInt: self = v <= UInt(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as UInt8: self = .int(Int64(v))
        case let v as UInt16: self = .int(Int64(v))
        case let v as UInt32: self = .int(Int64(v))
        case let v as UInt64: self = v <= UInt64(Int64.max) ? .int(Int64(v)) : .double(Double(v))
        case let v as Double: self = .double(v)
        case let v as Float: self = .double(Double(v))
        case let v as CGFloat: self = .double(Double(v))
        case let v as Decimal: self = .double(NSDecimalNumber(decimal: v).doubleValue)
        default: return nil
        }
    }

    private static func fromNSNumber(_ number: NSNumber) -> PredicateNumber {
        if number is NSDecimalNumber { return .double(number.doubleValue) }
        let type = String(cString: number.objCType)
        if type == "f" || type == "d" { return .double(number.doubleValue) }
        if type == "Q" || type == "L" || type == "I" {
            let value = number.uint64Value
            return value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
        }
        return .int(number.int64Value)
    }

    // MARK: - Values

    var doubleValue: Double {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        }
    }

    /// The value as a Swift `Int` or `Double`, the types the evaluator hands back.
    var anyValue: Any {
        switch self {
        case .int(let v): return Int(v)
        case .double(let v): return v
        }
    }

    var description: String {
        switch self {
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        }
    }

    func compare(_ other: PredicateNumber) -> ComparisonResult {
        if case .int(let a) = self, case .int(let b) = other {
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        }
        let a = doubleValue, b = other.doubleValue
        return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    // MARK: - Arithmetic

    /// Integer arithmetic when both sides are integers and nothing overflows; otherwise
    /// floating point (so `7 / 2` is `3.5`, as with Foundation's `divide:by:`).
    static func arithmetic(
        _ a: PredicateNumber, _ b: PredicateNumber,
        int: (Int64, Int64) -> (Int64, Bool), double: (Double, Double) -> Double
    ) -> PredicateNumber {
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = int(x, y)
            if !overflow { return .int(result) }
        }
        return .double(double(a.doubleValue, b.doubleValue))
    }
}
