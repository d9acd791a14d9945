import CoreData

/// `Optional`, seen through a protocol: what `BackingData` needs to read and write optional
/// properties without knowing their type statically.
protocol OptionalBridge {
    static var noneValue: Any { get }
    static var wrappedType: Any.Type { get }
    var wrappedValue: Any? { get }
    static func read(_ stored: Any?, in context: ModelContext) -> Any
}

extension Optional: OptionalBridge {
    static var noneValue: Any { (nil as Wrapped?) as Any }
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedValue: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
    static func read(_ stored: Any?, in context: ModelContext) -> Any {
        guard let stored, !(stored is NSNull) else { return (nil as Wrapped?) as Any }
        return Wrapped?.some(ValueBridge.read(stored, as: Wrapped.self, in: context)) as Any
    }
}

/// An array of models: a to-many relationship.
protocol ModelArrayBridge {
    static var modelType: any PersistentModel.Type { get }
    var models: [any PersistentModel] { get }
    static func read(_ stored: Any?, in context: ModelContext) -> Any
}

extension Array: ModelArrayBridge where Element: PersistentModel {
    static var modelType: any PersistentModel.Type { Element.self }
    var models: [any PersistentModel] { self }
    static func read(_ stored: Any?, in context: ModelContext) -> Any {
        let objects: [NSManagedObject]
        if let set = stored as? Set<NSManagedObject> {
            objects = Array<NSManagedObject>(set)
        } else if let set = stored as? NSSet {
            objects = set.allObjects.compactMap { $0 as? NSManagedObject }
        } else if let ordered = stored as? NSOrderedSet {
            objects = ordered.array.compactMap { $0 as? NSManagedObject }
        } else {
            objects = []
        }
        return objects.map { context.model(for: $0, as: Element.self) }
    }
}

/// Converts between a model property's Swift value and what the managed object stores.
enum ValueBridge {
    /// The managed object's value (`NSNumber`, `String`, a managed object, a set of them…)
    /// as the property's type.
    static func read<Value>(_ stored: Any?, as _: Value.Type, in context: ModelContext) -> Value {
        if let optional = Value.self as? any OptionalBridge.Type {
            return optional.read(stored, in: context) as! Value
        }
        if let modelType = Value.self as? any PersistentModel.Type {
            guard let object = stored as? NSManagedObject else {
                fatalError("SwiftData: a non-optional relationship of type \(Value.self) has no value")
            }
            return context.model(for: object, as: modelType) as! Value
        }
        if let array = Value.self as? any ModelArrayBridge.Type {
            return array.read(stored, in: context) as! Value
        }
        guard let stored, !(stored is NSNull) else {
            fatalError("SwiftData: a non-optional property of type \(Value.self) has no value in the store")
        }
        if let value = stored as? Value { return value }
        if let number = stored as? NSNumber, let value = number.converted(to: Value.self) { return value }
        if let raw = Value.self as? any RawRepresentable.Type, let value = rawValue(stored, raw, in: context) {
            return value as! Value
        }
        if isArchived(Value.self), let data = stored as? Data, let codable = Value.self as? any Decodable.Type {
            do {
                return try decode(codable, from: data) as! Value
            } catch {
                fatalError("SwiftData: the stored \(Value.self) cannot be decoded: \(error)")
            }
        }
        fatalError("SwiftData: the store holds \(type(of: stored)) where \(Value.self) was expected")
    }

    // MARK: - Codable values

    /// Whether values of `type` are stored as their encoding (a `Codable` type with no
    /// attribute type of its own, not an enum with a storable raw value).
    static func isArchived(_ type: Any.Type) -> Bool {
        Schema.attributeType(of: type) == .binaryDataAttributeType && type != Data.self
    }

