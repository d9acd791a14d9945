import Foundation

// MARK: - Relationship destinations as IDs, without loading objects

extension NSManagedObject {
    /// The IDs of the objects a relationship points to, without firing faults or
    /// registering objects: from memory when the relationship is loaded or changed,
    /// otherwise from the store (the to-one's key in the row cache, the to-many's keys).
    ///
    /// - Note: Apple parity: traps with Apple's wording for a key that is not a relationship.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        guard let relationship = property(forKey: key) as? NSRelationshipDescription else {
            coreDataMisuse("\(key) is not a relationship of the entity \(entity.name ?? "?").")
        }
        if !isFault {
            if !relationship.isToMany {
                return toOneValue(slot: relationship.slot).map { [$0.objectID] } ?? []
            }
            if storage.set(at: relationship.slot) != nil {
                return toManyMembers(slot: relationship.slot, relationship: relationship).map(\.objectID)
            }
        }
        guard !objectID.isTemporaryID, let store = objectID.persistentStore,
              let coordinator = context?.persistentStoreCoordinator else { return [] }
        let model = coordinator.managedObjectModel
        func id(_ entityID: Int, _ pk: Int64) -> NSManagedObjectID? {
            guard let entity = model.entity(forID: entityID) ?? relationship.destinationEntity else { return nil }
            return NSManagedObjectID(entity: entity, store: store, reference: .permanent(pk))
        }
        if relationship.isToMany {
            let keys = (try? coordinator.relatedKeys(relationship, of: objectID)) ?? []
            return keys.compactMap { id($0.entityID, $0.pk) }
        }
        switch (try? coordinator.row(for: objectID))?.values.reference(at: relationship.slot) {
        case let .key(key)?: return id(key.entityID, key.pk).map { [$0] } ?? []
        case let .objectID(destination)?: return [destination]
        case nil: return []
        }
    }
}
