import Foundation

// MARK: - Resolving uniqueness conflicts

extension NSMergePolicy {
    /// The built-in resolution of constraint conflicts.
    ///
    /// - `error`: throws `NSManagedObjectConstraintMergeError` with the conflicts under
    ///   `NSPersistentStoreSaveConflictsErrorKey`.
    /// - `mergeByPropertyObjectTrump`: one object survives (the store's object when there is
    ///   one, else the first conflicting object); it takes the changed values of the
    ///   others (theirs win) and their relationships; the others leave the context.
    /// - `overwrite`: as object-trump, with every value of the others.
    /// - `mergeByPropertyStoreTrump`: as object-trump, but the survivor keeps its values and
    ///   takes only values it lacks.
    /// - `rollback`: the survivor keeps its values; the others are dropped.
    ///
    /// - Note: Apple parity: Apple documents the outcome per policy, not the mechanics;
    ///   here the surviving object is always the one already in the store, so its
    ///   `objectID` stays and the duplicates never reach the store.
    func resolveConstraintConflicts(_ list: [NSConstraintConflict]) throws {
        guard mergeType != .errorMergePolicyType else {
            let descriptions = list.map { conflict in
                "\(conflict.conflictingObjects.first?.entity.name ?? "?") \(conflict.constraint) = \(conflict.constraintValues.values.map { "\($0)" })"
            }
            throw CoreDataError.make(NSManagedObjectConstraintMergeError,
                "Uniqueness constraints violated: " + descriptions.joined(separator: "; "),
                userInfo: [NSPersistentStoreSaveConflictsErrorKey: list])
        }
        for conflict in list {
            let objects = conflict.conflictingObjects.filter { $0.managedObjectContext != nil }
            guard let survivor = conflict.databaseObject ?? objects.first(where: { !$0.isInserted }) ?? objects.first,
                  let context = survivor.managedObjectContext else { continue }
            for duplicate in objects where duplicate !== survivor {
                merge(duplicate, into: survivor)
                context.discardDuplicate(duplicate)
            }
        }
    }

    private func merge(_ duplicate: NSManagedObject, into survivor: NSManagedObject) {
        survivor.fireFaultIfNeeded()
        duplicate.fireFaultIfNeeded()
        let changed = duplicate.isInserted ? nil : Set(duplicate.changedValues().keys)
        for property in duplicate.entity.runtime.slotProperties where !property.isTransient {
            guard survivor.property(forKey: property.name) != nil else { continue }
            if let relationship = property as? NSRelationshipDescription {
                moveRelationship(relationship, from: duplicate, to: survivor)
                continue
            }
            guard let value = duplicate.primitiveValue(atSlot: property.slot, property: property) else { continue }
            switch mergeType {
            case .mergeByPropertyObjectTrumpMergePolicyType:
                if changed?.contains(property.name) ?? true { survivor.setValue(value, forKey: property.name) }
            case .overwriteMergePolicyType:
                survivor.setValue(value, forKey: property.name)
            case .mergeByPropertyStoreTrumpMergePolicyType:
                if survivor.value(forKey: property.name) == nil { survivor.setValue(value, forKey: property.name) }
            default:
                break
            }
        }
    }

    /// The survivor takes the duplicate's related objects (rollback keeps its own).
    private func moveRelationship(_ relationship: NSRelationshipDescription, from duplicate: NSManagedObject,
                                  to survivor: NSManagedObject) {
        guard mergeType != .rollbackMergePolicyType else { return }
        if relationship.isToMany {
            let members = duplicate.toManyMembers(slot: relationship.slot, relationship: relationship)
                .filter { $0 !== survivor && !$0.isDeletedFlag }
            guard let target = survivor.property(forKey: relationship.name) as? NSRelationshipDescription else { return }
            survivor.addMembers(members, to: target)
        } else if let destination = duplicate.toOneValue(slot: relationship.slot), destination !== survivor,
                  !destination.isDeletedFlag {
            if mergeType == .mergeByPropertyStoreTrumpMergePolicyType,
               survivor.value(forKey: relationship.name) != nil { return }
            survivor.setValue(destination, forKey: relationship.name)
        }
    }
}

extension NSManagedObjectContext {
    /// Takes a duplicate out of the save: it lets go of what it is still related to and,
    /// if it was never saved, leaves the context; a saved one is deleted.
    func discardDuplicate(_ object: NSManagedObject) {
        for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties {
            guard let inverse = relationship.inverseRelationship else { continue }
            let related = relationship.isToMany
                ? object.toManyMembers(slot: relationship.slot, relationship: relationship)
                : object.toOneValue(slot: relationship.slot).map { [$0] } ?? []
            for destination in related { destination.unlinkInverse(inverse, from: object) }
        }
        if object.isInsertedFlag {
            object.isInsertedFlag = false
            unregister(object)
        } else {
            delete(object)
            propagateDeletes()
        }
    }
}
