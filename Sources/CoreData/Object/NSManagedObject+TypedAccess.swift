import Foundation
internal import CCoreDataRuntime

// MARK: - Typed reads and writes for @Managed properties
//
// `@Managed var quantity: Int64` used to go through `value(forKey:)` and
// `setValue(_:forKey:)`: an `NSNumber` per read, an `Any` plus a Mirror per write, and
// a key lookup by string each time. The paths here read and write the slot directly
// when the Swift type and the attribute type agree, with the same notifications and
// change tracking as KVC; anything else falls back to KVC.
//
// Keep in step with `value(forKey:)`, `setValue(_:forKey:)`, `setValue(_:for:)` and
// `setPrimitive(_:for:)` (NSManagedObject+KeyValueCoding.swift): the same hooks must run
// in the same order here.

/// A `@Managed` property resolved for one entity: its key, property and, for attributes
/// with a typed fast path, how the slot is read.
struct ManagedResolution {
    enum Kind: UInt8 {
        case none, integer64, integer32, integer16, double, boolean, string, date
    }
    let key: String
    let property: NSPropertyDescription?
    let slot: Int32
    let kind: Kind

    init(key: String, entity: NSEntityDescription) {
        self.key = key
        let runtime = entity.runtime!
        guard let slot = runtime.slotByName[key] else {
            property = nil
            self.slot = -1
            kind = .none
            return
        }
        let property = runtime.slotProperties[Int(slot)]
        self.property = property
        self.slot = slot
        if let attribute = property as? NSAttributeDescription {
            switch attribute.attributeType {
            case .integer64AttributeType: kind = .integer64
            case .integer32AttributeType: kind = .integer32
            case .integer16AttributeType: kind = .integer16
            case .doubleAttributeType: kind = .double
            case .booleanAttributeType: kind = .boolean
            case .stringAttributeType: kind = .string
            case .dateAttributeType: kind = .date
            default: kind = .none
            }
        } else {
            kind = .none
        }
    }
}

/// Resolved `@Managed` properties by storage key path (whose address is stable: the
/// runtime instantiates a key path literal once), with the entity last seen.
final class ManagedPropertyCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is guarded by `lock`.
    static let shared = ManagedPropertyCache()

    private struct Entry {
        /// Kept alive, so that no other key path can take its address.
        let path: AnyKeyPath
        let key: String
        var entity: NSEntityDescription?
        var resolution: ManagedResolution?
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func resolution(for path: AnyKeyPath, entity: NSEntityDescription) -> ManagedResolution? {
        lock.lock()
        defer { lock.unlock() }
        let id = ObjectIdentifier(path)
        guard var entry = entries[id] else { return nil }
        if entry.entity === entity, let resolution = entry.resolution { return resolution }
        let resolution = ManagedResolution(key: entry.key, entity: entity)
        entry.entity = entity
        entry.resolution = resolution
        entries[id] = entry
        return resolution
    }

    func insert(_ key: String, for path: AnyKeyPath) {
        lock.lock()
        defer { lock.unlock() }
        if entries[ObjectIdentifier(path)] == nil {
            entries[ObjectIdentifier(path)] = Entry(path: path, key: key)
        }
    }
}

extension NSManagedObject {
    /// `value(forKey:)` then `ManagedConversion.cast`, without the boxing when the slot
    /// can be read as `Value` directly.
    func managedValue<Value>(_ resolved: ManagedResolution, as type: Value.Type) -> Value {
        guard resolved.kind != .none, invalidValues.isEmpty else {
            return ManagedConversion.cast(value(forKey: resolved.key), to: Value.self, key: resolved.key)
        }
        willAccessValue(forKey: resolved.key)
        defer { didAccessValue(forKey: resolved.key) }
        if let value = cdr_object_get(storage, resolved.slot),
           let typed = TypedSlot.read(value, kind: resolved.kind, as: Value.self) {
            return typed
        }
        let value = primitiveValue(atSlot: resolved.slot, property: resolved.property!)
        return ManagedConversion.cast(value, to: Value.self, key: resolved.key)
    }

    /// `setValue(_:forKey:)`, writing the slot directly when `Value` fits the attribute.
    func setManagedValue<Value>(_ newValue: Value, _ resolved: ManagedResolution) {
        guard resolved.kind != .none, TypedSlot.canWrite(Value.self, kind: resolved.kind) else {
            setValue(newValue, forKey: resolved.key)
            return
        }
        willChangeValue(forKey: resolved.key)
        fireFaultIfNeeded()
        context?.noteWillChange(self)
        recordUndoableChange(ofSlot: resolved.slot)
        if !invalidValues.isEmpty { invalidValues.removeValue(forKey: resolved.slot) }
        TypedSlot.write(newValue, kind: resolved.kind, to: storage, slot: resolved.slot)
        didChangeValue(forKey: resolved.key)
    }
}

/// Conversions between slot values and the Swift types `@Managed` properties declare,
/// with `ManagedConversion.cast`'s results (nil reads as 0, false or "" for
/// non-optional scalars and strings).
enum TypedSlot {
    @inline(__always)
    private static func bitCast<T, Value>(_ value: T, _: Value.Type) -> Value {
        unsafeBitCast(value, to: Value.self)
    }

