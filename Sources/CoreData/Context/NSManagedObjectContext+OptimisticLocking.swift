import Foundation

// MARK: - Optimistic locking: conflicts found by a save, resolved by the merge policy
//
// A save writes each store's changes in one transaction; the store checks every updated
// and deleted row's `Z_OPT` against the version the context read and throws
// `StoreConflict` naming every row that moved on. `SaveBatch` turns that into an
// `NSMergeConflict` per object (`mergeConflicts(for:in:among:)`), the save hands them to
// the merge policy (`NSMergePolicy.resolve(mergeConflicts:)`) and writes again
// (`writeChanges(through:)`). The built-in policies change the objects here
// (`resolveLockingConflict(of:as:)`): each takes the store's latest row as its snapshot,
// so the next attempt writes over that version.

/// A save's optimistic-locking conflicts on their way from the store to the merge policy.
struct OptimisticLockingFailure: Error {
    let conflicts: [NSMergeConflict]
}

extension NSManagedObjectContext {
    /// How many times one save lets its merge policy resolve conflicts and writes again
    /// before it gives up with `NSManagedObjectMergeError`: other writers may win the race
    /// again and again, and a policy that resolves nothing would otherwise loop forever.
    static let conflictRounds = 100

    // MARK: - The save's loop

    /// Checks uniqueness, writes the changes through `source` and, when the stores report
    /// optimistic-locking conflicts, lets the merge policy resolve them and writes again.
    /// Returns what the successful attempt wrote.
    ///
    /// - Throws: what the merge policy throws (`NSManagedObjectMergeError` from the error
    ///   policy), `NSManagedObjectMergeError` after ``conflictRounds`` attempts, store errors.
    func writeChanges(through source: ObjectSource) throws -> SaveChanges {
        var round = 0
        while true {
            // Uniqueness constraints are the store's: checked when a save reaches the stores.
            if source.writesToStores { try resolveUniquenessConflicts() }
            propagateDeletes()
            processPendingChanges()
            let (inserts, updates, deletes) = changes.changesToSave
            var batch = SaveChanges(inserts: inserts, updates: updates, deletes: deletes)
            if !lockedObjects.isEmpty {
                // Objects marked with detectConflicts(for:) that this save does not write:
                // their rows must still be at the versions the context read.
                batch.locked = lockedObjects.values.filter {
                    $0.context === self && !$0.isInsertedFlag && !$0.isDeletedFlag && !$0.isUpdated
                }
            }
            do {
                try source.save(batch, from: self)
                lockedObjects.removeAll()
                return batch
            } catch let failure as OptimisticLockingFailure {
                round += 1
                guard round <= Self.conflictRounds else { throw Self.optimisticLockingError(failure.conflicts) }
                try resolvingMergePolicy.resolve(mergeConflicts: failure.conflicts)
            }
        }
    }

    /// The context's ``mergePolicy`` as a policy object.
    ///
    /// Traps when ``mergePolicy`` holds anything else, with the wording of the exception
    /// Apple raises when its save sends that object `resolveConflicts:error:`.
    ///
    /// - Note: Apple parity: Apple names the Objective-C class of the object (for a
    ///   string, `__NSCFString`); here the Swift type is named.
    var resolvingMergePolicy: NSMergePolicy {
        if let policy = mergePolicy as? NSMergePolicy { return policy }
        let value = mergePolicy
        let address = Unmanaged.passUnretained(value as AnyObject).toOpaque()
        coreDataMisuse("-[\(type(of: value)) resolveConflicts:error:]: unrecognized selector sent to instance \(address)")
    }

    /// The error of a save that could not settle its optimistic-locking conflicts
    /// (`NSManagedObjectMergeError`, the conflicts under `NSPersistentStoreSaveConflictsErrorKey`).
    static func optimisticLockingError(_ conflicts: [NSMergeConflict]) -> NSError {
        let objects = conflicts.map { conflict -> String in
            let version = conflict.newVersionNumber == 0 ? "deleted" : "version \(conflict.newVersionNumber)"
            return "\(conflict.sourceObject.objectID) (read at version \(conflict.oldVersionNumber), now \(version))"
        }
        return CoreDataError.make(NSManagedObjectMergeError,
            "Could not merge changes: the store changed since these objects were read: " + objects.joined(separator: ", ") + ".",
            userInfo: [NSPersistentStoreSaveConflictsErrorKey: conflicts])
    }

    // MARK: - Conflicts from the store's report

