internal import CCoreDataRuntime

/// The slot block behind one managed object: its values, its fault state and its dirty
/// bits. Owns the runtime's `cdr_object` and frees it with itself.
///
/// Writes through the ``SlotWriter`` setters mark the slot dirty (a change); writes through
/// ``loading`` do not (fault fulfilment, snapshots, inverse upkeep during a fetch).
struct ObjectSlots: ~Copyable {
    let handle: OpaquePointer

    /// A fault: no values until it fires.
    init(faultOf layout: RuntimeLayout) {
        _ = RuntimeBridge.referencesRetained
        handle = cdr_object_create(layout.handle, nil)!
    }

    /// A realized object with every slot NULL (an inserted object).
    init(realizedOf layout: RuntimeLayout) {
        _ = RuntimeBridge.referencesRetained
        handle = cdr_object_create_realized(layout.handle, nil)!
    }

    deinit { cdr_object_destroy(handle) }

    /// The object the fulfil callback receives when this block fires (unretained: the
    /// owner owns the block).
    func setOwner(_ owner: AnyObject) {
        cdr_object_set_owner(handle, Unmanaged.passUnretained(owner).toOpaque())
    }

    // MARK: - Fault state

    enum FaultState { case fault, firing, realized }

    var faultState: FaultState {
        switch cdr_object_fault_state(handle) {
        case CDR_REALIZED: return .realized
        case CDR_FIRING: return .firing
        default: return .fault
        }
    }

    var isRealized: Bool {
        @inline(__always) get { cdr_object_fault_state(handle) == CDR_REALIZED }
    }

    enum FireResult { case fulfilled, busy, failed }

    /// Fires a fault through the fulfil callback (``RuntimeBridge/install(fulfil:)``).
    func fire() -> FireResult {
        switch cdr_object_fire(handle) {
        case Int32(CDR_OK): return .fulfilled
        case Int32(CDR_EBUSY): return .busy
        default: return .failed
        }
    }

    /// Marks the block realized without the callback (its filler loaded it).
    func markRealized() { cdr_object_mark_realized(handle) }

    /// Clears every value and dirty bit: the block is a fault again. Releasing the values
    /// also breaks reference cycles between objects.
    func turnIntoFault() { cdr_object_turn_into_fault(handle) }

    // MARK: - Values

    /// The value of a slot, without firing.
    @inline(__always)
    func value(at slot: Int32) -> SlotValue { SlotValue(pointer: cdr_object_get(handle, slot)) }

    /// The to-many set of a slot when it is loaded (nil when the slot holds no set yet).
    func set(at slot: Int32) -> SlotSet? { value(at: slot).set }

    /// The to-many set of a slot, created empty (without dirtying) when not loaded. Mutate
    /// it, then ``markDirty(at:)`` to record a change.
    func mutableSet(at slot: Int32) -> SlotSet? {
        cdr_object_mutable_set(handle, slot).map(SlotSet.init(handle:))
    }

    /// Writes without marking anything dirty.
    var loading: Loader { Loader(handle: handle) }

    struct Loader: SlotWriter {
        let handle: OpaquePointer
        func write(_ value: UnsafePointer<cdr_value>, at slot: Int32) -> Bool {
            cdr_object_load(handle, slot, value) == Int32(CDR_OK)
        }
    }

    // MARK: - Dirty bits
    //
    // "Pending" bits say what changed since the last save (or load); "event" bits what
    // changed since the context last processed its pending changes.

    func markDirty(at slot: Int32) { cdr_object_mark_dirty(handle, slot) }
    func isDirty(at slot: Int32) -> Bool { cdr_object_is_dirty(handle, slot) }
    var hasDirty: Bool { cdr_object_has_dirty(handle) }
    func isEventDirty(at slot: Int32) -> Bool { cdr_object_is_event_dirty(handle, slot) }
    var hasEventDirty: Bool { cdr_object_has_event_dirty(handle) }
    func clearDirty() { cdr_object_clear_dirty(handle) }
    func clearEventDirty() { cdr_object_clear_event_dirty(handle) }
}

extension ObjectSlots: SlotWriter {
    func write(_ value: UnsafePointer<cdr_value>, at slot: Int32) -> Bool {
        cdr_object_set(handle, slot, value) == Int32(CDR_OK)
    }
}
