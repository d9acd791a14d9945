import Foundation

// MARK: - Pending changes, validation and saving

extension NSManagedObjectContext {
    /// Runs delete rules for objects deleted since the last call and ends the current
    /// change event: posts `NSManagedObjectContextObjectsDidChange` and clears what
    /// `changedValuesForCurrentEvent()` reports.
    ///
    /// - Note: Apple parity: Apple calls this at the end of each run-loop event. Linux
    ///   programs rarely run one, so `save()`, `undo()`, `redo()` and `refreshAllObjects()`
    ///   call it, and code that observes ObjectsDidChange (or fetches right after deleting
    ///   objects with cascading relationships) calls it directly; `fetch(_:)` does not.
    public func processPendingChanges() {
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        let (inserted, updated, deleted) = changes.endEvent(in: self)
        undoManager?.endEventGroup()
        guard !inserted.isEmpty || !deleted.isEmpty || !updated.isEmpty else { return }
        var info: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { info[NSInsertedObjectsKey] = inserted }
        if !updated.isEmpty { info[NSUpdatedObjectsKey] = updated }
        if !deleted.isEmpty { info[NSDeletedObjectsKey] = deleted }
        post(.NSManagedObjectContextObjectsDidChange, info)
    }

    /// Applies delete rules: nullify inverses, cascade (transitively, through cycles),
    /// leave Deny for validation, and drop never-saved objects from the context.
    func propagateDeletes() {
        while let object = changes.nextPendingDelete() {
            guard object.context === self else { continue }
            object.prepareForDeletion()
            for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties {
                let related: [NSManagedObject]
                if relationship.isToMany {
                    related = object.toManyMembers(slot: relationship.slot, relationship: relationship)
                } else {
                    related = object.toOneValue(slot: relationship.slot).map { [$0] } ?? []
                }
                switch relationship.deleteRule {
                case .cascadeDeleteRule:
                    for destination in related where !destination.isDeletedFlag { delete(destination) }
                    fallthrough
                case .nullifyDeleteRule:
                    if let inverse = relationship.inverseRelationship {
                        for destination in related where destination.context === self {
                            destination.unlinkInverse(inverse, from: object)
                        }
                    }
                case .denyDeleteRule, .noActionDeleteRule:
                    break
                }
            }
            if object.isInsertedFlag {
                object.isInsertedFlag = false
                object.isDeletedFlag = false
                let announced = !changes.isInsertedInCurrentEvent(object)
                unregister(object)
                if announced { changes.recordRemovalOfAnnouncedInsert(object) }
                recordRemovalOfDeletedInsert(object)
            }
        }
    }

    // MARK: - Saving

    /// Writes pending inserts, updates and deletes to the stores, each store in one
    /// transaction. Validation runs first; a failed save writes nothing and leaves the
    /// context as it was. A child context's save hands its changes to its ``parent``
    /// instead, as the parent's unsaved changes (see ``parent``).
    ///
    /// - Throws: `NSError` in `NSCocoaErrorDomain`: validation codes
    ///   (`NSValidationMissingMandatoryPropertyError`, ... or
    ///   `NSValidationMultipleErrorsError` with `NSDetailedErrorsKey`),
    ///   `NSManagedObjectMergeError` for optimistic-locking conflicts and
    ///   `NSManagedObjectConstraintMergeError` for uniqueness conflicts that the context's
    ///   ``mergePolicy`` does not resolve (see ``NSMergePolicy``), store errors.
    public func save() throws {
        guard let source, source.coordinator != nil else {
            if hasChanges {
                throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator to save to.")
            }
            return
        }
        propagateDeletes()
        processPendingChanges()
        guard hasChanges else { return }

        post(.NSManagedObjectContextWillSave)
        let willSave = changes.changesToSave
        for object in willSave.inserts + willSave.updates + willSave.deletes { object.willSave() }
        // willSave may change more values or delete more objects.
        propagateDeletes()
        processPendingChanges()
        computeDerivedAttributes()

        try validateForSave()
        // Uniqueness first, then the write; conflicts go to the merge policy, and the
        // write is tried again (NSManagedObjectContext+OptimisticLocking.swift).
        // Query generations are for reading: the save checks and writes the newest rows.
        generationPin.suspended += 1
        let written = Result { try writeChanges(through: source) }
        generationPin.suspended -= 1
        let saved = try written.get()
        let (inserts, updates, deletes) = (saved.inserts, saved.updates, saved.deletes)
        advanceQueryGeneration()

        let info: [AnyHashable: Any] = [
            NSInsertedObjectsKey: Set(inserts),
            NSUpdatedObjectsKey: Set(updates),
            NSDeletedObjectsKey: Set(deletes),
        ]
        for object in inserts + updates { object.didSave() }
        for object in deletes { object.didSave() }
        post(.NSManagedObjectContextDidSave, info)
        post(.NSManagedObjectContextDidSaveObjectIDs, [
            NSInsertedObjectIDsKey: Set(inserts.map(\.objectID)),
            NSUpdatedObjectIDsKey: Set(updates.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(deletes.map(\.objectID)),
        ])
    }

    /// Gives inserted objects permanent IDs now (a store key each), without saving. In a
    /// child context, objects that came from the parent with temporary IDs get theirs
    /// from the ancestor that inserted them, so the whole chain agrees.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        let fromSource = objects.filter { $0.context === self && $0.objectID.isTemporaryID && !$0.isInsertedFlag }
        if let source, !fromSource.isEmpty {
            let ids = try source.permanentIDs(for: fromSource.map(\.objectID))
            for (object, objectID) in zip(fromSource, ids) where objectID != object.objectID {
                reassign(object, to: objectID)
            }
        }
        let inserted = objects.filter { $0.isInsertedFlag }
        let assigned = try persistentStoreCoordinator.map { coordinator in
            try coordinator.serving(self) { try allocatePermanentIDs(for: inserted) }
        } ?? allocatePermanentIDs(for: inserted)
        for (object, objectID) in assigned {
            reassign(object, to: objectID)
        }
    }