    /// An `NSMergeConflict` for each row of `conflict` (rows of `store`), for the objects
    /// among `objects` (the save's updates and deletes) that own them.
    ///
    /// The coordinator's cache tells the two layers apart: when it holds a newer version
    /// than the object's, another context of this coordinator saved first (the conflict
    /// carries the cached values and no persisted snapshot); otherwise the file moved on
    /// under the coordinator (another coordinator or process), and the conflict carries
    /// the row as the file now has it (nil when the row is gone, version 0).
    ///
    /// - Throws: the store's error when the row cannot be read: a row that cannot be read
    ///   must not pass for a deleted one, which the merge policies would delete here too.
    func mergeConflicts(for conflict: StoreConflict, in store: NSPersistentStore,
                        among objects: [NSManagedObject]) throws -> [NSMergeConflict] {
        guard let coordinator = persistentStoreCoordinator else { return [] }
        struct Key: Hashable { let root: ObjectIdentifier; let pk: Int64 }
        var owners: [Key: NSManagedObject] = [:]
        for object in objects {
            if let pk = object.objectID.primaryKey { owners[Key(root: ObjectIdentifier(object.entity.runtime.root), pk: pk)] = object }
        }
        return try conflict.rows.compactMap { row -> NSMergeConflict? in
            guard let object = owners[Key(root: ObjectIdentifier(row.entity.runtime.root), pk: row.pk)] else { return nil }
            let expected = Int(row.expectedVersion)
            let cached = coordinator.serving(self) { coordinator.rowCacheEntry(coordinator.cacheKey(store, object.entity, row.pk)) }
            if let cached, cached.version != row.expectedVersion {
                return NSMergeConflict(source: object, newVersion: Int(cached.version), oldVersion: expected,
                                       cachedSnapshot: object.snapshot(of: cached), persistedSnapshot: nil)
            }
            let cachedSnapshot = (cached ?? object.committedRow).map(object.snapshot(of:))
            coordinator.evictRow(for: object.objectID)
            let persisted = try coordinator.serving(self) { try coordinator.row(for: object.objectID) }
            return NSMergeConflict(source: object, newVersion: Int(persisted?.version ?? 0), oldVersion: expected,
                                   cachedSnapshot: cachedSnapshot, persistedSnapshot: persisted.map(object.snapshot(of:)))
        }
    }

    // MARK: - The built-in resolutions

    /// Resolves one object's optimistic-locking conflict as a built-in policy of `type`
    /// does (see ``NSMergePolicy/resolve(optimisticLockingConflicts:)``), against the
    /// store's latest row.
    func resolveLockingConflict(of object: NSManagedObject, as type: NSMergePolicyType) throws {
        guard type != .errorMergePolicyType, object.context === self, !object.isInsertedFlag,
              let source else { return }
        let fresh = try source.freshRow(for: object.objectID)
        try withoutUndoRegistration {
            guard let fresh else {
                // The row is gone: whatever the context did to the object, the store's
                // deletion stands.
                takeDeletionFromStore(object)
                return
            }
            if type == .rollbackMergePolicyType {
                discardChanges(of: object, for: fresh)
            } else if object.isDeletedFlag {
                try keepDeletion(of: object, over: fresh)
            } else {
                try merge(object, with: fresh, as: type)
            }
        }
    }

    /// The object's row was deleted by another writer: it is deleted here too (its delete
    /// rules run on the objects in memory), and the save lets it go without writing.
    private func takeDeletionFromStore(_ object: NSManagedObject) {
        if !object.isDeletedFlag { delete(object) }
        changes.recordGoneFromStore(object)
        propagateDeletes()
    }

    /// Rollback: the object's changes and its deletion are discarded; it becomes a fault
    /// of the store's row `fresh` (read afresh into the coordinator's cache by the
    /// caller), which is also its snapshot from now on: the version a later check of the
    /// object (`detectConflicts(for:)`) expects.
    private func discardChanges(of object: NSManagedObject, for fresh: StoreRow) {
        changes.cancelChanges(object)
        if object.isDeletedFlag {
            object.isDeletedFlag = false
            changes.cancelDelete(object)
        }
        object.turnIntoFault()
        object.committedRow = fresh
    }

    /// A deletion that stands over the store's newer row: the save deletes that version,
    /// and the delete rules run for the objects the store now relates to the object (an
    /// object another writer attached to it is nullified or deleted with it).
    private func keepDeletion(of object: NSManagedObject, over fresh: StoreRow) throws {
        object.committedRow = fresh
        for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties {
            guard let inverse = relationship.inverseRelationship,
                  relationship.deleteRule == .nullifyDeleteRule || relationship.deleteRule == .cascadeDeleteRule else { continue }
            let related: [NSManagedObject]
            if relationship.isToMany {
                related = try relatedObjects(relationship, of: object)
            } else {
                related = destination(of: relationship, in: fresh, source: object.objectID).map { [$0] } ?? []
            }
            for destination in related where !destination.isDeletedFlag && destination.context === self {
                if relationship.deleteRule == .cascadeDeleteRule {
                    delete(destination)
                } else {
                    destination.unlinkInverse(inverse, from: object)
                }
            }
        }
        propagateDeletes()
    }

