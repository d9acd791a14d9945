import Foundation

// MARK: - Slot values to Swift values

extension NSAttributeDescription {
    /// The Swift value of a slot, typed as Apple's `value(forKey:)` returns it: numbers
    /// as `NSNumber` (which casts to `Int`, `Double`, `Bool`, ... with `as?`), strings,
    /// dates, data, UUIDs, URLs and decimals as their Swift types.
    func swiftValue(of value: SlotValue) -> Any? {
        switch value.type {
        case .null: return nil
        case .int64:
            switch attributeType {
            case .integer16AttributeType: return NSNumber(value: Int16(truncatingIfNeeded: value.int64))
            case .integer32AttributeType: return NSNumber(value: Int32(truncatingIfNeeded: value.int64))
            default: return NSNumber(value: value.int64)
            }
        case .double:
            return attributeType == .floatAttributeType ? NSNumber(value: Float(value.double)) : NSNumber(value: value.double)
        case .bool: return NSNumber(value: value.bool)
        case .text:
            let text = value.string
            switch attributeType {
            case .URIAttributeType: return URL(string: text)
            case .decimalAttributeType: return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            default: return text
            }
        case .date: return Date(timeIntervalSinceReferenceDate: value.double)
        case .blob: return value.data
        case .uuid: return value.uuid
        case .box: return value.boxed
        case .object, .set, .key: return nil
        }
    }

    /// Writes a Swift value into a slot (an object's, marking it dirty or not as the writer
    /// does, or a row's). Returns false when the value's type does not fit the attribute.
    func store<Writer: SlotWriter & ~Copyable>(_ newValue: Any?, into writer: borrowing Writer, slot: Int32) -> Bool {
        guard let newValue = Self.unwrap(newValue) else { return writer.setNull(at: slot) }
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let number = Self.integer(newValue) else { return false }
            return writer.setInt64(number, at: slot)
        case .doubleAttributeType, .floatAttributeType:
            guard let number = Self.double(newValue) else { return false }
            return writer.setDouble(number, at: slot)
        case .booleanAttributeType:
            guard let flag = Self.bool(newValue) else { return false }
            return writer.setBool(flag, at: slot)
        case .stringAttributeType:
            guard let text = newValue as? String else { return false }
            return writer.setText(text, at: slot)
        case .URIAttributeType:
            guard let url = newValue as? URL else { return false }
            return writer.setText(url.absoluteString, at: slot)
        case .decimalAttributeType:
            let decimal: Decimal
            if let d = newValue as? Decimal { decimal = d }
            else if let n = newValue as? NSNumber { decimal = n.decimalValue }
            else { return false }
            return writer.setText(decimal.description, at: slot)
        case .dateAttributeType:
            guard let date = newValue as? Date else { return false }
            return writer.setDate(date.timeIntervalSinceReferenceDate, at: slot)
        case .binaryDataAttributeType:
            guard let data = newValue as? Data else { return false }
            return writer.setData(data, at: slot)
        case .UUIDAttributeType:
            guard let uuid = newValue as? UUID else { return false }
            return writer.setUUID(uuid, at: slot)
        default:
            return writer.setBoxed(newValue, at: slot)
        }
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
