import Foundation

/// What happened to an object in a persistent history change (Apple's raw values, which
/// are also the store's `ZCHANGETYPE`).
public enum NSPersistentHistoryChangeType: Int, Sendable {
    /// The object was inserted.
    case insert = 0
    /// Some of the object's properties changed (see `updatedProperties`).
    case update = 1
    /// The object was deleted (see `tombstone`).
    case delete = 2
}