    /// The slot as `Value`, or nil when this path does not handle the combination.
    static func read<Value>(_ pointer: UnsafePointer<cdr_value>, kind: ManagedResolution.Kind, as type: Value.Type) -> Value? {
        let value = pointer.pointee
        let isNull = value.type == UInt8(CDR_NULL.rawValue)
        switch kind {
        case .integer64, .integer32, .integer16:
            guard isNull || value.type == UInt8(CDR_INT64.rawValue) else { return nil }
            var i = value.u.i
            if kind == .integer32 { i = Int64(Int32(truncatingIfNeeded: i)) }
            if kind == .integer16 { i = Int64(Int16(truncatingIfNeeded: i)) }
            if type == Int64.self { return bitCast(isNull ? 0 : i, type) }
            if type == Int64?.self { return bitCast(isNull ? nil : Optional(i), type) }
            if type == Int.self { return bitCast(isNull ? 0 : Int(i), type) }
            if type == Int?.self { return bitCast(isNull ? nil : Optional(Int(i)), type) }
            if type == Int32.self { return bitCast(isNull ? 0 : Int32(truncatingIfNeeded: i), type) }
            if type == Int32?.self { return bitCast(isNull ? nil : Optional(Int32(truncatingIfNeeded: i)), type) }
            if type == Int16.self { return bitCast(isNull ? 0 : Int16(truncatingIfNeeded: i), type) }
            if type == Int16?.self { return bitCast(isNull ? nil : Optional(Int16(truncatingIfNeeded: i)), type) }
            return nil
        case .double:
            guard isNull || value.type == UInt8(CDR_DOUBLE.rawValue) else { return nil }
            if type == Double.self { return bitCast(isNull ? 0 : value.u.d, type) }
            if type == Double?.self { return bitCast(isNull ? nil : Optional(value.u.d), type) }
            return nil
        case .boolean:
            guard isNull || value.type == UInt8(CDR_BOOL.rawValue) else { return nil }
            if type == Bool.self { return bitCast(isNull ? false : value.u.i != 0, type) }
            if type == Bool?.self { return bitCast(isNull ? nil : Optional(value.u.i != 0), type) }
            return nil
        case .string:
            guard isNull || value.type == UInt8(CDR_TEXT.rawValue) else { return nil }
            if type == String.self { return bitCast(isNull ? "" : String(cString: value.u.text), type) }
            if type == String?.self { return bitCast(isNull ? nil : Optional(String(cString: value.u.text)), type) }
            return nil
        case .date:
            guard isNull || value.type == UInt8(CDR_DATE.rawValue) else { return nil }
            // A nil non-optional Date traps in ManagedConversion: leave that to it.
            if type == Date.self, !isNull { return bitCast(Date(timeIntervalSinceReferenceDate: value.u.d), type) }
            if type == Date?.self {
                return bitCast(isNull ? nil : Optional(Date(timeIntervalSinceReferenceDate: value.u.d)), type)
            }
            return nil
        case .none:
            return nil
        }
    }

    static func canWrite<Value>(_ type: Value.Type, kind: ManagedResolution.Kind) -> Bool {
        switch kind {
        case .integer64, .integer32, .integer16:
            return type == Int64.self || type == Int64?.self || type == Int.self || type == Int?.self
                || type == Int32.self || type == Int32?.self || type == Int16.self || type == Int16?.self
        case .double: return type == Double.self || type == Double?.self
        case .boolean: return type == Bool.self || type == Bool?.self
        case .string: return type == String.self || type == String?.self
        case .date: return type == Date.self || type == Date?.self
        case .none: return false
        }
    }

    /// Writes a value `canWrite` accepted, marking the slot dirty (as
    /// `NSAttributeDescription.store(_:in:slot:dirty: true)` does).
    static func write<Value>(_ newValue: Value, kind: ManagedResolution.Kind, to object: OpaquePointer, slot: Int32) {
        var value = cdr_value()
        switch kind {
        case .integer64, .integer32, .integer16:
            if let number = integer(newValue) {
                value.type = UInt8(CDR_INT64.rawValue)
                value.u.i = number
            }
        case .double:
            if let number = unwrapped(newValue, Double.self) {
                value.type = UInt8(CDR_DOUBLE.rawValue)
                value.u.d = number
            }
        case .boolean:
            if let flag = unwrapped(newValue, Bool.self) {
                value.type = UInt8(CDR_BOOL.rawValue)
                value.u.i = flag ? 1 : 0
            }
        case .date:
            if let date = unwrapped(newValue, Date.self) {
                value.type = UInt8(CDR_DATE.rawValue)
                value.u.d = date.timeIntervalSinceReferenceDate
            }
        case .string:
            if let text = unwrapped(newValue, String.self) {
                let length = text.utf8.count
                _ = text.withCString { cdr_object_set_text(object, slot, $0, length) }
                return
            }
        case .none:
            return
        }
        _ = cdr_object_set(object, slot, &value)
    }

    /// An integer `newValue` (of a type `canWrite` accepts) as an optional Int64.
    @inline(__always)
    private static func integer<Value>(_ newValue: Value) -> Int64? {
        let type = Value.self
        if type == Int64.self || type == Int64?.self { return unwrapped(newValue, Int64.self) }
        if type == Int.self || type == Int?.self { return unwrapped(newValue, Int.self).map(Int64.init) }
        if type == Int32.self || type == Int32?.self { return unwrapped(newValue, Int32.self).map(Int64.init) }
        return unwrapped(newValue, Int16.self).map(Int64.init)
    }

    /// `newValue` (a `T` or a `T?`) as an optional `T`.
    @inline(__always)
    private static func unwrapped<Value, T>(_ newValue: Value, _: T.Type) -> T? {
        if Value.self == T.self { return bitCast(newValue, T.self) }
        return bitCast(newValue, T?.self)
    }
}
