import Foundation

// MARK: - Arguments Apple code passes as CVarArg

// On Apple, every Objective-C object is a `CVarArg`, and Swift's Foundation value types
// become one with `as CVarArg` (they bridge to an object). Core Data code relies on both:
//
//     NSPredicate(format: "team == %@", team)                 // an NSManagedObject
//     NSPredicate(format: "id == %@", id as CVarArg)          // a UUID
//     NSPredicate(format: "name IN %@", names)                // a [String]
//     NSPredicate(format: "date > %@", date as NSDate)
//
// On Linux none of these types is a `CVarArg`, so such code does not compile. These
// conformances make it compile; `NSPredicate(format:_:)` and `NSExpression(format:_:)`
// read the values themselves and never ask for their C encoding.

extension NSObject: @retroactive CVarArg {
    /// Not available on Linux: an object has no C variadic encoding here.
    ///
    /// - Note: Apple parity: CoreData makes Foundation's objects `CVarArg` (as on Apple) so
    ///   that they can be predicate format arguments. `String(format:)` cannot print an
    ///   object with `%@` on Linux; reaching this from such a call stops with a message.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Date: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension UUID: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension URL: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Data: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Decimal: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Array: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Set: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

extension Dictionary: @retroactive CVarArg {
    /// Not available on Linux; see `NSObject._cVarArgEncoding`.
    public var _cVarArgEncoding: [Int] { PredicateArgument.noCEncoding(self) }
}

// MARK: - Reading arguments

/// How a format argument becomes a constant of the predicate tree.
enum PredicateArgument {

    /// The value a `%@` argument stands for: Foundation's reference types become the Swift
    /// value types the evaluator and the SQL compiler compare (`NSDate` → `Date`,
    /// `NSUUID` → `UUID`, `NSURL` → `URL`, `NSData` → `Data`, `NSString` → `String`),
    /// also the elements of a Swift array; `NSNull` and `Optional.none` are nil. Everything
    /// else (managed objects, object IDs, numbers, sets, Foundation collections) is kept.
    static func normalize(_ raw: Any?) -> Any? {
        if let raw, PlainValue(raw) != nil { return raw }
        guard let value = PredicateValue.unwrap(raw) else { return nil }
        if type(of: value) is AnyClass {
            if let date = value as? NSDate { return date as Date }
            if let uuid = value as? NSUUID { return uuid as UUID }
            if let url = value as? NSURL { return url as URL }
            if let data = value as? NSData { return data as Data }
            if let string = value as? NSString { return string as String }
            return value
        }
        if let array = value as? [Any], !(value is String) {
            return array.map { normalize($0) ?? NSNull() }
        }
        return value
    }

    /// The trap behind the `_cVarArgEncoding` of the types made `CVarArg` above.
    static func noCEncoding(_ value: Any) -> Never {
        fatalError("CoreData: a \(type(of: value)) is a CVarArg on Linux only to be an "
            + "NSPredicate or NSExpression format argument; String(format:) and other C "
            + "variadic functions cannot format it (pass a String instead, e.g. \"\\(value)\")")
    }
}
