import Foundation

// MARK: - Notification names and userInfo keys (Apple's strings)

extension NSNotification.Name {
    public static let NSManagedObjectContextObjectsDidChange = NSNotification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    public static let NSManagedObjectContextWillSave = NSNotification.Name("NSManagedObjectContextWillSaveNotification")
    public static let NSManagedObjectContextDidSave = NSNotification.Name("NSManagedObjectContextDidSaveNotification")
    /// Apple's notification, posted after a save, whose userInfo carries the object IDs of the
    /// inserted, updated and deleted objects (``NSInsertedObjectIDsKey`` and its siblings).
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it yet (see PARITY.md).
    public static let NSManagedObjectContextDidSaveObjectIDs = NSNotification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Apple's notification, posted after a context merges changes, whose userInfo carries the
    /// object IDs of the merged objects.
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it yet (see PARITY.md).
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = NSNotification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

public let NSInsertedObjectsKey = "inserted"
public let NSUpdatedObjectsKey = "updated"
public let NSDeletedObjectsKey = "deleted"
public let NSRefreshedObjectsKey = "refreshed"
public let NSInvalidatedObjectsKey = "invalidated"
public let NSInvalidatedAllObjectsKey = "invalidatedAll"

/// In the userInfo of the object-ID notifications: the IDs of the inserted objects.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// In the userInfo of the object-ID notifications: the IDs of the updated objects.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// In the userInfo of the object-ID notifications: the IDs of the deleted objects.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// In the userInfo of the object-ID notifications: the IDs of the refreshed objects.
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// In the userInfo of the object-ID notifications: the IDs of the invalidated objects.
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
/// In the userInfo of a context's change notification: the query generation the context uses.
///
/// - Note: Apple parity: query generations are not implemented, so no notification carries it.
public let NSManagedObjectContextQueryGenerationKey = "managedObjectContextQueryGeneration"

extension NSManagedObjectContext {
    public static let didChangeObjectsNotification = NSNotification.Name.NSManagedObjectContextObjectsDidChange
    public static let willSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextWillSave
    public static let didSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextDidSave
    /// The Swift spelling of ``Foundation/NSNotification/Name/NSManagedObjectContextDidSaveObjectIDs``.
    public static let didSaveObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// The Swift spelling of
    /// ``Foundation/NSNotification/Name/NSManagedObjectContextDidMergeChangesObjectIDs``.
    public static let didMergeChangesObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// The keys of a context notification's userInfo, as an enumeration (Apple's Swift spelling
    /// of ``NSInsertedObjectsKey`` and its siblings): `notification.userInfo?[NotificationKey.insertedObjects.rawValue]`.
    public enum NotificationKey: String {
        /// ``NSManagedObjectContextQueryGenerationKey``.
        case queryGeneration = "managedObjectContextQueryGeneration"
        /// ``NSInvalidatedAllObjectsKey``.
        case invalidatedAllObjects = "invalidatedAll"
        /// ``NSInsertedObjectsKey``.
        case insertedObjects = "inserted"
        /// ``NSUpdatedObjectsKey``.
        case updatedObjects = "updated"
        /// ``NSDeletedObjectsKey``.
        case deletedObjects = "deleted"
        /// ``NSRefreshedObjectsKey``.
        case refreshedObjects = "refreshed"
        /// ``NSInvalidatedObjectsKey``.
        case invalidatedObjects = "invalidated"
        /// ``NSInsertedObjectIDsKey``.
        case insertedObjectIDs = "inserted_objectIDs"
        /// ``NSUpdatedObjectIDsKey``.
        case updatedObjectIDs = "updated_objectIDs"
        /// ``NSDeletedObjectIDsKey``.
        case deletedObjectIDs = "deleted_objectIDs"
        /// ``NSRefreshedObjectIDsKey``.
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// ``NSInvalidatedObjectIDsKey``.
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }

    func post(_ name: NSNotification.Name, _ userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
