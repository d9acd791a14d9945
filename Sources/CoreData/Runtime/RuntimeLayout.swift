internal import CCoreDataRuntime

/// The slot layout of one entity's objects: key → slot index and each slot's type. Built
/// once, then frozen by the runtime when the first object uses it, and shared by every
/// object of the entity (on any thread).
final class RuntimeLayout: @unchecked Sendable {
    // @unchecked Sendable: slots are added before any object exists; afterwards the
    // runtime freezes the layout and it is only read.
    let handle: OpaquePointer

    init(entityName: String) {
        handle = cdr_layout_create(entityName)!
    }

    deinit { cdr_layout_release(handle) }

    /// Adds a slot; returns its index, or nil for a duplicate key or a frozen layout.
    func addSlot(key: String, type: SlotType) -> Int32? {
        let index = cdr_layout_add_slot(handle, key, type.cType)
        return index >= 0 ? index : nil
    }

    var slotCount: Int32 { cdr_layout_slot_count(handle) }
}
