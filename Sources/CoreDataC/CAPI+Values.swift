import CCoreDataAPI
@_spi(CAPI) import CoreData
import Foundation

// MARK: - Objects: typed attribute values
//
// Each accessor checks the key against the entity (CD_NOTFOUND) and the attribute's type
// against the C type (CD_TYPE) before it touches the object, then reads or writes through
// the throwing twins `checkedValue(forKey:)` / `checkedSetValue(_:forKey:)`.

/// The C-facing families of attribute types.
enum ValueFamily: String {
    case integer = "an integer", double = "a double", bool = "a Boolean", text = "text"
    case blob = "binary data", date = "a date", uuid = "a UUID", decimal = "a decimal"

    func accepts(_ type: NSAttributeType) -> Bool {
        switch (self, type) {
        case (.integer, .integer16AttributeType), (.integer, .integer32AttributeType),
             (.integer, .integer64AttributeType): true
        case (.double, .doubleAttributeType), (.double, .floatAttributeType): true
        case (.bool, .booleanAttributeType): true
        case (.text, .stringAttributeType), (.text, .URIAttributeType): true
        case (.blob, .binaryDataAttributeType), (.blob, .transformableAttributeType): true
        case (.date, .dateAttributeType): true
        case (.uuid, .UUIDAttributeType): true
        case (.decimal, .decimalAttributeType): true
        default: false
        }
    }
}

/// The property named `key` of the object's entity, or CD_NOTFOUND.
func property(_ key: String, of object: NSManagedObject) throws -> NSPropertyDescription {
    guard let property = object.entity.propertiesByName[key] else {
        throw CAPIError(.notFound, "The entity \(object.entity.name ?? "?") has no property named \(key).")
    }
    return property
}

/// The attribute named `key`, checked against a C value family.
func attribute(_ key: String, of object: NSManagedObject, _ family: ValueFamily) throws -> NSAttributeDescription {
    guard let attribute = try property(key, of: object) as? NSAttributeDescription else {
        throw CAPIError(.type, "\(object.entity.name ?? "?").\(key) is a relationship, not an attribute.")
    }
    guard family.accepts(attribute.attributeType) else {
        throw CAPIError(.type, "\(object.entity.name ?? "?").\(key) is of type \(attribute.attributeType) (\(attribute.attributeType.rawValue)), not \(family.rawValue).")
    }
    return attribute
}

/// Reads an attribute of a family: nil becomes CD_NULL.
func readAttribute(_ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ family: ValueFamily) throws -> Any {
    let box = try handle(object, as: ObjectBox.self, "object")
    let key = try requireString(key, "key")
    return try box.run { object in
        _ = try attribute(key, of: object, family)
        guard let value = try object.throwingValue(forKey: key), !(value is NSNull) else {
            throw CAPIError(.null, "\(object.entity.name ?? "?").\(key) is null.")
        }
        return value
    }
}

/// Writes an attribute of a family (`value` nil writes null).
func writeAttribute(_ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ family: ValueFamily,
                    _ makeValue: (NSAttributeDescription) throws -> Any?) throws {
    let box = try handle(object, as: ObjectBox.self, "object")
    let key = try requireString(key, "key")
    try box.run { object in
        let attribute = try attribute(key, of: object, family)
        try object.throwingSetValue(try makeValue(attribute), forKey: key)
    }
}

/// A number stored in an attribute, as NSNumber.
func number(_ value: Any) throws -> NSNumber {
    switch value {
    case let number as NSNumber: return number
    case let value as Int64: return NSNumber(value: value)
    case let value as Int: return NSNumber(value: value)
    case let value as Double: return NSNumber(value: value)
    case let value as Bool: return NSNumber(value: value)
    default: throw CAPIError(.type, "The stored value \(value) is not a number.")
    }
}

// MARK: Null

@c @implementation public func cd_object_is_null(
    _ out: UnsafeMutablePointer<Int32>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        out.pointee = try box.run { object in
            let property = try property(key, of: object)
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { return 0 }
            let value = try object.throwingValue(forKey: key)
            return value == nil || value is NSNull ? 1 : 0
        }
    }
}

@c @implementation public func cd_object_set_null(_ object: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Int32 {
    capi {
        let box = try handle(object, as: ObjectBox.self, "object")
        let key = try requireString(key, "key")
        try box.run { object in
            if let relationship = try property(key, of: object) as? NSRelationshipDescription, relationship.isToMany {
                throw CAPIError(.type, "\(object.entity.name ?? "?").\(key) is a to-many relationship: remove its members instead.")
            }
            try object.throwingSetValue(nil, forKey: key)
        }
    }
}

// MARK: Integers

@c @implementation public func cd_object_get_int64(
    _ out: UnsafeMutablePointer<Int64>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try number(try readAttribute(object, key, .integer)).int64Value
    }
}

