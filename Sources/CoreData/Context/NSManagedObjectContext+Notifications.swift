import Foundation

// MARK: - Notification names and userInfo keys (Apple's strings)

extension NSNotification.Name {
    /// Posted by a context at the end of each change event (`processPendingChanges()`,
    /// and after a merge or a save) with the objects inserted, updated, deleted, refreshed
    /// or invalidated, under ``NSInsertedObjectsKey`` and its siblings.
    public static let NSManagedObjectContextObjectsDidChange = NSNotification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted by a context when a save begins, before `willSave()` runs; no userInfo.
    public static let NSManagedObjectContextWillSave = NSNotification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted by a context after a save, with the saved objects under
    /// ``NSInsertedObjectsKey``, ``NSUpdatedObjectsKey`` and ``NSDeletedObjectsKey``.
    public static let NSManagedObjectContextDidSave = NSNotification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted by a context after a save, right after `NSManagedObjectContextDidSave`, with
    /// the saved objects' IDs (safe to read on any queue) under ``NSInsertedObjectIDsKey``,
    /// ``NSUpdatedObjectIDsKey`` and ``NSDeletedObjectIDsKey``.
    public static let NSManagedObjectContextDidSaveObjectIDs = NSNotification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted by a context after it merged changes (`mergeChanges(fromContextDidSave:)`,
    /// `mergeChanges(fromRemoteContextSave:into:)`, automatic merging), with the IDs of the
    /// objects it merged under the `…ObjectIDsKey` keys.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = NSNotification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

/// The userInfo key of the objects a change inserted (a `Set<NSManagedObject>`).
public let NSInsertedObjectsKey = "inserted"
/// The userInfo key of the objects a change updated (a `Set<NSManagedObject>`).
public let NSUpdatedObjectsKey = "updated"
/// The userInfo key of the objects a change deleted (a `Set<NSManagedObject>`).
public let NSDeletedObjectsKey = "deleted"
/// The userInfo key of the objects a merge or refresh reloaded (a `Set<NSManagedObject>`).
public let NSRefreshedObjectsKey = "refreshed"
/// The userInfo key of the objects a merge made unusable because they are gone (a
/// `Set<NSManagedObject>`).
public let NSInvalidatedObjectsKey = "invalidated"
/// The userInfo key saying every object of the context was invalidated (`reset()`).
public let NSInvalidatedAllObjectsKey = "invalidatedAll"
/// The userInfo key of the IDs of inserted objects (a `Set<NSManagedObjectID>`).
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// The userInfo key of the IDs of updated objects (a `Set<NSManagedObjectID>`).
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// The userInfo key of the IDs of deleted objects (a `Set<NSManagedObjectID>`).
public let NSDeletedObjectIDsKey = "deleted_objectIDs"
/// The userInfo key of the IDs of refreshed objects (a `Set<NSManagedObjectID>`).
public let NSRefreshedObjectIDsKey = "refreshed_objectIDs"
/// The userInfo key of the IDs of invalidated objects (a `Set<NSManagedObjectID>`).
public let NSInvalidatedObjectIDsKey = "invalidated_objectIDs"
/// The userInfo key of a context's query generation token.
///
/// - Note: Apple parity: contexts here have no query generations; no notification carries
///   this key.
public let NSManagedObjectContextQueryGenerationKey = "managedObjectContextQueryGeneration"

extension NSManagedObjectContext {
    /// `NSNotification.Name.NSManagedObjectContextObjectsDidChange`, Apple's Swift name.
    public static let didChangeObjectsNotification = NSNotification.Name.NSManagedObjectContextObjectsDidChange
    /// `NSNotification.Name.NSManagedObjectContextWillSave`, Apple's Swift name.
    public static let willSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextWillSave
    /// `NSNotification.Name.NSManagedObjectContextDidSave`, Apple's Swift name.
    public static let didSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextDidSave
    /// `NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs`, Apple's Swift name:
    /// posted by every context that saves, with sets of object IDs.
    public static let didSaveObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// `NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs`, Apple's Swift
    /// name: posted by a context after it merged changes, with sets of object IDs.
    public static let didMergeChangesObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// The keys of context notifications' userInfo, as Apple's Swift overlay names them;
    /// each `rawValue` is the key itself.
    ///
    /// ```swift
    /// let key = NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
    /// let inserted = notification.userInfo?[key] as? Set<NSManagedObjectID> ?? []
    /// ```
    public enum NotificationKey: String, Sendable {
        /// The context a notification comes from.
        ///
        /// - Note: Apple parity: Apple does not document this key's string; no notification
        ///   here carries it (the notification's `object` is the context).
        case sourceContext = "managedObjectContext"
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
