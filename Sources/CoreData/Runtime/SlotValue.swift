import Foundation
internal import CCoreDataRuntime

/// A borrowed view of one value in a slot block or a row.
///
/// Valid until that slot is next written or its holder is freed: read what you need from it
/// at once. Each accessor assumes ``type`` is one it serves (they read the same storage).
struct SlotValue {
    /// nil for a slot index out of range, which reads as NULL.
    let pointer: UnsafePointer<cdr_value>?

    var type: SlotType {
        @inline(__always) get {
            guard let pointer else { return .null }
            let tag = pointer.pointee.type
            // Every tag the runtime writes is a SlotType; anything else reads as NULL.
            return tag <= SlotType.key.rawValue ? unsafeBitCast(tag, to: SlotType.self) : .null
        }
    }

    var isNull: Bool {
        @inline(__always) get { pointer.map { $0.pointee.type == SlotType.null.rawValue } ?? true }
    }

    /// `int64` and `bool` slots.
    var int64: Int64 { pointer!.pointee.u.i }
    /// `bool` slots (and `int64` ones, non-zero).
    var bool: Bool { pointer!.pointee.u.i != 0 }
    /// `double` and `date` slots (a date as seconds since the reference date).
    var double: Double { pointer!.pointee.u.d }
    /// `text` slots, as a String (the runtime keeps text NUL-terminated).
    var string: String {
        let value = pointer!.pointee
        guard value.length > 0, let text = value.u.text else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(value.length)), as: UTF8.self)
    }
    /// The bytes of a `text` or `blob` slot (empty for an empty blob).
    var bytes: UnsafeRawBufferPointer {
        let value = pointer!.pointee
        let start: UnsafeRawPointer? = value.type == SlotType.text.rawValue
            ? value.u.text.map(UnsafeRawPointer.init) : value.u.blob
        guard value.length > 0, let start else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: Int(value.length))
    }
    /// A `blob` slot as Data.
    var data: Data { bytes.count > 0 ? Data(bytes) : Data() }
    var uuid: UUID {
        withUnsafeBytes(of: pointer!.pointee.u.uuid) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
    /// A `key` slot: a row's to-one reference.
    var key: StoreKey {
        let key = pointer!.pointee.u.key
        return StoreKey(entityID: Int(key.entity), pk: key.pk)
    }
    /// The object an `object` slot references (unretained: the slot keeps it alive).
    func object<T: AnyObject>(as type: T.Type) -> T? {
        guard self.type == .object, let reference = pointer!.pointee.u.ref else { return nil }
        return Unmanaged<T>.fromOpaque(reference).takeUnretainedValue()
    }
    /// The value a `box` slot holds.
    var boxed: Any? {
        guard self.type == .box, let reference = pointer!.pointee.u.ref else { return nil }
        return Unmanaged<ValueBox>.fromOpaque(reference).takeUnretainedValue().value
    }
    /// The members of a `set` slot.
    var set: SlotSet? {
        guard self.type == .set, let set = pointer!.pointee.u.set else { return nil }
        return SlotSet(handle: set)
    }

    /// Equality by type and content: text and blobs by bytes, references by identity, sets
    /// by membership. NULL equals NULL.
    func isEqual(to other: SlotValue) -> Bool {
        switch (pointer, other.pointer) {
        case (nil, nil): return true
        case let (a?, nil): return a.pointee.type == SlotType.null.rawValue
        case let (nil, b?): return b.pointee.type == SlotType.null.rawValue
        case let (a?, b?): return cdr_value_equal(a, b)
        }
    }
}
