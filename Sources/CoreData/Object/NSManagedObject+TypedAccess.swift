import Foundation
import Synchronization

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
/// with a typed fast path, how the slot is read as the property's Swift type (worked out
/// once, so that accesses compare no metatypes).
final class ManagedResolution: @unchecked Sendable {
    // @unchecked Sendable: immutable.
    enum Kind: UInt8 {
        case none, integer64, integer32, integer16, double, boolean, string, date
    }
    /// The property's Swift type, for the types the typed paths handle.
    enum Shape: UInt8 {
        case other
        case int64, optionalInt64, int, optionalInt, int32, optionalInt32, int16, optionalInt16
        case double, optionalDouble, bool, optionalBool, string, optionalString, date, optionalDate

        init<Value>(_ type: Value.Type) {
            switch type {
            case is Int64.Type: self = .int64
            case is Int64?.Type: self = .optionalInt64
            case is Int.Type: self = .int
            case is Int?.Type: self = .optionalInt
            case is Int32.Type: self = .int32
            case is Int32?.Type: self = .optionalInt32
            case is Int16.Type: self = .int16
            case is Int16?.Type: self = .optionalInt16
            case is Double.Type: self = .double
            case is Double?.Type: self = .optionalDouble
            case is Bool.Type: self = .bool
            case is Bool?.Type: self = .optionalBool
            case is String.Type: self = .string
            case is String?.Type: self = .optionalString
            case is Date.Type: self = .date
            case is Date?.Type: self = .optionalDate
            default: self = .other
            }
        }
    }

    let key: String
    let property: NSPropertyDescription?
    let slot: Int32
    let kind: Kind
    let shape: Shape
    /// Whether the typed paths read and write this property (the Swift type fits the
    /// attribute); otherwise accesses go through KVC.
    let isTyped: Bool
    /// The entity runtime this was resolved for.
    let serial: Int

    init<Value>(key: String, entity: NSEntityDescription, valueType: Value.Type) {
        self.key = key
        let runtime = entity.runtime!
        serial = runtime.serial
        shape = Shape(valueType)
        guard let slot = runtime.slotByName[key] else {
            property = nil
            self.slot = -1
            kind = .none
            isTyped = false
            return
        }
        let property = runtime.slotProperties[Int(slot)]
        self.property = property
        self.slot = slot
        var kind = Kind.none
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
        }
        self.kind = kind
        switch (kind, shape) {
        case (.integer64, .int64), (.integer64, .optionalInt64), (.integer64, .int), (.integer64, .optionalInt),
             (.integer64, .int32), (.integer64, .optionalInt32), (.integer64, .int16), (.integer64, .optionalInt16),
             (.integer32, .int64), (.integer32, .optionalInt64), (.integer32, .int), (.integer32, .optionalInt),
             (.integer32, .int32), (.integer32, .optionalInt32), (.integer32, .int16), (.integer32, .optionalInt16),
             (.integer16, .int64), (.integer16, .optionalInt64), (.integer16, .int), (.integer16, .optionalInt),
             (.integer16, .int32), (.integer16, .optionalInt32), (.integer16, .int16), (.integer16, .optionalInt16),
             (.double, .double), (.double, .optionalDouble), (.boolean, .bool), (.boolean, .optionalBool),
             (.string, .string), (.string, .optionalString), (.date, .date), (.date, .optionalDate):
            isTyped = true
        default:
            isTyped = false
        }
    }
}

/// Resolved `@Managed` properties by storage key path (whose address is stable: the
/// runtime instantiates a key path literal once) and entity.
///
/// Reads take no lock: they probe an immutable table published through an atomic
/// pointer. A miss resolves under the lock and publishes a new table; tables are never
/// freed (there is one entry per property and entity, so they stay small).
final class ManagedPropertyCache: @unchecked Sendable {
    // @unchecked Sendable: `keys` and `tables` are guarded by `lock`; `current` is atomic
    // and points at an immutable table.
    static let shared = ManagedPropertyCache()

    /// An open-addressing table keyed by (key path, entity runtime serial).
    final class Table {
        let entries: [(path: ObjectIdentifier, resolution: ManagedResolution)?]
        let mask: Int

        init(_ resolutions: [(ObjectIdentifier, ManagedResolution)]) {
            var capacity = 16
            while capacity < resolutions.count * 3 { capacity *= 2 }
            var entries = [(path: ObjectIdentifier, resolution: ManagedResolution)?](repeating: nil, count: capacity)
            for (path, resolution) in resolutions {
                var i = Table.start(path, resolution.serial, capacity - 1)
                while entries[i] != nil { i = (i + 1) & (capacity - 1) }
                entries[i] = (path, resolution)
            }
            self.entries = entries
            self.mask = capacity - 1
        }

