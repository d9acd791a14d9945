import Foundation
internal import CCoreDataRuntime
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
        if let value = cdr_object_get(storage, resolved.slot)?.pointee, TypedSlot.canRead(value, resolved) {
            return TypedSlot.read(value, resolved, as: Value.self)
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
    static func canRead(_ value: cdr_value, _ resolved: ManagedResolution) -> Bool {
        if value.type == UInt8(CDR_NULL.rawValue) { return resolved.shape != .date }
        switch resolved.kind {
        case .integer64, .integer32, .integer16: return value.type == UInt8(CDR_INT64.rawValue)
        case .double: return value.type == UInt8(CDR_DOUBLE.rawValue)
        case .boolean: return value.type == UInt8(CDR_BOOL.rawValue)
        case .string: return value.type == UInt8(CDR_TEXT.rawValue)
        case .date: return value.type == UInt8(CDR_DATE.rawValue)
        case .none: return false
        }
    }

    /// The slot as `Value`, for a value `canRead` accepted. (Returns `Value`, not
    /// `Value?`: the optional of a generic type is a metadata lookup per call in
    /// unspecialized code, which is how client modules call in.)
    @inline(__always)
    static func read<Value>(_ value: cdr_value, _ resolved: ManagedResolution, as type: Value.Type) -> Value {
        let isNull = value.type == UInt8(CDR_NULL.rawValue)
        var i = value.u.i
        if resolved.kind == .integer32 { i = Int64(Int32(truncatingIfNeeded: i)) }
        if resolved.kind == .integer16 { i = Int64(Int16(truncatingIfNeeded: i)) }
        switch resolved.shape {
        case .int64: return bitCast(isNull ? 0 : i, type)
        case .optionalInt64: return bitCast(isNull ? nil : Optional(i), type)
        case .int: return bitCast(isNull ? 0 : Int(i), type)
        case .optionalInt: return bitCast(isNull ? nil : Optional(Int(i)), type)
        case .int32: return bitCast(isNull ? 0 : Int32(truncatingIfNeeded: i), type)
        case .optionalInt32: return bitCast(isNull ? nil : Optional(Int32(truncatingIfNeeded: i)), type)
        case .int16: return bitCast(isNull ? 0 : Int16(truncatingIfNeeded: i), type)
        case .optionalInt16: return bitCast(isNull ? nil : Optional(Int16(truncatingIfNeeded: i)), type)
        case .double: return bitCast(isNull ? 0 : value.u.d, type)
        case .optionalDouble: return bitCast(isNull ? nil : Optional(value.u.d), type)
        case .bool: return bitCast(isNull ? false : value.u.i != 0, type)
        case .optionalBool: return bitCast(isNull ? nil : Optional(value.u.i != 0), type)
        case .string: return bitCast(isNull ? "" : text(value), type)
        case .optionalString: return bitCast(isNull ? nil : Optional(text(value)), type)
        case .date: return bitCast(Date(timeIntervalSinceReferenceDate: value.u.d), type)
        case .optionalDate: return bitCast(isNull ? nil : Optional(Date(timeIntervalSinceReferenceDate: value.u.d)), type)
        case .other: preconditionFailure("read of an untyped @Managed property")
        }
    }

    /// A text slot as a String (its bytes are length-counted UTF-8).
    @inline(__always)
    static func text(_ value: cdr_value) -> String {
        String(cString: value.u.text)
    }

    /// Writes a value of an `isTyped` resolution, marking the slot dirty (as
    /// `NSAttributeDescription.store(_:in:slot:dirty: true)` does).
    @inline(__always)
    static func write<Value>(_ newValue: Value, _ resolved: ManagedResolution, to object: OpaquePointer) {
        var value = cdr_value()
        switch resolved.shape {
        case .int64: setInteger(&value, bitCast(newValue, Int64.self))
        case .optionalInt64: if let v = bitCast(newValue, Int64?.self) { setInteger(&value, v) }
        case .int: setInteger(&value, Int64(bitCast(newValue, Int.self)))
        case .optionalInt: if let v = bitCast(newValue, Int?.self) { setInteger(&value, Int64(v)) }
        case .int32: setInteger(&value, Int64(bitCast(newValue, Int32.self)))
        case .optionalInt32: if let v = bitCast(newValue, Int32?.self) { setInteger(&value, Int64(v)) }
        case .int16: setInteger(&value, Int64(bitCast(newValue, Int16.self)))
        case .optionalInt16: if let v = bitCast(newValue, Int16?.self) { setInteger(&value, Int64(v)) }
        case .double: setDouble(&value, bitCast(newValue, Double.self), CDR_DOUBLE)
        case .optionalDouble: if let v = bitCast(newValue, Double?.self) { setDouble(&value, v, CDR_DOUBLE) }
        case .bool: setBool(&value, bitCast(newValue, Bool.self))
        case .optionalBool: if let v = bitCast(newValue, Bool?.self) { setBool(&value, v) }
        case .date: setDouble(&value, bitCast(newValue, Date.self).timeIntervalSinceReferenceDate, CDR_DATE)
        case .optionalDate:
            if let v = bitCast(newValue, Date?.self) { setDouble(&value, v.timeIntervalSinceReferenceDate, CDR_DATE) }
        case .string:
            writeText(bitCast(newValue, String.self), object, resolved.slot)
            return
        case .optionalString:
            if let text = bitCast(newValue, String?.self) {
                writeText(text, object, resolved.slot)
                return
            }
        case .other:
            return
        }
        _ = cdr_object_set(object, resolved.slot, &value)
    }

    @inline(__always)
    private static func setInteger(_ value: inout cdr_value, _ number: Int64) {
        value.type = UInt8(CDR_INT64.rawValue)
        value.u.i = number
    }

    @inline(__always)
    private static func setDouble(_ value: inout cdr_value, _ number: Double, _ type: cdr_type) {
        value.type = UInt8(type.rawValue)
        value.u.d = number
    }

    @inline(__always)
    private static func setBool(_ value: inout cdr_value, _ flag: Bool) {
        value.type = UInt8(CDR_BOOL.rawValue)
        value.u.i = flag ? 1 : 0
    }

    private static func writeText(_ text: String, _ object: OpaquePointer, _ slot: Int32) {
        // The runtime copies `length` bytes (embedded NULs survive); NULL with 0 is "".
        var text = text
        text.withUTF8 { buffer in
            _ = cdr_object_set_text(object, slot, UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                    buffer.count)
        }
    }
}
