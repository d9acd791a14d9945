import Foundation

/// A save, as an incremental store receives it in `execute(_:with:)`: the saving context's
/// inserted, updated and deleted objects. Inserted objects already carry the permanent IDs
/// the store gave them in `obtainPermanentIDs(for:)`.
///
/// ```swift
/// case let save as NSSaveChangesRequest:
///     for object in save.insertedObjects ?? [] { rows[referenceObject(for: object.objectID)] = values(of: object) }
///     for object in save.deletedObjects ?? [] { rows[referenceObject(for: object.objectID)] = nil }
///     try write()
///     return [Any]()
/// ```
///
/// ## Topics
/// - ``init(inserted:updated:deleted:locked:)``
/// - ``insertedObjects``
/// - ``updatedObjects``
/// - ``deletedObjects``
/// - ``lockedObjects``
open class NSSaveChangesRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    /// Objects inserted since the last save.
    open private(set) var insertedObjects: Set<NSManagedObject>?
    /// Objects whose values changed.
    open private(set) var updatedObjects: Set<NSManagedObject>?
    /// Objects deleted.
    open private(set) var deletedObjects: Set<NSManagedObject>?
    /// Unchanged objects the save expects to be unchanged in the store too.
    open private(set) var lockedObjects: Set<NSManagedObject>?

    /// A save request with its objects.
    public init(inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
                deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?) {
        self.insertedObjects = insertedObjects
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.lockedObjects = lockedObjects
        super.init()
    }

    /// `.saveRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .saveRequestType }
}