@c @implementation public func cd_object_set_int64(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64
) -> Int32 {
    capi {
        try writeAttribute(object, key, .integer) { attribute in
            let range: ClosedRange<Int64> = switch attribute.attributeType {
            case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
            case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
            default: Int64.min...Int64.max
            }
            guard range.contains(value) else {
                throw CAPIError(.range, "\(value) does not fit the attribute \(attribute.name) of type \(attribute.attributeType).")
            }
            return NSNumber(value: value)
        }
    }
}

// MARK: Doubles

@c @implementation public func cd_object_get_double(
    _ out: UnsafeMutablePointer<Double>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try number(try readAttribute(object, key, .double)).doubleValue
    }
}

@c @implementation public func cd_object_set_double(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double
) -> Int32 {
    capi {
        try writeAttribute(object, key, .double) { attribute in
            // SQLite stores NaN as NULL: the value would come back as null after a save.
            guard !value.isNaN else {
                throw CAPIError(.range, "NaN cannot be stored in \(attribute.name) (the store would keep null); use cd_object_set_null for no value.")
            }
            guard attribute.attributeType == .floatAttributeType else { return NSNumber(value: value) }
            let float = Float(value)
            guard float.isFinite || value.isInfinite, float != 0 || value == 0 else {
                throw CAPIError(.range, "\(value) does not fit the float attribute \(attribute.name) (it would become \(float)).")
            }
            return NSNumber(value: float)
        }
    }
}

// MARK: Booleans

@c @implementation public func cd_object_get_bool(
    _ out: UnsafeMutablePointer<Int32>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try number(try readAttribute(object, key, .bool)).boolValue ? 1 : 0
    }
}

@c @implementation public func cd_object_set_bool(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int32
) -> Int32 {
    capi {
        try writeAttribute(object, key, .bool) { _ in NSNumber(value: value != 0) }
    }
}

// MARK: Text

@c @implementation public func cd_object_get_text(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ object: OpaquePointer?,
    _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let value = try readAttribute(object, key, .text)
        let text: String
        switch value {
        case let string as String: text = string
        case let url as URL: text = url.absoluteString
        default: text = "\(value)"
        }
        out.pointee = try ownedCString(text)
    }
}

@c @implementation public func cd_object_set_text(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        try writeAttribute(object, key, .text) { attribute in
            guard let value else { return nil }
            let text = try utf8String(value, "value")
            guard attribute.attributeType == .URIAttributeType else { return text }
            guard let url = uri(text) else {
                throw CAPIError(.type, "\"\(text)\" is not a URI (attribute \(attribute.name)).")
            }
            return url
        }
    }
}

/// `text` as a URL when it is a URI (or a relative reference) exactly as written: nil for
/// text that `URL(string:)` would reject or only accept by percent-encoding some of it
/// (which would silently change the stored value), and for an empty scheme ("://x").
func uri(_ text: String) -> URL? {
    guard let url = URL(string: text, encodingInvalidCharacters: false),
          url.absoluteString == text, url.scheme != "" else { return nil }
    return url
}

// MARK: Binary data

@c @implementation public func cd_object_get_blob(
    _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let outLength = try requireOut(outLength, "out_length")
        let data = try readBytes(object, key)
        if data.isEmpty {
            out.pointee = nil
        } else {
            guard let bytes = malloc(data.count) else { throw CAPIError(.nomem, "Out of memory.") }
            data.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: data.count)
            out.pointee = bytes
        }
        outLength.pointee = data.count
    }
}

@c @implementation public func cd_object_set_blob(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?, _ length: Int
) -> Int32 {
    capi {
        let data = try copiedBytes(bytes, length)
        try writeAttribute(object, key, .blob) { attribute in
            guard let value = attribute.value(fromStoredBytes: data) else {
                throw CAPIError(.type, "The bytes are not a value that \(attribute.valueTransformerName ?? "") can decode (attribute \(attribute.name)).")
            }
            return value
        }
    }
}

// Transformable attributes hold values in memory and bytes in the store. Through C they
// read and write as those stored bytes, by the store's own rule
// (`NSAttributeDescription.storedBytes(of:)` / `value(fromStoredBytes:)`).

/// The bytes of a binary attribute, or the stored bytes of a transformable one.
private func readBytes(_ object: OpaquePointer?, _ key: UnsafePointer<CChar>?) throws -> Data {
    let box = try handle(object, as: ObjectBox.self, "object")
    let key = try requireString(key, "key")
    return try box.run { object in
        let attribute = try attribute(key, of: object, .blob)
        guard let value = try object.throwingValue(forKey: key), !(value is NSNull) else {
            throw CAPIError(.null, "\(object.entity.name ?? "?").\(key) is null.")
        }
        guard let stored = attribute.storedBytes(of: value) else {
            throw CAPIError(.type, "\(object.entity.name ?? "?").\(key) holds \(type(of: value)), which has no bytes to store.")
        }
        return stored
    }
}

