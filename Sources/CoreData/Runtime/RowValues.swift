internal import CCoreDataRuntime

/// The values of one row, in its entity layout's slot order: what a store reads and writes,
/// what the coordinator caches and what a parent context hands a child. Owns the runtime's
/// `cdr_row` and frees it with itself.
///
/// To-one relationships are ``SlotType/key`` values (the destination's ``StoreKey``) or,
/// in a parent context's rows, a boxed object ID; to-many relationships are not in rows.
struct RowValues: ~Copyable {
    let handle: OpaquePointer

    /// A row of `count` NULL values.
    init(count: Int32) {
        _ = RuntimeBridge.referencesRetained
        handle = cdr_row_create(max(0, count))!
    }

    /// A row of `count` NULL values in one allocation with room for `textBytes` bytes of
    /// text (each value's bytes plus one): text written while it fits goes there, with no
    /// allocation of its own (a store sizes it to the row it decodes).
    init(count: Int32, textBytes: Int) {
        _ = RuntimeBridge.referencesRetained
        handle = cdr_row_create_with_text(max(0, count), max(0, textBytes))!
    }

    deinit { cdr_row_release(handle) }

    var count: Int32 { cdr_row_count(handle) }

    @inline(__always)
    func value(at slot: Int32) -> SlotValue { SlotValue(pointer: cdr_row_get(handle, slot)) }
}

extension RowValues: SlotWriter {
    func write(_ value: UnsafePointer<cdr_value>, at slot: Int32) -> Bool {
        cdr_row_set(handle, slot, value) == Int32(CDR_OK)
    }
}

extension ObjectSlots {
    /// Loads the given slots from a row as they are (no dirty bits).
    func load(_ slots: UnsafeBufferPointer<Int32>, from row: borrowing RowValues) {
        for slot in slots {
            if let value = cdr_row_get(row.handle, slot) { _ = cdr_object_load(handle, slot, value) }
        }
    }
}

extension RowValues {
    /// Stores the given slots of an object's block in this row as they are (NULL slots are
    /// left as the row has them).
    func store(_ slots: UnsafeBufferPointer<Int32>, from object: borrowing ObjectSlots) {
        for slot in slots {
            if let value = cdr_object_get(object.handle, slot) { _ = cdr_row_set(handle, slot, value) }
        }
    }
}
