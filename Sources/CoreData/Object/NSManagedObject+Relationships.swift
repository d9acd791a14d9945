import Foundation

// MARK: - Relationship storage and inverse upkeep

extension NSManagedObject {
    /// The object in a to-one slot (no fault firing of either side).
    func toOneValue(slot: Int32) -> NSManagedObject? {
        storage.value(at: slot).object(as: NSManagedObject.self)
    }

    func writeToOne(_ object: NSManagedObject?, slot: Int32, dirty: Bool) {
        if dirty {
            recordUndoableChange(ofSlot: slot)
            storage.setObject(object, at: slot)
        } else {
            storage.loading.setObject(object, at: slot)
        }
    }

    /// The members of a to-many relationship, loading them from the store the first time
    /// (a to-many is not read until something asks for it).
    func toManyMembers(slot: Int32, relationship: NSRelationshipDescription) -> [NSManagedObject] {
        loadedSet(slot: slot, relationship: relationship).members(as: NSManagedObject.self)
    }

    /// The runtime set of a to-many slot, filled from the store if it was not loaded.
    /// Traps with Apple's fault wording when the store cannot say what the members are (a
    /// damaged row, a removed store), as Apple raises; `loadedSetThrowing` is the
    /// throwing twin.
    func loadedSet(slot: Int32, relationship: NSRelationshipDescription) -> SlotSet {
        do {
            return try loadedSetThrowing(slot: slot, relationship: relationship)
        } catch {
            coreDataMisuse("CoreData could not fulfill a fault for '\(objectID)' (relationship \(relationship.name)): "
                + (error as NSError).localizedDescription)
        }
    }

    func loadedSetThrowing(slot: Int32, relationship: NSRelationshipDescription) throws -> SlotSet {
        if let set = storage.set(at: slot) { return set }
        guard !isInsertedFlag, let context else { return storage.mutableSet(at: slot)! }
        // Read the members before making the set, so that a failure leaves the slot unloaded.
        let members = try context.relatedObjects(relationship, of: self)
        let set = storage.mutableSet(at: slot)!
        for object in members { set.add(object) }
        committedToMany[slot] = members
        return set
    }

    /// Replaces the members of a to-many slot (no inverse upkeep), recording the change.
    func replaceToManyPrimitive(_ relationship: NSRelationshipDescription, with objects: [NSManagedObject]) {
        recordUndoableChange(ofSlot: relationship.slot)
        let set = loadedSet(slot: relationship.slot, relationship: relationship)
        set.removeAll()
        for object in objects { set.add(object) }
        storage.markDirty(at: relationship.slot)
    }

    func addToManyPrimitive(_ relationship: NSRelationshipDescription, _ object: NSManagedObject) {
        context?.noteWillChange(self)
        fireFaultIfNeeded()
        let set = loadedSet(slot: relationship.slot, relationship: relationship)
        if set.contains(object) { return }
        recordUndoableChange(ofSlot: relationship.slot)
        if set.add(object) { storage.markDirty(at: relationship.slot) }
    }

    func removeToManyPrimitive(_ relationship: NSRelationshipDescription, _ object: NSManagedObject) {
        context?.noteWillChange(self)
        fireFaultIfNeeded()
        let set = loadedSet(slot: relationship.slot, relationship: relationship)
        guard set.contains(object) else { return }
        recordUndoableChange(ofSlot: relationship.slot)
        if set.remove(object) { storage.markDirty(at: relationship.slot) }
    }

    /// Sets a relationship through the public setter: the value changes and the inverse
    /// on every affected object follows, at once, before any save.
    func setRelationship(_ value: Any?, _ relationship: NSRelationshipDescription) {
        context?.noteWillChange(self)
        if relationship.isToMany {
            let new = Self.objects(in: value)
            let old = toManyMembers(slot: relationship.slot, relationship: relationship)
            let newIDs = Set(new.map(ObjectIdentifier.init)), oldIDs = Set(old.map(ObjectIdentifier.init))
            for object in new { assertSameContext(object, relationship) }
            replaceToManyPrimitive(relationship, with: new)
            guard let inverse = relationship.inverseRelationship else { return }
            for object in old where !newIDs.contains(ObjectIdentifier(object)) {
                object.unlinkInverse(inverse, from: self)
            }
            for object in new where !oldIDs.contains(ObjectIdentifier(object)) {
                object.linkInverse(inverse, to: self, through: relationship)
            }
        } else {
            let new = value as? NSManagedObject
            if let new { assertSameContext(new, relationship) }
            let old = toOneValue(slot: relationship.slot)
            if old === new && new != nil { return }
            writeToOne(new, slot: relationship.slot, dirty: true)
            guard let inverse = relationship.inverseRelationship else { return }
            old?.unlinkInverse(inverse, from: self)
            new?.linkInverse(inverse, to: self, through: relationship)
        }
    }

