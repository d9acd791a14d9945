import Foundation

/// Where a context's objects come from and where its saves go: its persistent store
/// coordinator (a root context, ``CoordinatorObjectSource``) or its parent context (a child,
/// ``ParentContextObjectSource``).
///
/// The context asks the same questions of either, so its fetch, fault, refresh and save
/// paths are written once. Sources register the objects they answer with in the asking
/// context, so identity (one object per ID per context) stays the context's.
protocol ObjectSource: AnyObject {
    /// The coordinator at the root of the chain, when the chain reaches one.
    var coordinator: NSPersistentStoreCoordinator? { get }
    /// The parent context, for a child (Apple's `parent`).
    var parentContext: NSManagedObjectContext? { get }
    /// Whether a save through this source reaches the stores (so uniqueness constraints,
    /// which are the store's, are checked then, and other root contexts may merge it).
    var writesToStores: Bool { get }
    /// The object whose `NSManagedObjectContextDidSave` notifications change what this
    /// source serves (the parent context), or nil for saves of any root context on the
    /// same coordinator.
    var saveNotificationSender: AnyObject? { get }
    /// Whether a save of `saver` changes what this source serves (automatic merging).
    func isChanged(bySaveOf saver: NSManagedObjectContext) -> Bool

    // MARK: Fetching

    /// The objects a query selects, in order, registered in `context`: faults, or realized
    /// from the rows at hand when `query.returnsFaults` is false. The predicate is always
    /// applied; ``SourceAnswer/isOrdered`` says whether sorting, offset and limit were too.
    func fetchObjects(_ query: SourceQuery, into context: NSManagedObjectContext) throws -> SourceAnswer
    /// How many objects a query selects, or nil when only a fetch can tell.
    func count(_ query: SourceQuery) throws -> Int?
    /// Loads the relationships named by `relationshipKeyPathsForPrefetching` for fetched
    /// objects of `context`, ahead of their faults.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject], in context: NSManagedObjectContext) throws

    // MARK: Objects

    /// An object's committed values, for its fault: nil when the object is gone. Cached
    /// values older than `maxAge` seconds are read again (negative: any age).
    func row(for objectID: NSManagedObjectID, maxAge: TimeInterval) throws -> StoreRow?
    /// An object's committed values read afresh, for `refresh(_:mergeChanges: true)`.
    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// The members of a to-many relationship of a registered object, registered in its
    /// context, in order.
    func relatedObjects(_ relationship: NSRelationshipDescription, of object: NSManagedObject,
                        into context: NSManagedObjectContext) throws -> [NSManagedObject]
    /// Whether an object with this temporary ID exists up the chain (a context may then
    /// build a fault for it).
    func knowsObject(withTemporaryID objectID: NSManagedObjectID) -> Bool
    /// Checks that an object exists, for `existingObject(with:)`: throws
    /// `NSManagedObjectReferentialIntegrityError` when it does not. Returns its row when
    /// the check read one (the caller realizes the object from it), nil otherwise.
    func checkExistence(of objectID: NSManagedObjectID) throws -> StoreRow?
    /// Permanent IDs for objects the context has from this source under temporary IDs
    /// (objects an ancestor inserted), in order; other IDs come back unchanged.
    func permanentIDs(for objectIDs: [NSManagedObjectID]) throws -> [NSManagedObjectID]

    // MARK: Saving

    /// Takes a save: writes it to the stores, or makes it the parent's unsaved changes.
    /// Nothing in `context` changes when this throws; on success the saved objects are
    /// committed (permanent IDs, snapshots, no dirty bits) and the tracker cleared.
    func save(_ changes: SaveChanges, from context: NSManagedObjectContext) throws
}

/// What a context asks its source to fetch, from an `NSFetchRequest`.
struct SourceQuery {
    var entity: NSEntityDescription
    var predicate: NSPredicate?
    var sortDescriptors: [NSSortDescriptor]
    var includesSubentities: Bool
    var affectedStores: [NSPersistentStore]?
    /// 0: no limit. Set only when the context will not fold pending changes in.
    var fetchLimit = 0
    var fetchOffset = 0
    /// `fetchBatchSize`: the values load one batch per statement as faults fire.
    var fetchBatchSize = 0
    /// Whether the objects stay faults (values are then read only when they fire).
    var returnsFaults = true
    /// Whether only the objects' identities are needed (IDs, batches,
    /// `includesPropertyValues = false`): no values are read now.
    var identitiesOnly = false
}

/// A source's answer to a fetch.
struct SourceAnswer {
    var objects: [NSManagedObject]
    /// Whether the objects are already sorted, offset and limited as the query asked.
    var isOrdered: Bool
}

/// The changes one save hands to a source.
struct SaveChanges {
    let inserts: [NSManagedObject]
    let updates: [NSManagedObject]
    let deletes: [NSManagedObject]
    /// Unchanged objects whose stored version must still be the one they were read at
    /// (`detectConflicts(for:)`).
    var locked: [NSManagedObject] = []
}