    /// Reserves a store key for each object that still has a temporary ID, one
    /// `allocateKeys` call per inheritance root, without changing the objects.
    func allocatePermanentIDs(for objects: [NSManagedObject]) throws -> [(NSManagedObject, NSManagedObjectID)] {
        try zip(objects, permanentIDs(allocatingFor: objects)).compactMap { object, objectID in
            objectID.map { (object, $0) }
        }
    }

    /// ``allocatePermanentIDs(for:)`` answered in the objects' order: element `i` is the new
    /// ID of `objects[i]`, nil for an object that needs none (it has a permanent ID or
    /// belongs to another context).
    func permanentIDs(allocatingFor objects: [NSManagedObject]) throws -> [NSManagedObjectID?] {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The context has no persistent store coordinator.")
        }
        var result = [NSManagedObjectID?](repeating: nil, count: objects.count)
        // Each object's store: the one `assign(_:to:)` chose, else the first that holds its
        // entity. A store that chooses identities itself (a custom store's
        // obtainPermanentIDs(for:)) is asked once for all its objects, as on Apple.
        // Families hold the objects' positions.
        struct Family: Hashable { let store: ObjectIdentifier; let root: ObjectIdentifier }
        var families: [Family: [Int]] = [:]
        var storesByID: [ObjectIdentifier: NSPersistentStore] = [:]
        // The store and family of the last object's entity: inserts come in runs of one
        // entity, and the coordinator's answer (under its lock) is the same for each.
        var last: (entity: NSEntityDescription?, store: NSPersistentStore?, root: ObjectIdentifier?) = (nil, nil, nil)
        for (index, object) in objects.enumerated() where object.objectID.isTemporaryID && object.context === self {
            let entity = object.entity
            if last.entity !== entity {
                last = (entity, coordinator.store(for: entity), ObjectIdentifier(entity.runtime.root))
            }
            let assigned = assignedStores.isEmpty ? nil : assignedStores[ObjectIdentifier(object)]
            guard let store = assigned ?? last.store else {
                throw CoreDataError.make(NSPersistentStoreSaveError, "No store of the coordinator holds the entity \(entity.name ?? "?").")
            }
            storesByID[ObjectIdentifier(store)] = store
            families[Family(store: ObjectIdentifier(store), root: last.root!), default: []].append(index)
        }
        var byStore: [ObjectIdentifier: (store: NSPersistentStore, groups: [[Int]])] = [:]
        for (family, group) in families {
            byStore[family.store, default: (storesByID[family.store]!, [])].groups.append(group)
        }
        for (store, storeGroups) in byStore.values {
            let all = storeGroups.flatMap { $0 }
            if let keys = try coordinator.obtainKeys(for: all.map { objects[$0] }, in: store) {
                guard keys.count == all.count else {
                    throw CoreDataError.make(NSCoreDataError,
                        "The store returned \(keys.count) permanent IDs for \(all.count) objects.")
                }
                for (index, key) in zip(all, keys) {
                    let entity = coordinator.managedObjectModel.entity(forID: key.entityID) ?? objects[index].entity
                    result[index] = NSManagedObjectID(entity: entity, store: store, reference: .permanent(key.pk))
                }
                continue
            }
            for group in storeGroups {
                let first = try coordinator.allocateKeys(entity: objects[group[0]].entity, count: group.count, in: store)
                for (offset, index) in group.enumerated() {
                    result[index] = NSManagedObjectID(entity: objects[index].entity, store: store,
                                                      reference: .permanent(first + Int64(offset)))
                }
            }
        }
        return result
    }

    /// ``reassign(_:to:)`` for the inserted objects of a save: objects moving from a
    /// temporary ID to a permanent one of a store that does not hear of registrations move
    /// in the registry under one lock; the others one at a time.
    func reassign(_ moves: [(object: NSManagedObject, objectID: NSManagedObjectID)]) {
        var objects: [NSManagedObject] = [], objectIDs: [NSManagedObjectID] = [], keys: [RegistryKey] = []
        objects.reserveCapacity(moves.count)
        objectIDs.reserveCapacity(moves.count)
        keys.reserveCapacity(moves.count)
        for (object, objectID) in moves {
            guard assignedStores.isEmpty, object.objectID.isTemporaryID, object.context === self,
                  objectID.storeReference?.talksToContexts != true, let key = registryKey(objectID) else {
                reassign(object, to: objectID)
                continue
            }
            objects.append(object)
            objectIDs.append(objectID)
            keys.append(key)
        }
        guard !objects.isEmpty else { return }
        let released = registry.promote(objects, to: objectIDs, keys: keys, retained: retainsRegisteredObjects)
        if !released.isEmpty { noteUnregistered(released) }
    }

    func reassign(_ object: NSManagedObject, to objectID: NSManagedObjectID) {
        if !assignedStores.isEmpty { assignedStores.removeValue(forKey: ObjectIdentifier(object)) }
        registry.remove(object)
        if registryKey(object.objectID) != nil { noteUnregistered([object.objectID]) }
        object.objectID = objectID
        register(object)
    }
}