    /// `self.inverse` no longer includes `owner`.
    func unlinkInverse(_ inverse: NSRelationshipDescription, from owner: NSManagedObject) {
        if inverse.isToMany {
            removeToManyPrimitive(inverse, owner)
        } else {
            context?.noteWillChange(self)
            fireFaultIfNeeded()
            if toOneValue(slot: inverse.slot) === owner { writeToOne(nil, slot: inverse.slot, dirty: true) }
        }
    }

    /// `self.inverse` now includes `owner` (reached through `relationship` of `owner`).
    /// A to-one inverse that pointed elsewhere is taken from its previous owner.
    func linkInverse(_ inverse: NSRelationshipDescription, to owner: NSManagedObject,
                     through relationship: NSRelationshipDescription) {
        if inverse.isToMany {
            addToManyPrimitive(inverse, owner)
            return
        }
        context?.noteWillChange(self)
        fireFaultIfNeeded()
        let previous = toOneValue(slot: inverse.slot)
        if previous === owner { return }
        if let previous {
            // Reassigned: the previous owner lets go of us.
            if relationship.isToMany {
                previous.removeToManyPrimitive(relationship, self)
            } else {
                previous.context?.noteWillChange(previous)
                previous.fireFaultIfNeeded()
                if previous.toOneValue(slot: relationship.slot) === self {
                    previous.writeToOne(nil, slot: relationship.slot, dirty: true)
                }
            }
        }
        writeToOne(owner, slot: inverse.slot, dirty: true)
    }

    func assertSameContext(_ object: NSManagedObject, _ relationship: NSRelationshipDescription) {
        if object.context !== context {
            coreDataMisuse("Illegal attempt to establish a relationship '\(relationship.name)' between objects in different contexts")
        }
        if let destination = relationship.destinationEntity, !object.entity.isKindOf(entity: destination) {
            coreDataMisuse("Unacceptable type of value for to-\(relationship.isToMany ? "many" : "one") relationship: property = \"\(relationship.name)\"; desired type = \(destination.name ?? "?"); given type = \(object.entity.name ?? "?")")
        }
    }

    /// The throwing twin of the checks above (C API).
    func checkRelationshipValue(_ value: Any?, _ relationship: NSRelationshipDescription) throws {
        let objects: [NSManagedObject]
        if relationship.isToMany {
            guard value == nil || Self.isCollection(value) else {
                throw CoreDataError.make(NSManagedObjectValidationError, "The to-many relationship \(relationship.name) needs a set of objects.")
            }
            objects = Self.objects(in: value)
        } else {
            guard let value = NSAttributeDescription.unwrap(value) else { return }
            guard let object = value as? NSManagedObject else {
                throw CoreDataError.make(NSManagedObjectValidationError, "The to-one relationship \(relationship.name) needs a managed object.")
            }
            objects = [object]
        }
        for object in objects {
            if object.context !== context {
                throw CoreDataError.make(NSManagedObjectExternalRelationshipError, "Illegal attempt to establish a relationship '\(relationship.name)' between objects in different contexts.")
            }
            if let destination = relationship.destinationEntity, !object.entity.isKindOf(entity: destination) {
                throw CoreDataError.make(NSManagedObjectValidationError, "The relationship \(relationship.name) takes \(destination.name ?? "?") objects, not \(object.entity.name ?? "?").")
            }
        }
    }

    static func isCollection(_ value: Any?) -> Bool {
        switch NSAttributeDescription.unwrap(value) {
        case is Set<NSManagedObject>, is [NSManagedObject], is NSSet, is NSOrderedSet, is NSArray: return true
        case let value?: return Mirror(reflecting: value).displayStyle == .set || Mirror(reflecting: value).displayStyle == .collection
        default: return false
        }
    }

    /// The managed objects in a to-many value: a Swift set or array of any subclass,
    /// `NSSet`, `NSOrderedSet` or `NSArray`.
    static func objects(in value: Any?) -> [NSManagedObject] {
        switch NSAttributeDescription.unwrap(value) {
        case nil: return []
        case let ordered as NSOrderedSet: return ordered.array.compactMap { $0 as? NSManagedObject }
        case let array as [NSManagedObject]: return array
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        case let array as NSArray: return array.compactMap { $0 as? NSManagedObject }
        case let value?:
            return Mirror(reflecting: value).children.compactMap { $0.value as? NSManagedObject }
        }
    }
}