        @inline(__always)
        static func start(_ path: ObjectIdentifier, _ serial: Int, _ mask: Int) -> Int {
            var h = (UInt(bitPattern: path) >> 4) ^ (UInt(bitPattern: serial) &* 0x9E37_79B9_7F4A_7C15)
            h ^= h >> 29
            return Int(bitPattern: h) & mask
        }

        @inline(__always)
        func find(_ path: ObjectIdentifier, _ serial: Int) -> ManagedResolution? {
            var i = Table.start(path, serial, mask)
            while let entry = entries[i] {
                if entry.path == path && entry.resolution.serial == serial { return entry.resolution }
                i = (i + 1) & mask
            }
            return nil
        }
    }

    private let lock = NSLock()
    /// Property names by key path (the paths are kept alive, so that no other key path
    /// can take their addresses).
    private var keys: [ObjectIdentifier: (path: AnyKeyPath, key: String)] = [:]
    private var resolutions: [(ObjectIdentifier, ManagedResolution)] = []
    /// Every table published, kept alive for readers that may still hold one.
    private var tables: [Table] = []
    private let current = Atomic<Int>(0)

    /// The resolution of a key path for an entity, if the key path's name is known.
    @inline(__always)
    func resolution(for path: AnyKeyPath, entity: NSEntityDescription) -> ManagedResolution? {
        let bits = current.load(ordering: .acquiring)
        let serial = entity.runtime.serial
        if bits != 0 {
            let table = Unmanaged<Table>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
            if let found = table.find(ObjectIdentifier(path), serial) { return found }
        }
        return nil
    }

