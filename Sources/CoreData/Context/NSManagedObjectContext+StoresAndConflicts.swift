import Foundation

// MARK: - Choosing a store, detecting conflicts

extension NSManagedObjectContext {
    /// Chooses the store a newly inserted object is saved in, when several stores of the
    /// coordinator hold its entity (without it, the first such store is used).
    ///
    /// ```swift
    /// let note = Note(context: context)
    /// context.assign(note, to: archiveStore)
    /// try context.save()   // note.objectID.persistentStore === archiveStore
    /// ```
    ///
    /// - Note: Apple parity: as Apple raises, this traps for something other than a
    ///   managed object of this context, for an object that was already saved, and for a
    ///   store of another coordinator or one whose configuration lacks the entity.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        guard let object = object as? NSManagedObject, object.context === self else {
            coreDataMisuse("assign(_:to:) takes a managed object of this context, not \(object).")
        }
        guard object.objectID.isTemporaryID else {
            coreDataMisuse("Can't reassign an object to a different store once it has been saved.")
        }
        guard let coordinator = persistentStoreCoordinator,
              coordinator.persistentStores.contains(where: { $0 === store }),
              (coordinator.managedObjectModel.entities(forConfigurationName: store.configurationName) ?? [])
                .contains(where: { $0 === object.entity || $0 === object.entity.runtime.root }) else {
            coreDataMisuse("Can't assign an object to a store that does not contain the object's entity.")
        }
        assignedStores[ObjectIdentifier(object)] = store
    }

    /// Makes the next save fail if `object` changed in its store since this context read it,
    /// although this context did not change it (optimistic locking for an unchanged object;
    /// changed and deleted objects are always checked).
    ///
    /// The save then throws `NSManagedObjectMergeError` (133020) with an `NSMergeConflict`
    /// for the object under `NSPersistentStoreSaveConflictsErrorKey`, and writes nothing.
    /// A successful save (or `rollback()`/`reset()`) ends the check.
    ///
    /// ```swift
    /// context.detectConflicts(for: account)   // we read it to compute the invoice
    /// invoice.total = account.rate * hours
    /// try context.save()                      // fails if someone changed the account
    /// ```
    public func detectConflicts(for object: NSManagedObject) {
        guard object.context === self else {
            coreDataMisuse("detectConflicts(for:) takes a managed object of this context.")
        }
        guard !object.isInsertedFlag else { return }
        object.fireFaultIfNeeded()
        lockedObjects[ObjectIdentifier(object)] = object
    }
}
