import Foundation

// An object ID in a predicate stands for the object it names, in memory and in SQL, as on
// Apple (`NSPredicate(format: "team == %@", team.objectID)`, `"SELF IN %@"` with IDs).

extension NSManagedObjectID: PredicateObjectReference {
    var predicateObjectID: NSObject { self }
    var isObjectIDOnly: Bool { true }
}

extension NSManagedObjectID: StoredObjectReference {
    /// The primary key of a permanent ID of `backend`'s store; nil for a temporary ID or
    /// an ID of another store (no row of this store can be that object).
    func storeKey(in backend: StoreBackend) -> StoreKey? {
        guard persistentStore?.backend === backend else { return nil }
        return storeKey
    }

    var rootEntity: NSEntityDescription { entity.runtime.root }
}
