import Foundation

// MARK: - Notification names and userInfo keys (Apple's strings)

extension NSNotification.Name {
    /// Posted by a context when a change event ends, with the objects the event touched;
    /// the notification's `object` is the context.
    ///
    /// ``NSManagedObjectContext/processPendingChanges()`` (which ``NSManagedObjectContext/save()``
    /// calls) posts it with ``NSInsertedObjectsKey``, ``NSUpdatedObjectsKey`` and
    /// ``NSDeletedObjectsKey``, each present only when its set is not empty;
    /// ``NSManagedObjectContext/mergeChanges(fromContextDidSave:)`` posts it with
    /// ``NSInsertedObjectsKey``, ``NSRefreshedObjectsKey`` and ``NSInvalidatedObjectsKey``;
    /// ``NSManagedObjectContext/reset()`` posts it with ``NSInvalidatedAllObjectsKey``. Every
    /// set is a `Set<NSManagedObject>` of the posting context's objects: read them on its
    /// queue. Nothing is posted for an event without changes.
    ///
    /// ```swift
    /// let observer = NotificationCenter.default.addObserver(
    ///     forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
    /// ) { note in
    ///     let inserted = note.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> ?? []
    ///     print("\(inserted.count) new objects")
    /// }
    /// ```
    ///
    /// - Note: Apple parity: Apple also ends an event at the end of each run-loop turn; here
    ///   events end only when ``NSManagedObjectContext/processPendingChanges()`` runs (see
    ///   there).
    public static let NSManagedObjectContextObjectsDidChange = NSNotification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted by a context at the start of a ``NSManagedObjectContext/save()`` that has
    /// changes to write, before any object's `willSave()` runs; no userInfo. The
    /// notification's `object` is the context. A save with nothing to write posts nothing.
    public static let NSManagedObjectContextWillSave = NSNotification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted by a context after a successful ``NSManagedObjectContext/save()`` (a child's
    /// save too, once its changes reached the parent). The userInfo always holds
    /// ``NSInsertedObjectsKey``, ``NSUpdatedObjectsKey`` and ``NSDeletedObjectsKey``, each a
    /// `Set<NSManagedObject>` (possibly empty); the notification's `object` is the context.
    ///
    /// Hand it to another context's ``NSManagedObjectContext/mergeChanges(fromContextDidSave:)``
    /// on that context's queue to bring the save in, or set
    /// ``NSManagedObjectContext/automaticallyMergesChangesFromParent``.
    ///
    /// ```swift
    /// let observer = NotificationCenter.default.addObserver(
    ///     forName: .NSManagedObjectContextDidSave, object: backgroundContext, queue: nil
    /// ) { note in
    ///     otherContext.performAndWait { otherContext.mergeChanges(fromContextDidSave: note) }
    /// }
    /// ```
    public static let NSManagedObjectContextDidSave = NSNotification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted by a context right after ``NSManagedObjectContextDidSave``, with the IDs of the
    /// saved objects under ``NSInsertedObjectIDsKey``, ``NSUpdatedObjectIDsKey`` and
    /// ``NSDeletedObjectIDsKey``, each a `Set<NSManagedObjectID>`. IDs, unlike objects, may be
    /// read on any queue, so observers on other queues use this one.
    public static let NSManagedObjectContextDidSaveObjectIDs = NSNotification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted by a context after it merged changes (``NSManagedObjectContext/mergeChanges(fromContextDidSave:)``,
    /// ``NSManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``, automatic merging),
    /// with the IDs of the merged objects under ``NSInsertedObjectIDsKey`` and its siblings.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = NSNotification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

/// In the userInfo of a context's change and save notifications: the inserted objects, as a
/// `Set<NSManagedObject>`.
public let NSInsertedObjectsKey = "inserted"
/// In the userInfo of a context's change and save notifications: the updated objects, as a
/// `Set<NSManagedObject>`.
public let NSUpdatedObjectsKey = "updated"
/// In the userInfo of a context's change and save notifications: the deleted objects, as a
/// `Set<NSManagedObject>`.
public let NSDeletedObjectsKey = "deleted"
/// In the userInfo of `NSManagedObjectContextObjectsDidChange`: the objects a merge
/// (``NSManagedObjectContext/mergeChanges(fromContextDidSave:)``) reloaded with another
/// context's saved values, as a `Set<NSManagedObject>`. Refreshing an object yourself
/// (`refresh(_:mergeChanges:)`) posts no notification.
public let NSRefreshedObjectsKey = "refreshed"
/// In the userInfo of `NSManagedObjectContextObjectsDidChange`: the objects a merge took out
/// of the context because another context's save deleted them, as a `Set<NSManagedObject>`.
/// They are unregistered faults afterwards; drop your references to them.
public let NSInvalidatedObjectsKey = "invalidated"
/// In the userInfo of a context's change notification: present when every object of the
/// context was invalidated at once.
///
/// ``NSManagedObjectContext/reset()`` posts `NSManagedObjectContextObjectsDidChange` with
/// this key (value `true`) instead of listing the objects.
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
    /// The Swift spelling of ``Foundation/NSNotification/Name/NSManagedObjectContextObjectsDidChange``:
    /// posted when a change event of the context ends.
    public static let didChangeObjectsNotification = NSNotification.Name.NSManagedObjectContextObjectsDidChange
    /// The Swift spelling of ``Foundation/NSNotification/Name/NSManagedObjectContextWillSave``:
    /// posted when a save with changes begins.
    public static let willSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextWillSave
    /// The Swift spelling of ``Foundation/NSNotification/Name/NSManagedObjectContextDidSave``:
    /// posted after a successful save, with the saved objects.
    public static let didSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextDidSave
    /// The Swift spelling of ``Foundation/NSNotification/Name/NSManagedObjectContextDidSaveObjectIDs``.
    public static let didSaveObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// The Swift spelling of
    /// ``Foundation/NSNotification/Name/NSManagedObjectContextDidMergeChangesObjectIDs``.
    public static let didMergeChangesObjectIDsNotification = NSNotification.Name.NSManagedObjectContextDidMergeChangesObjectIDs

    /// The keys of a context notification's userInfo, as an enumeration (Apple's Swift spelling
    /// of ``NSInsertedObjectsKey`` and its siblings); each `rawValue` is the key itself.
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
