internal import CCoreDataRuntime

/// The ordered set of references in a to-many slot, borrowed from the slot block that owns
/// it. Members are objects held retained by the set; they come back unretained.
struct SlotSet {
    let handle: OpaquePointer

    var count: Int { cdr_set_count(handle) }

    /// The member at a position (insertion order, or the ordered relationship's order).
    func member<T: AnyObject>(at index: Int, as type: T.Type) -> T {
        Unmanaged<T>.fromOpaque(cdr_set_at(handle, index)!).takeUnretainedValue()
    }

    /// Every member, in order.
    func members<T: AnyObject>(as type: T.Type) -> [T] {
        let count = cdr_set_count(handle)
        var result: [T] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            if let pointer = cdr_set_at(handle, index) {
                result.append(Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue())
            }
        }
        return result
    }

    func contains(_ object: AnyObject) -> Bool {
        cdr_set_contains(handle, Unmanaged.passUnretained(object).toOpaque())
    }

    /// The position of a member, or nil.
    func index(of object: AnyObject) -> Int? {
        let index = cdr_set_index_of(handle, Unmanaged.passUnretained(object).toOpaque())
        return index < 0 ? nil : index
    }

    /// Appends a member (retained) unless present; true when it was added.
    @discardableResult
    func add(_ object: AnyObject) -> Bool {
        cdr_set_add(handle, Unmanaged.passUnretained(object).toOpaque()) == 1
    }

    /// Inserts a member at a position (clamped to the count) unless present.
    @discardableResult
    func insert(_ object: AnyObject, at index: Int) -> Bool {
        cdr_set_insert_at(handle, Unmanaged.passUnretained(object).toOpaque(), max(0, index)) == 1
    }

    /// Removes a member (released); true when it was there.
    @discardableResult
    func remove(_ object: AnyObject) -> Bool {
        cdr_set_remove(handle, Unmanaged.passUnretained(object).toOpaque()) == 1
    }

    func removeAll() { cdr_set_remove_all(handle) }
}
