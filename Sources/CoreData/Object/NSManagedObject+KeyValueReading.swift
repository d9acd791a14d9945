import Foundation

extension NSManagedObject: KeyValueReading {
    /// Predicates read attributes and relationships through key-value coding; an unknown
    /// key is an error, not a trap.
    func predicateValue(forKey key: String) throws -> Any? {
        guard property(forKey: key) != nil else {
            throw PredicateEvaluationError.unknownKey(key, entityName: entity.name)
        }
        try fireFaultThrowing()
        return value(forKey: key)
    }
}

extension NSManagedObject: StoredObjectReference {
    /// A saved object's key, when it is saved in `backend`'s store (compiled predicates
    /// compare relationships with it).
    func storeKey(in backend: StoreBackend) -> StoreKey? {
        guard let pk = objectID.primaryKey, objectID.persistentStore?.backend === backend else { return nil }
        return StoreKey(entityID: entity.runtime.entityID, pk: pk)
    }

    var rootEntity: NSEntityDescription { entity.runtime.root }
}

extension NSManagedObject: PredicateObjectReference {
    /// A predicate compares this object with an object ID by its ``objectID``.
    var predicateObjectID: NSObject { objectID }
    var isObjectIDOnly: Bool { false }
}