    /// Resolves a key path whose name is known (`insert`) for an entity, and publishes it.
    func resolve<Value>(_ path: AnyKeyPath, entity: NSEntityDescription, as type: Value.Type) -> ManagedResolution? {
        lock.lock()
        defer { lock.unlock() }
        let id = ObjectIdentifier(path)
        guard let entry = keys[id] else { return nil }
        let serial = entity.runtime.serial
        if let existing = resolutions.first(where: { $0.0 == id && $0.1.serial == serial }) { return existing.1 }
        let resolution = ManagedResolution(key: entry.key, entity: entity, valueType: type)
        resolutions.append((id, resolution))
        let table = Table(resolutions)
        tables.append(table)
        current.store(Int(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
        return resolution
    }

    func insert(_ key: String, for path: AnyKeyPath) {
        lock.lock()
        defer { lock.unlock() }
        if keys[ObjectIdentifier(path)] == nil {
            keys[ObjectIdentifier(path)] = (path, key)
        }
    }
}

extension NSManagedObject {
    /// `value(forKey:)` then `ManagedConversion.cast`, without the boxing when the slot
    /// can be read as `Value` directly.
    func managedValue<Value>(_ resolved: ManagedResolution, as type: Value.Type) -> Value {
        guard resolved.isTyped, invalidValues.isEmpty else {
            return ManagedConversion.cast(value(forKey: resolved.key), to: Value.self, key: resolved.key)
        }
        willAccessValue(forKey: resolved.key)
        defer { didAccessValue(forKey: resolved.key) }
        let slotValue = storage.value(at: resolved.slot)
        if TypedSlot.canRead(slotValue, resolved) {
            return TypedSlot.read(slotValue, resolved, as: Value.self)
        }
        let value = primitiveValue(atSlot: resolved.slot, property: resolved.property!)
        return ManagedConversion.cast(value, to: Value.self, key: resolved.key)
    }

    /// `setValue(_:forKey:)`, writing the slot directly when `Value` fits the attribute.
    func setManagedValue<Value>(_ newValue: Value, _ resolved: ManagedResolution) {
        guard resolved.isTyped else {
            setValue(newValue, forKey: resolved.key)
            return
        }
        willChangeValue(forKey: resolved.key)
        fireFaultIfNeeded()
        context?.noteWillChange(self)
        recordUndoableChange(ofSlot: resolved.slot)
        if !invalidValues.isEmpty { invalidValues.removeValue(forKey: resolved.slot) }
        TypedSlot.write(newValue, resolved, to: storage)
        didChangeValue(forKey: resolved.key)
    }
}

/// Conversions between slot values and the Swift types `@Managed` properties declare,
/// with `ManagedConversion.cast`'s results (nil reads as 0, false or "" for
/// non-optional scalars and strings). Only for resolutions with `isTyped`, whose shape
/// is `Value`'s.
enum TypedSlot {
    @inline(__always)
    private static func bitCast<T, Value>(_ value: T, _: Value.Type) -> Value {
        unsafeBitCast(value, to: Value.self)
    }

    /// Whether `read` handles the slot's value: one of the attribute's type, or NULL
    /// (except for a non-optional Date, which `ManagedConversion` reports).
    @inline(__always)
    static func canRead(_ value: SlotValue, _ resolved: ManagedResolution) -> Bool {
        let type = value.type
        if type == .null { return resolved.shape != .date }
        switch resolved.kind {
        case .integer64, .integer32, .integer16: return type == .int64
        case .double: return type == .double
        case .boolean: return type == .bool
        case .string: return type == .text
        case .date: return type == .date
        case .none: return false
        }
    }

    /// The slot as `Value`, for a value `canRead` accepted. (Returns `Value`, not
    /// `Value?`: the optional of a generic type is a metadata lookup per call in
    /// unspecialized code, which is how client modules call in.)
    @inline(__always)
    static func read<Value>(_ value: SlotValue, _ resolved: ManagedResolution, as type: Value.Type) -> Value {
        let isNull = value.isNull
        switch resolved.shape {
        case .int64, .optionalInt64, .int, .optionalInt, .int32, .optionalInt32, .int16, .optionalInt16:
            var i = isNull ? 0 : value.int64
            if resolved.kind == .integer32 { i = Int64(Int32(truncatingIfNeeded: i)) }
            if resolved.kind == .integer16 { i = Int64(Int16(truncatingIfNeeded: i)) }
            switch resolved.shape {
            case .int64: return bitCast(i, type)
            case .optionalInt64: return bitCast(isNull ? nil : Optional(i), type)
            case .int: return bitCast(Int(i), type)
            case .optionalInt: return bitCast(isNull ? nil : Optional(Int(i)), type)
            case .int32: return bitCast(Int32(truncatingIfNeeded: i), type)
            case .optionalInt32: return bitCast(isNull ? nil : Optional(Int32(truncatingIfNeeded: i)), type)
            case .int16: return bitCast(Int16(truncatingIfNeeded: i), type)
            default: return bitCast(isNull ? nil : Optional(Int16(truncatingIfNeeded: i)), type)
            }
        case .double: return bitCast(isNull ? 0 : value.double, type)
        case .optionalDouble: return bitCast(isNull ? nil : Optional(value.double), type)
        case .bool: return bitCast(isNull ? false : value.bool, type)
        case .optionalBool: return bitCast(isNull ? nil : Optional(value.bool), type)
        case .string: return bitCast(isNull ? "" : value.string, type)
        case .optionalString: return bitCast(isNull ? nil : Optional(value.string), type)
        case .date: return bitCast(Date(timeIntervalSinceReferenceDate: value.double), type)
        case .optionalDate: return bitCast(isNull ? nil : Optional(Date(timeIntervalSinceReferenceDate: value.double)), type)
        case .other: preconditionFailure("read of an untyped @Managed property")
        }
    }

    /// Writes a value of an `isTyped` resolution, marking the slot dirty (as
    /// `NSAttributeDescription.store(_:into:slot:)` does through the object's slots).
    @inline(__always)
    static func write<Value>(_ newValue: Value, _ resolved: ManagedResolution, to slots: borrowing ObjectSlots) {
        let slot = resolved.slot
        switch resolved.shape {
        case .int64: slots.setInt64(bitCast(newValue, Int64.self), at: slot)
        case .optionalInt64: write(bitCast(newValue, Int64?.self), slot, slots) { slots.setInt64($0, at: slot) }
        case .int: slots.setInt64(Int64(bitCast(newValue, Int.self)), at: slot)
        case .optionalInt: write(bitCast(newValue, Int?.self), slot, slots) { slots.setInt64(Int64($0), at: slot) }
        case .int32: slots.setInt64(Int64(bitCast(newValue, Int32.self)), at: slot)
        case .optionalInt32: write(bitCast(newValue, Int32?.self), slot, slots) { slots.setInt64(Int64($0), at: slot) }
        case .int16: slots.setInt64(Int64(bitCast(newValue, Int16.self)), at: slot)
        case .optionalInt16: write(bitCast(newValue, Int16?.self), slot, slots) { slots.setInt64(Int64($0), at: slot) }
        case .double: slots.setDouble(bitCast(newValue, Double.self), at: slot)
        case .optionalDouble: write(bitCast(newValue, Double?.self), slot, slots) { slots.setDouble($0, at: slot) }
        case .bool: slots.setBool(bitCast(newValue, Bool.self), at: slot)
        case .optionalBool: write(bitCast(newValue, Bool?.self), slot, slots) { slots.setBool($0, at: slot) }
        case .date: slots.setDate(bitCast(newValue, Date.self).timeIntervalSinceReferenceDate, at: slot)
        case .optionalDate:
            write(bitCast(newValue, Date?.self), slot, slots) { slots.setDate($0.timeIntervalSinceReferenceDate, at: slot) }
        case .string: slots.setText(bitCast(newValue, String.self), at: slot)
        case .optionalString: write(bitCast(newValue, String?.self), slot, slots) { slots.setText($0, at: slot) }
        case .other: return
        }
    }

    /// An optional's value through `set`, or NULL.
    @inline(__always)
    private static func write<T>(_ value: T?, _ slot: Int32, _ slots: borrowing ObjectSlots, _ set: (T) -> Void) {
        if let value { set(value) } else { slots.setNull(at: slot) }
    }
}
