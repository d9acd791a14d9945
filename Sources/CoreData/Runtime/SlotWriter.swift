import Foundation
internal import CCoreDataRuntime

/// Something whose slots take values: an object's slot block (``ObjectSlots``, marking
/// what it writes dirty, or its ``ObjectSlots/loading`` view, which does not) or a row
/// (``RowValues``). The runtime copies every payload it is given.
///
/// Each setter returns false when the runtime refuses the value: a slot index out of range,
/// a value whose type the slot was not declared with (slot blocks only), a payload too long.
protocol SlotWriter: ~Copyable {
    /// Stores a copy of a raw value.
    func write(_ value: UnsafePointer<cdr_value>, at slot: Int32) -> Bool
}

extension SlotWriter where Self: ~Copyable {
    @inline(__always)
    private func write(at slot: Int32, _ fill: (inout cdr_value) -> Void) -> Bool {
        var value = cdr_value()
        fill(&value)
        return write(&value, at: slot)
    }

    @discardableResult
    func setNull(at slot: Int32) -> Bool {
        write(at: slot) { $0.type = SlotType.null.rawValue }
    }

    @discardableResult
    func setInt64(_ number: Int64, at slot: Int32) -> Bool {
        write(at: slot) { $0.type = SlotType.int64.rawValue; $0.u.i = number }
    }

    @discardableResult
    func setDouble(_ number: Double, at slot: Int32) -> Bool {
        write(at: slot) { $0.type = SlotType.double.rawValue; $0.u.d = number }
    }

    @discardableResult
    func setBool(_ flag: Bool, at slot: Int32) -> Bool {
        write(at: slot) { $0.type = SlotType.bool.rawValue; $0.u.i = flag ? 1 : 0 }
    }

    /// A date, as seconds since 2001-01-01 00:00:00 UTC.
    @discardableResult
    func setDate(_ seconds: Double, at slot: Int32) -> Bool {
        write(at: slot) { $0.type = SlotType.date.rawValue; $0.u.d = seconds }
    }

    @discardableResult
    func setUUID(_ uuid: UUID, at slot: Int32) -> Bool {
        write(at: slot) { value in
            value.type = SlotType.uuid.rawValue
            withUnsafeBytes(of: uuid.uuid) { raw in
                withUnsafeMutableBytes(of: &value.u.uuid) { $0.copyMemory(from: raw) }
            }
        }
    }

    /// 16 bytes read elsewhere (a store's blob column).
    @discardableResult
    func setUUID(bytes: UnsafeRawBufferPointer, at slot: Int32) -> Bool {
        guard bytes.count == 16 else { return false }
        return write(at: slot) { value in
            value.type = SlotType.uuid.rawValue
            withUnsafeMutableBytes(of: &value.u.uuid) { $0.copyMemory(from: bytes) }
        }
    }

    /// UTF-8 bytes (embedded NULs survive; the runtime adds the terminating NUL).
    @discardableResult
    func setText(bytes: UnsafeRawBufferPointer, at slot: Int32) -> Bool {
        guard bytes.count <= Int(UInt32.max) else { return false }
        return write(at: slot) { value in
            value.type = SlotType.text.rawValue
            value.length = UInt32(bytes.count)
            value.u.text = bytes.count > 0 ? bytes.baseAddress?.assumingMemoryBound(to: CChar.self) : nil
        }
    }

    @discardableResult
    func setText(_ text: String, at slot: Int32) -> Bool {
        var text = text
        return text.withUTF8 { setText(bytes: UnsafeRawBufferPointer($0), at: slot) }
    }

    @discardableResult
    func setBlob(bytes: UnsafeRawBufferPointer, at slot: Int32) -> Bool {
        guard bytes.count <= Int(UInt32.max) else { return false }
        return write(at: slot) { value in
            value.type = SlotType.blob.rawValue
            value.length = UInt32(bytes.count)
            value.u.blob = bytes.count > 0 ? bytes.baseAddress : nil
        }
    }

    @discardableResult
    func setData(_ data: Data, at slot: Int32) -> Bool {
        data.withUnsafeBytes { setBlob(bytes: $0, at: slot) }
    }

    /// A to-one destination in a slot block (retained by the slot), or NULL.
    @discardableResult
    func setObject(_ object: AnyObject?, at slot: Int32) -> Bool {
        guard let object else { return setNull(at: slot) }
        return withExtendedLifetime(object) {
            write(at: slot) { value in
                value.type = SlotType.object.rawValue
                value.u.ref = Unmanaged.passUnretained(object).toOpaque()
            }
        }
    }

    /// Any value without a slot type of its own, boxed (the slot retains the box).
    @discardableResult
    func setBoxed(_ content: Any, at slot: Int32) -> Bool {
        let box = ValueBox(content)
        return withExtendedLifetime(box) {
            write(at: slot) { value in
                value.type = SlotType.box.rawValue
                value.u.ref = Unmanaged.passUnretained(box).toOpaque()
            }
        }
    }

    /// A to-one reference in a row.
    @discardableResult
    func setKey(_ key: StoreKey, at slot: Int32) -> Bool {
        write(at: slot) { value in
            value.type = SlotType.key.rawValue
            value.u.key = cdr_key(pk: key.pk, entity: UInt32(truncatingIfNeeded: key.entityID))
        }
    }

    /// A copy of a value read elsewhere (NULL when it is).
    @discardableResult
    func copy(_ value: SlotValue, at slot: Int32) -> Bool {
        guard let pointer = value.pointer else { return setNull(at: slot) }
        return write(pointer, at: slot)
    }
}
