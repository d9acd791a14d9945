import Foundation

// MARK: - Merging other contexts' saves

/// The object IDs a merge brings in, read from a save notification's userInfo or from the
/// dictionary of `mergeChanges(fromRemoteContextSave:into:)`.
struct MergedIDs {
    var inserted: [NSManagedObjectID] = []
    var updated: [NSManagedObjectID] = []
    var deleted: [NSManagedObjectID] = []

    /// Reads both spellings of each key (`NSInsertedObjectsKey` and
    /// `NSInsertedObjectIDsKey`, …), whose values may be sets or arrays of managed objects,
    /// object IDs or URI representations (URIs resolved through `coordinator`).
    init(_ info: [AnyHashable: Any], coordinator: NSPersistentStoreCoordinator?) {
        func ids(_ keys: [String]) -> [NSManagedObjectID] {
            var result: [NSManagedObjectID] = []
            var seen = Set<NSManagedObjectID>()
            for key in keys {
                guard let value = info[key] else { continue }
                let elements: [Any]
                switch value {
                case let set as Set<NSManagedObject>: elements = Array(set)
                case let set as Set<NSManagedObjectID>: elements = Array(set)
                case let set as Set<URL>: elements = Array(set)
                case let set as NSSet: elements = set.allObjects
                case let array as [Any]: elements = array
                case let array as NSArray: elements = array.map { $0 }
                default: continue
                }
                for element in elements {
                    let objectID: NSManagedObjectID?
                    switch element {
                    case let object as NSManagedObject: objectID = object.objectID
                    case let id as NSManagedObjectID: objectID = id
                    case let url as URL: objectID = coordinator?.managedObjectID(forURIRepresentation: url)
                    case let url as NSURL: objectID = coordinator?.managedObjectID(forURIRepresentation: url as URL)
                    default: objectID = nil
                    }
                    if let objectID, seen.insert(objectID).inserted { result.append(objectID) }
                }
            }
            return result
        }
        inserted = ids([NSInsertedObjectsKey, NSInsertedObjectIDsKey])
        updated = ids([NSUpdatedObjectsKey, NSUpdatedObjectIDsKey, NSRefreshedObjectsKey, NSRefreshedObjectIDsKey])
        deleted = ids([NSDeletedObjectsKey, NSDeletedObjectIDsKey, NSInvalidatedObjectsKey, NSInvalidatedObjectIDsKey])
    }
}

extension NSManagedObjectContext {
    /// Brings another context's save into this one: saved updates refresh the registered
    /// objects (keeping local changes), saved deletes leave this context, saved inserts are
    /// reported as inserted. Posts `NSManagedObjectContextObjectsDidChange` with what it
    /// inserted, refreshed and invalidated, then `didMergeChangesObjectIDsNotification`.
    ///
    /// The notification may be a `NSManagedObjectContextDidSave` (objects or their IDs) or
    /// a `didSaveObjectIDsNotification`; only its object IDs are read, so it may come from a
    /// context on another queue.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard let info = notification.userInfo else { return }
        merge(MergedIDs(info, coordinator: persistentStoreCoordinator), fromStore: false)
    }

    /// Merges changes made elsewhere (another process, another coordinator, a serialized
    /// save) into each of `contexts`, on each context's own queue.
    ///
    /// `changeNotificationData` uses the keys of a save notification
    /// (``NSInsertedObjectsKey``, ``NSUpdatedObjectsKey``, ``NSDeletedObjectsKey``, or the
    /// `…ObjectIDsKey` ones), each holding an array or set of `NSManagedObjectID`s or of
    /// their `uriRepresentation()` URLs. Rows the contexts' coordinators cached for the
    /// updated and deleted objects are dropped first, so faults read the store again.
    ///
    /// ```swift
    /// let changes = [NSUpdatedObjectsKey: [itemID], NSDeletedObjectsKey: [otherURL]]
    /// NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [viewContext])
    /// ```
    public class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
                                   into contexts: [NSManagedObjectContext]) {
        let data = UncheckedSendableBox(changeNotificationData)
        for context in contexts {
            context.performAndWait {
                context.merge(MergedIDs(data.value, coordinator: context.persistentStoreCoordinator), fromStore: true)
            }
        }
    }

    /// Applies merged IDs to this context (see ``mergeChanges(fromContextDidSave:)``).
    /// `fromStore`: the changes reached the store without going through this context's
    /// coordinator, whose cached rows for them are therefore stale.
    func merge(_ ids: MergedIDs, fromStore: Bool) {
        // A merge moves a pinned context to the newest generation (Apple's rule), so the
        // objects it refreshes read the merged rows.
        advanceQueryGeneration()
        if fromStore, let coordinator = persistentStoreCoordinator {
            for objectID in ids.updated + ids.deleted where !objectID.isTemporaryID {
                coordinator.evictRow(for: objectID)
            }
        }
        var inserted = Set<NSManagedObject>()
        var refreshed = Set<NSManagedObject>()
        var invalidated = Set<NSManagedObject>()
        for objectID in ids.inserted {
            if registeredObject(for: objectID) != nil { continue }
            if let object = object(forSourceID: objectID) { inserted.insert(object) }
        }
        for objectID in ids.updated {
            guard let object = registeredObject(for: objectID) else { continue }
            refresh(object, mergeChanges: true)
            refreshed.insert(object)
        }
        for objectID in ids.deleted {
            guard let object = registeredObject(for: objectID) else { continue }
            object.isDeletedFlag = false
            object.isInsertedFlag = false
            unregister(object)
            invalidated.insert(object)
        }
        var payload: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { payload[NSInsertedObjectsKey] = inserted }
        if !refreshed.isEmpty { payload[NSRefreshedObjectsKey] = refreshed }
        if !invalidated.isEmpty { payload[NSInvalidatedObjectsKey] = invalidated }
        if !payload.isEmpty { post(.NSManagedObjectContextObjectsDidChange, payload) }
        // Observers read the deleted objects' last values during the notification (as a
        // fetched results controller's delegate does); they become faults after it.
        for object in invalidated { object.storage.turnIntoFault() }
        post(.NSManagedObjectContextDidMergeChangesObjectIDs, [
            NSInsertedObjectIDsKey: Set(ids.inserted),
            NSUpdatedObjectIDsKey: Set(ids.updated),
            NSDeletedObjectIDsKey: Set(ids.deleted),
            NSRefreshedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSInvalidatedObjectIDsKey: Set(invalidated.map(\.objectID)),
        ])
    }
}