    /// A `Codable` value's stored form: its JSON encoding, keys sorted, so that equal
    /// values of one type are stored as equal bytes.
    static func encode(_ value: any Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(value)
        } catch {
            fatalError("SwiftData: a \(type(of: value)) cannot be encoded for the store: \(error)")
        }
    }

    private static func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D {
        try JSONDecoder().decode(D.self, from: data)
    }

    private static func rawValue<R: RawRepresentable>(_ stored: Any, _ type: R.Type, in context: ModelContext) -> R? {
        R(rawValue: read(stored, as: R.RawValue.self, in: context))
    }

    /// The property's Swift value as the managed object stores it. Models are inserted into
    /// `context` when they are not in it yet.
    static func write(_ value: Any, in context: ModelContext) -> Any? {
        if let optional = value as? any OptionalBridge {
            guard let wrapped = optional.wrappedValue else { return nil }
            return write(wrapped, in: context)
        }
        if let model = value as? any PersistentModel {
            return context.managedObject(for: model)
        }
        if let array = value as? any ModelArrayBridge {
            return Set(array.models.map { context.managedObject(for: $0) as NSManagedObject })
        }
        if let raw = value as? any RawRepresentable, Schema.attributeType(of: type(of: raw.rawValue)) != nil {
            return write(raw.rawValue, in: context)
        }
        if isArchived(type(of: value)), let codable = value as? any Encodable {
            return encode(codable)
        }
        return value
    }

    /// A declaration's initial value as an attribute's default value: numbers as
    /// `NSNumber`, enums as their raw value, nil for `nil`.
    static func storedDefault(_ value: Any) -> Any? {
        if let optional = value as? any OptionalBridge {
            guard let wrapped = optional.wrappedValue else { return nil }
            return storedDefault(wrapped)
        }
        if let raw = value as? any RawRepresentable, Schema.attributeType(of: type(of: raw.rawValue)) != nil {
            return storedDefault(raw.rawValue)
        }
        if isArchived(type(of: value)), let codable = value as? any Encodable { return encode(codable) }
        switch value {
        case let number as Int: return NSNumber(value: number)
        case let number as Int64: return NSNumber(value: number)
        case let number as Int32: return NSNumber(value: number)
        case let number as Int16: return NSNumber(value: number)
        case let number as Int8: return NSNumber(value: number)
        case let number as UInt: return NSNumber(value: number)
        case let number as UInt64: return NSNumber(value: number)
        case let number as UInt32: return NSNumber(value: number)
        case let number as UInt16: return NSNumber(value: number)
        case let number as UInt8: return NSNumber(value: number)
        case let number as Double: return NSNumber(value: number)
        case let number as Float: return NSNumber(value: number)
        case let flag as Bool: return NSNumber(value: flag)
        default: return value
        }
    }

    /// The context of the first inserted model `value` holds (a model, an optional one, an
    /// array of them), if any.
    static func context(of value: Any) -> ModelContext? {
        if let optional = value as? any OptionalBridge {
            return optional.wrappedValue.flatMap { context(of: $0) }
        }
        if let model = value as? any PersistentModel { return model.modelContext }
        if let array = value as? any ModelArrayBridge {
            for model in array.models { if let context = model.modelContext { return context } }
        }
        return nil
    }

    /// A constant of a predicate as the store compares it; nil when it cannot be (a model
    /// not inserted yet).
    static func constant(_ value: Any) -> Any?? {
        if let optional = value as? any OptionalBridge {
            guard let wrapped = optional.wrappedValue else { return .some(nil) }
            return constant(wrapped)
        }
        if let model = value as? any PersistentModel {
            guard let object = model.persistentBackingData.object else { return nil }
            return .some(object)
        }
        if let identifier = value as? PersistentIdentifier {
            guard let objectID = identifier.objectID else { return nil }
            return .some(objectID)
        }
        if value is any ModelArrayBridge { return nil }
        if let raw = value as? any RawRepresentable { return constant(raw.rawValue) }
        return .some(value)
    }
}

extension NSNumber {
    /// The number as a Swift numeric type, or nil when `type` is not one.
    func converted<Value>(to type: Value.Type) -> Value? {
        switch type {
        case is Int.Type: return intValue as? Value
        case is Int64.Type: return int64Value as? Value
        case is Int32.Type: return int32Value as? Value
        case is Int16.Type: return int16Value as? Value
        case is Int8.Type: return int8Value as? Value
        case is UInt.Type: return uintValue as? Value
        case is UInt64.Type: return uint64Value as? Value
        case is UInt32.Type: return uint32Value as? Value
        case is UInt16.Type: return uint16Value as? Value
        case is UInt8.Type: return uint8Value as? Value
        case is Double.Type: return doubleValue as? Value
        case is Float.Type: return floatValue as? Value
        case is Bool.Type: return boolValue as? Value
        case is Decimal.Type: return decimalValue as? Value
        default: return nil
        }
    }
}