    /// Store trump, object trump and overwrite: the object takes the store's row as its
    /// snapshot; each attribute and to-one keeps the object's value or takes the store's,
    /// as `type` says; each changed to-many keeps the object's additions and removals on
    /// top of the store's members.
    private func merge(_ object: NSManagedObject, with fresh: StoreRow, as type: NSMergePolicyType) throws {
        object.fireFaultIfNeeded()
        let old = object.committedRow
        var kept: [(NSPropertyDescription, Any?)] = []
        var dirtyTransients: [Int32] = []
        var toMany: [(relationship: NSRelationshipDescription, added: [NSManagedObject], removed: [NSManagedObject])] = []
        var loadedToMany: [NSRelationshipDescription] = []
        for property in object.entity.runtime.slotProperties {
            let slot = property.slot
            if property.isTransient {
                if object.storage.isDirty(at: slot) { dirtyTransients.append(slot) }
                continue
            }
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                guard let set = object.storage.set(at: slot) else { continue }
                guard object.storage.isDirty(at: slot) else {
                    loadedToMany.append(relationship)
                    continue
                }
                let current = set.members(as: NSManagedObject.self)
                let committed = object.committedToMany[slot] ?? []
                let currentIDs = Set(current.map(ObjectIdentifier.init)), committedIDs = Set(committed.map(ObjectIdentifier.init))
                toMany.append((relationship, current.filter { !committedIDs.contains(ObjectIdentifier($0)) },
                               committed.filter { !currentIDs.contains(ObjectIdentifier($0)) }))
                continue
            }
            guard EntityRuntime.isStored(property) else { continue }
            let changedHere = object.differsFromCommitted(property)
            let changedThere = old.map { Self.slot(slot, differsBetween: $0, and: fresh) } ?? true
            let keep: Bool
            switch type {
            case .mergeByPropertyObjectTrumpMergePolicyType: keep = changedHere
            case .mergeByPropertyStoreTrumpMergePolicyType: keep = changedHere && !changedThere
            case .overwriteMergePolicyType: keep = true
            default: keep = false
            }
            if keep { kept.append((property, object.primitiveValue(atSlot: slot, property: property))) }
        }

        // The store's row becomes the snapshot and the values; the kept values go back on
        // top as changes.
        object.storage.clearDirty()
        object.invalidValues.removeAll()
        object.load(fresh)
        for slot in dirtyTransients { object.storage.markDirty(at: slot) }
        for (property, value) in kept where !Self.value(value, equals: object, property) {
            object.setPrimitive(value, for: property)
        }
        for relationship in loadedToMany {
            // Unchanged here: the store's members, as committed.
            let members = try relatedObjects(relationship, of: object)
            object.replaceLoadedMembers(of: relationship, with: members, committed: members)
        }
        for (relationship, added, removed) in toMany {
            let stored = try relatedObjects(relationship, of: object)
            let removedIDs = Set(removed.map(ObjectIdentifier.init))
            var members = stored.filter { !removedIDs.contains(ObjectIdentifier($0)) }
            let present = Set(members.map(ObjectIdentifier.init))
            members += added.filter { !present.contains(ObjectIdentifier($0)) }
            object.replaceLoadedMembers(of: relationship, with: members, committed: stored)
        }
        noteWillChange(object)
    }

    /// Whether a stored slot (an attribute or a to-one) holds different values in two rows.
    private static func slot(_ slot: Int32, differsBetween a: StoreRow, and b: StoreRow) -> Bool {
        let left = a.values.value(at: slot), right = b.values.value(at: slot)
        if left.isNull != right.isNull { return true }
        if left.isNull { return false }
        if let leftReference = a.values.reference(at: slot) {
            return leftReference != b.values.reference(at: slot)
        }
        return !left.isEqual(to: right)
    }

    /// Whether `value` is what the object now holds for a stored property (so keeping it
    /// changes nothing).
    private static func value(_ value: Any?, equals object: NSManagedObject, _ property: NSPropertyDescription) -> Bool {
        let current = object.primitiveValue(atSlot: property.slot, property: property)
        if property is NSRelationshipDescription {
            return (value as? NSManagedObject) === (current as? NSManagedObject)
        }
        switch (NSAttributeDescription.unwrap(value), NSAttributeDescription.unwrap(current)) {
        case (nil, nil): return true
        case let (a?, b?):
            if let a = a as? NSObject, let b = b as? NSObject { return a.isEqual(b) }
            if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
            return false
        default: return false
        }
    }
}

extension NSManagedObject {
    /// Sets the members of a loaded to-many slot and its committed members, without
    /// inverse upkeep: dirty when the members differ from the committed ones.
    func replaceLoadedMembers(of relationship: NSRelationshipDescription, with members: [NSManagedObject],
                              committed: [NSManagedObject]) {
        let slot = relationship.slot
        guard let set = storage.mutableSet(at: slot) else { return }
        set.removeAll()
        for member in members { set.add(member) }
        committedToMany[slot] = committed
        if Set(members.map(ObjectIdentifier.init)) != Set(committed.map(ObjectIdentifier.init)) {
            storage.markDirty(at: slot)
        }
    }
}
