import Foundation

// MARK: - Refreshing, rolling back, resetting, merging

extension NSManagedObjectContext {
    /// Updates an object from the store. Without `mergeChanges` (or with no unsaved
    /// changes) it becomes a fault and its next read loads fresh data; with it, unsaved
    /// changes are kept on top of the latest committed values.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        guard object.context === self, !object.isInsertedFlag, !object.isFault else { return }
        let hasLocalChanges = object.storage.hasDirty
        if !flag || !hasLocalChanges {
            changes.cancelChanges(object)
            if object.isDeletedFlag {
                object.isDeletedFlag = false
                changes.cancelDelete(object)
            }
            object.turnIntoFault()
            return
        }
        // Keep dirty slots, reload the rest from a fresh row.
        guard let row = try? source?.freshRow(for: object.objectID) else { return }
        let keep = object.entity.runtime.slotProperties.filter { object.storage.isDirty(at: $0.slot) }
        let kept = keep.map { ($0, object.primitiveValue(atSlot: $0.slot, property: $0)) }
        object.load(row)
        withoutUndoRegistration {
            for (property, value) in kept {
                object.setPrimitive(value, for: property)
            }
        }
    }

    /// Refreshes every registered object, keeping unsaved changes.
    public func refreshAllObjects() {
        processPendingChanges()
        for object in allRegisteredObjects { refresh(object, mergeChanges: true) }
    }

    /// Discards every unsaved change: inserted objects leave, deleted ones come back,
    /// updated ones return to their committed values.
    ///
    /// Also empties the undo manager's stacks, as Apple's does.
    public func rollback() {
        undoManager?.removeAllActions()
        let (inserted, others) = changes.changedObjects
        changes.removeAll()
        for object in inserted {
            object.isInsertedFlag = false
            object.isDeletedFlag = false
            unregister(object)
            object.storage.turnIntoFault()
        }
        for object in others where object.context === self {
            object.isDeletedFlag = false
            if object.isFault { continue }
            if let row = object.committedRow {
                object.storage.turnIntoFault()
                object.committedToMany.removeAll()
                object.invalidValues.removeAll()
                object.realizeQuietly(from: row)
                object.awake(fromSnapshotEvents: NSSnapshotEventType.rollback)
            } else {
                object.turnIntoFault()
            }
        }
    }

    /// Forgets every object: registered objects become unusable faults without context.
    public func reset() {
        undoManager?.removeAllActions()
        noteUnregistered(Array(permanentObjects.values))
        for object in allRegisteredObjects {
            object.context = nil
            object.isInsertedFlag = false
            object.isDeletedFlag = false
            object.committedToMany.removeAll()
            object.storage.turnIntoFault()
        }
        permanentObjects.removeAll()
        temporaryObjects.removeAll()
        changes.removeAll()
    }

    /// Brings another context's save into this one: saved inserts are faulted in, saved
    /// updates refresh the registered objects (keeping local changes), saved deletes leave
    /// this context. The `NSManagedObjectContextObjectsDidChange` it posts names the
    /// inserted objects (``NSInsertedObjectsKey``), the refreshed ones
    /// (``NSRefreshedObjectsKey``) and the deleted ones (``NSInvalidatedObjectsKey``), so
    /// that observers such as `NSFetchedResultsController` see the save.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        guard let info = notification.userInfo else { return }
        func ids(_ key: String) -> [NSManagedObjectID] {
            let objects = (info[key] as? Set<NSManagedObject>).map(Array.init) ?? []
            let idValues = (info[key] as? Set<NSManagedObjectID>).map(Array.init) ?? []
            return objects.map(\.objectID) + idValues
        }
        var inserted = Set<NSManagedObject>()
        var refreshed = Set<NSManagedObject>()
        var invalidated = Set<NSManagedObject>()
        for objectID in ids(NSInsertedObjectsKey) where !objectID.isTemporaryID
            && objectID.persistentStore?.persistentStoreCoordinator === persistentStoreCoordinator {
            guard let object = object(forSourceID: objectID), !object.isDeleted else { continue }
            inserted.insert(object)
        }
        for objectID in ids(NSUpdatedObjectsKey) {
            guard let object = registeredObject(for: objectID) else { continue }
            refresh(object, mergeChanges: true)
            refreshed.insert(object)
        }
        for objectID in ids(NSDeletedObjectsKey) {
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
        // table's delegate does); they become faults after it.
        for object in invalidated { object.storage.turnIntoFault() }
    }
}

extension NSManagedObject {
    /// Loads a row and marks the object realized, without awakeFromFetch (rollback).
    func realizeQuietly(from row: StoreRow) {
        load(row)
        storage.markRealized()
    }
}
