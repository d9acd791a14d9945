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
        lockedObjects.removeAll()
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
        advanceQueryGeneration()
        undoManager?.removeAllActions()
        noteUnregistered(registry.takeReportedIDs())
        for object in allRegisteredObjects {
            object.context = nil
            object.isInsertedFlag = false
            object.isDeletedFlag = false
            object.committedToMany.removeAll()
            object.storage.turnIntoFault()
        }
        registry.removeAll()
        assignedStores.removeAll()
        lockedObjects.removeAll()
        changes.removeAll()
        post(.NSManagedObjectContextObjectsDidChange, [NSInvalidatedAllObjectsKey: true])
        // The rows of the objects let go of leave the coordinator's cache with them.
        if parent == nil { persistentStoreCoordinator?.releaseUnheldRows() }
    }
}

extension NSManagedObject {
    /// Loads a row and marks the object realized, without awakeFromFetch (rollback).
    func realizeQuietly(from row: StoreRow) {
        load(row)
        storage.markRealized()
    }
}
