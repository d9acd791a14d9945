import Foundation

// MARK: - The throwing twins, for the C API (Sources/CoreDataC)
//
// SPI so that they stay out of the public Swift API: CoreDataC imports them with
// `@_spi(CAPI) import CoreData`. Each forwards to the module's internal throwing twin of
// an API that traps on bad run-time input.

@_spi(CAPI) extension NSManagedObject {
    /// `value(forKey:)` that throws for an unknown key or a fault that cannot fire.
    public func throwingValue(forKey key: String) throws -> Any? {
        try checkedValue(forKey: key)
    }

    /// `setValue(_:forKey:)` that throws for an unknown key, a value of the wrong type or
    /// a relationship destination of the wrong entity or context.
    public func throwingSetValue(_ value: Any?, forKey key: String) throws {
        try checkedSetValue(value, forKey: key)
    }

    /// Fires the fault, throwing when the object's data is gone from the store.
    public func throwingFireFault() throws {
        try fireFaultThrowing()
    }
}

@_spi(CAPI) extension NSPredicate {
    /// `NSPredicate(format:argumentArray:)` that throws `NSFormattingError` for a malformed
    /// format instead of trapping.
    public static func throwingParse(format: String, arguments: [Any]) throws -> NSPredicate {
        try parse(format: format, arguments: arguments)
    }
}

@_spi(CAPI) extension NSAttributeDescription {
    /// The bytes a value of this attribute is stored as (a transformable attribute's
    /// transformed value; a binary attribute's data), or nil when it has none.
    public func storedBytes(of value: Any) -> Data? {
        attributeType == .transformableAttributeType ? Transformer.encode(value, for: self) : value as? Data
    }

    /// The value that stored bytes stand for, or nil when the transformer cannot decode them.
    public func value(fromStoredBytes data: Data) -> Any? {
        attributeType == .transformableAttributeType ? Transformer.decode(data, for: self) : data
    }
}
