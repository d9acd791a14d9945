import Foundation

/// How a row names a to-one destination: the one encoding of to-one references in rows.
enum RowReference: Equatable {
    /// A store's row: the destination's entity number and key.
    case key(StoreKey)
    /// A parent context's row for a child: the destination's object ID, which may be
    /// temporary (an object the parent inserted and has not saved).
    case objectID(NSManagedObjectID)
}

extension RowValues {
    /// The to-one reference in a slot, or nil for NULL.
    func reference(at slot: Int32) -> RowReference? {
        if let key = storeKey(at: slot) { return .key(key) }
        return (value(at: slot).boxed as? NSManagedObjectID).map(RowReference.objectID)
    }

    /// Writes a to-one reference (NULL for nil).
    func setReference(_ reference: RowReference?, at slot: Int32) {
        switch reference {
        case let .key(key)?: setKey(key, at: slot)
        case let .objectID(objectID)?: setBoxed(objectID, at: slot)
        case nil: setNull(at: slot)
        }
    }
}
