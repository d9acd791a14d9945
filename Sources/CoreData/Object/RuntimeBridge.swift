import Foundation
internal import CCoreDataRuntime

/// Wires the runtime shim to Swift: reference counting for the object references and
/// boxed values that slots hold, and the fault-fulfilment callback.
enum RuntimeBridge {
    /// Installs the callbacks once per process; every NSManagedObject init touches it.
    static let installed: Bool = {
        cdr_set_reference_callbacks(
            { pointer in if let pointer { _ = Unmanaged<AnyObject>.fromOpaque(pointer).retain() } },
            { pointer in if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() } }
        )
        cdr_set_fulfil_callback({ _, owner, _ in
            guard let owner else { return 1 }
            let object = Unmanaged<NSManagedObject>.fromOpaque(owner).takeUnretainedValue()
            return object.fulfilFault() ? 0 : 1
        }, nil)
        return true
    }()
}

/// A Swift value that has no slot type of its own (transformable and undefined
/// attributes, fetched property results), held in a `CDR_BOX` slot.
final class ValueBox {
    let value: Any
    init(_ value: Any) { self.value = value }
}

// MARK: - Slot values to Swift values

extension NSAttributeDescription {
    /// The Swift value of a slot, typed as Apple's `value(forKey:)` returns it: numbers
    /// as `NSNumber` (which casts to `Int`, `Double`, `Bool`, ... with `as?`), strings,
    /// dates, data, UUIDs, URLs and decimals as their Swift types.
    func swiftValue(of value: cdr_value) -> Any? {
        switch cdr_type(rawValue: UInt32(value.type)) {
        case CDR_NULL: return nil
        case CDR_INT64:
            switch attributeType {
            case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: value.u.i))
            case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: value.u.i))
            default: return NSNumber(value: value.u.i)
            }
        case CDR_DOUBLE:
            return attributeType == .floatAttributeType ? NSNumber(value: Float(value.u.d)) : NSNumber(value: value.u.d)
        case CDR_BOOL: return NSNumber(value: value.u.i != 0)
        case CDR_TEXT:
            let text = String(cString: value.u.text)
            switch attributeType {
            case .URIAttributeType: return URL(string: text)
            case .decimalAttributeType: return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            default: return text
            }
        case CDR_DATE: return Date(timeIntervalSinceReferenceDate: value.u.d)
        case CDR_BLOB:
            guard value.length > 0, let bytes = value.u.blob else { return Data() }
            return Data(bytes: bytes, count: Int(value.length))
        case CDR_UUID:
            return withUnsafeBytes(of: value.u.uuid) { raw in
                UUID(uuid: raw.load(as: uuid_t.self))
            }
        case CDR_BOX:
            guard let pointer = value.u.ref else { return nil }
            return Unmanaged<ValueBox>.fromOpaque(pointer).takeUnretainedValue().value
        default: return nil
        }
    }

    /// Writes a Swift value into a slot of `object` (marking it dirty when `dirty`).
    /// Returns false when the value's type does not fit the attribute.
    func store(_ newValue: Any?, in object: OpaquePointer, slot: Int32, dirty: Bool) -> Bool {
        guard let newValue = Self.unwrap(newValue) else {
            return write(object, slot, dirty) { value in value.type = UInt8(CDR_NULL.rawValue) }
        }
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let number = Self.integer(newValue) else { return false }
            return write(object, slot, dirty) { $0.type = UInt8(CDR_INT64.rawValue); $0.u.i = number }
        case .doubleAttributeType, .floatAttributeType:
            guard let number = Self.double(newValue) else { return false }
            return write(object, slot, dirty) { $0.type = UInt8(CDR_DOUBLE.rawValue); $0.u.d = number }
        case .booleanAttributeType:
            guard let flag = Self.bool(newValue) else { return false }
            return write(object, slot, dirty) { $0.type = UInt8(CDR_BOOL.rawValue); $0.u.i = flag ? 1 : 0 }
        case .stringAttributeType:
            guard let text = newValue as? String else { return false }
            return writeText(text, object, slot, dirty)
        case .URIAttributeType:
            guard let url = newValue as? URL else { return false }
            return writeText(url.absoluteString, object, slot, dirty)
        case .decimalAttributeType:
            let decimal: Decimal
            if let d = newValue as? Decimal { decimal = d }
            else if let n = newValue as? NSNumber { decimal = n.decimalValue }
            else { return false }
            return writeText(decimal.description, object, slot, dirty)
        case .dateAttributeType:
            guard let date = newValue as? Date else { return false }
            return write(object, slot, dirty) { $0.type = UInt8(CDR_DATE.rawValue); $0.u.d = date.timeIntervalSinceReferenceDate }
        case .binaryDataAttributeType:
            guard let data = newValue as? Data else { return false }
            return data.withUnsafeBytes { raw in
                let status = dirty
                    ? cdr_object_set_blob(object, slot, raw.baseAddress, raw.count)
                    : loadBlob(object, slot, raw)
                return status == Int32(CDR_OK)
            }
        case .UUIDAttributeType:
            guard let uuid = newValue as? UUID else { return false }
            return write(object, slot, dirty) { value in
                value.type = UInt8(CDR_UUID.rawValue)
                withUnsafeBytes(of: uuid.uuid) { raw in
                    withUnsafeMutableBytes(of: &value.u.uuid) { $0.copyMemory(from: raw) }
                }
            }
        default:
            let box = ValueBox(newValue)
            return withExtendedLifetime(box) {
                write(object, slot, dirty) { value in
                    value.type = UInt8(CDR_BOX.rawValue)
                    value.u.ref = Unmanaged.passUnretained(box).toOpaque()
                }
            }
        }
    }

    private func loadBlob(_ object: OpaquePointer, _ slot: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
        var value = cdr_value()
        value.type = UInt8(CDR_BLOB.rawValue)
        value.length = UInt32(raw.count)
        value.u.blob = raw.count > 0 ? raw.baseAddress : nil
        return cdr_object_load(object, slot, &value)
    }

    private func writeText(_ text: String, _ object: OpaquePointer, _ slot: Int32, _ dirty: Bool) -> Bool {
        // withCString gives a NUL-terminated buffer (never nil, even for ""); the
        // runtime copies `length` bytes, so embedded NULs survive.
        let length = text.utf8.count
        return text.withCString { chars in
            if dirty {
                return cdr_object_set_text(object, slot, chars, length) == Int32(CDR_OK)
            }
            var value = cdr_value()
            value.type = UInt8(CDR_TEXT.rawValue)
            value.length = UInt32(length)
            value.u.text = chars
            return cdr_object_load(object, slot, &value) == Int32(CDR_OK)
        }
    }

    private func write(_ object: OpaquePointer, _ slot: Int32, _ dirty: Bool, _ fill: (inout cdr_value) -> Void) -> Bool {
        var value = cdr_value()
        fill(&value)
        let status = dirty ? cdr_object_set(object, slot, &value) : cdr_object_load(object, slot, &value)
        return status == Int32(CDR_OK)
    }

    private static let plainTypes = (
        string: ObjectIdentifier(String.self), number: ObjectIdentifier(NSNumber.self),
        date: ObjectIdentifier(Date.self), int: ObjectIdentifier(Int.self),
        int64: ObjectIdentifier(Int64.self), double: ObjectIdentifier(Double.self),
        data: ObjectIdentifier(Data.self), bool: ObjectIdentifier(Bool.self),
        uuid: ObjectIdentifier(UUID.self))

    // MARK: - Coercions Apple's KVC performs for NSNumber-typed attributes

    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // The types slots read back as are neither NSNull nor optionals: skip the casts
        // and the Mirror (which cost more than the rest of a save's validation).
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == plainTypes.string || type == plainTypes.number || type == plainTypes.date
            || type == plainTypes.int || type == plainTypes.int64 || type == plainTypes.double
            || type == plainTypes.data || type == plainTypes.bool || type == plainTypes.uuid {
            return value
        }
        if value is NSNull { return nil }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let child = mirror.children.first else { return nil }
            return unwrap(child.value)
        }
        return value
    }

    static func integer(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        case let v as Int32: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as UInt: return Int64(exactly: v)
        case let v as UInt32: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt8: return Int64(v)
        case let v as Bool: return v ? 1 : 0
        case let v as NSNumber: return v.int64Value
        default: return nil
        }
    }

    static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as NSNumber: return v.doubleValue
        case let v as Decimal: return NSDecimalNumber(decimal: v).doubleValue
        default: return integer(value).map(Double.init)
        }
    }

    static func bool(_ value: Any) -> Bool? {
        switch value {
        case let v as Bool: return v
        case let v as NSNumber: return v.boolValue
        default: return integer(value).map { $0 != 0 }
        }
    }
}