// MARK: Dates

@c @implementation public func cd_object_get_date(
    _ out: UnsafeMutablePointer<Double>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        guard let date = try readAttribute(object, key, .date) as? Date else {
            throw CAPIError(.type, "The stored value is not a date.")
        }
        out.pointee = date.timeIntervalSince1970
    }
}

@c @implementation public func cd_object_set_date(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ seconds: Double
) -> Int32 {
    capi {
        guard seconds.isFinite else { throw CAPIError(.range, "The date \(seconds) is not finite.") }
        try writeAttribute(object, key, .date) { _ in Date(timeIntervalSince1970: seconds) }
    }
}

// MARK: UUIDs

@c @implementation public func cd_object_get_uuid(
    _ out: UnsafeMutablePointer<UInt8>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        guard let uuid = try readAttribute(object, key, .uuid) as? UUID else {
            throw CAPIError(.type, "The stored value is not a UUID.")
        }
        withUnsafeBytes(of: uuid.uuid) { raw in
            for index in 0..<16 { out[index] = raw[index] }
        }
    }
}

/// A UUID from 16 bytes.
func uuid(from bytes: UnsafePointer<UInt8>) -> UUID {
    UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
}

@c @implementation public func cd_object_set_uuid(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafePointer<UInt8>?
) -> Int32 {
    capi {
        guard let bytes else { throw CAPIError(.misuse, "bytes is NULL.") }
        try writeAttribute(object, key, .uuid) { _ in uuid(from: bytes) }
    }
}

// MARK: Decimals

/// A decimal number written as text, reduced to sign, significant digits and exponent, so
/// that "12.50", "1.25e1" and "0012.5" compare equal; nil for text that is not a number.
struct DecimalDigits: Equatable {
    let negative: Bool
    let digits: [UInt8]
    let exponent: Int

    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let integer = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integer.count)
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            let written = bytes.dropFirst()
            guard let last = written.last, isDigit(last),
                  let first = written.first, isDigit(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+"),
                  written.dropFirst().allSatisfy(isDigit) else { return nil }
            // Clamped: any exponent this large is far outside what a Decimal holds.
            exponent = Int(String(decoding: written, as: UTF8.self)).map { max(-1_000_000, min($0, 1_000_000)) }
                ?? (first == UInt8(ascii: "-") ? -1_000_000 : 1_000_000)
            bytes = []
        }
        guard bytes.isEmpty else { return nil }
        var digits = Array(integer + fraction).map { $0 - UInt8(ascii: "0") }
        let (shifted, overflow) = exponent.subtractingReportingOverflow(fraction.count)
        guard !overflow else { return nil }
        exponent = shifted
        while let last = digits.last, last == 0 { digits.removeLast(); exponent += 1 }
        let leading = digits.prefix(while: { $0 == 0 }).count
        digits.removeFirst(leading)
        if digits.isEmpty { negative = false; exponent = 0 }
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }
}

@c @implementation public func cd_object_get_decimal(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ object: OpaquePointer?,
    _ key: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let value = try readAttribute(object, key, .decimal)
        let decimal: Decimal
        switch value {
        case let value as Decimal: decimal = value
        case let number as NSNumber: decimal = number.decimalValue
        default: throw CAPIError(.type, "The stored value is not a decimal.")
        }
        out.pointee = try ownedCString(decimal.description)
    }
}

@c @implementation public func cd_object_set_decimal(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ text: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let text = try requireString(text, "text")
        try writeAttribute(object, key, .decimal) { attribute in
            try exactDecimal(text, "attribute \(attribute.name)")
        }
    }
}

/// The decimal number `text` spells ("-12.50", "1.5e3"), exactly, or an error naming
/// `subject`: `.type` for text that is no number, `.range` for a number a `Decimal` cannot
/// hold exactly (it keeps 38 digits and exponents -128...127; beyond that
/// `Decimal(string:)` rounds or fails, and we refuse rather than use another number).
func exactDecimal(_ text: String, _ subject: String) throws -> Decimal {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let written = DecimalDigits(trimmed) else {
        throw CAPIError(.type, "\"\(text)\" is not a decimal number (\(subject)).")
    }
    guard let decimal = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")),
          !decimal.isNaN, DecimalDigits(decimal.description) == written else {
        throw CAPIError(.range, "\(text) cannot be held exactly by a decimal (at most 38 significant digits) (\(subject)).")
    }
    return decimal
}
