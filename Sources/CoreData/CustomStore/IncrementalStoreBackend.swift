import Foundation

/// The coordinator's view of an app's `NSIncrementalStore`: every backend call becomes the
/// store's own API, with the requesting context Apple passes.
///
/// - Fetches: the store's `execute(_:with:)` gets a fetch request for the entity, with the
///   request's predicate and sort descriptors when there are any, and answers managed
///   objects or object IDs; the context then filters and sorts those again in memory, so a
///   store that returns every object of the entity is right too.
/// - Faults: `newValuesForObject(with:with:)` (and
///   `newValue(forRelationship:forObjectWith:with:)` for to-many relationships, and for
///   to-one relationships its node leaves out).
/// - Saves: `obtainPermanentIDs(for:)`, then `execute(_:with:)` with an
///   `NSSaveChangesRequest` whose inserted objects already carry those IDs.
final class IncrementalStoreBackend: CustomStoreBackend, StoreBackend {
    private unowned let incremental: NSIncrementalStore

    init(store: NSIncrementalStore) {
        self.incremental = store
        super.init(store: store, references: store.references)
    }

    // MARK: - Opening

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        noteLoaded(model: model)
        try incremental.loadMetadata()
        try checkMetadata()
    }

    func close() { releaseScratchContext() }

    // MARK: - Fetching

    /// The object IDs the store answers for a plan without predicate or sorts (the context
    /// evaluates those in memory: see `FetchPlan.hintPredicate`), offset and limited.
    private func fetchObjectIDs(_ plan: FetchPlan) throws -> [NSManagedObjectID] {
        guard plan.predicate == nil, plan.sorts.isEmpty else { throw StoreFetchUnsupported() }
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = plan.entity
        request.includesSubentities = plan.includesSubentities
        request.predicate = plan.hintPredicate
        request.sortDescriptors = plan.hintSortDescriptors.isEmpty ? nil : plan.hintSortDescriptors
        request.affectedStores = [incremental]
        let result = try withContext { try incremental.execute(request, with: $0) }
        var objectIDs: [NSManagedObjectID] = []
        var seen = Set<NSManagedObjectID>()
        for item in try array(from: result, for: "a fetch request") {
            guard let objectID = try objectID(named: item) else { continue }
            guard key(of: objectID) != nil else {
                throw CoreDataError.make(NSCoreDataError,
                    "The store \(Swift.type(of: incremental)) returned \(objectID) from a fetch, which is not one of its permanent object IDs.")
            }
            let entity = objectID.entity
            let matches = plan.includesSubentities ? entity.isKindOf(entity: plan.entity) : entity === plan.entity
            if matches, seen.insert(objectID).inserted { objectIDs.append(objectID) }
        }
        if plan.offset > 0 { objectIDs = Array(objectIDs.dropFirst(plan.offset)) }
        if plan.limit > 0 { objectIDs = Array(objectIDs.prefix(plan.limit)) }
        return objectIDs
    }

    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        let objectIDs = try fetchObjectIDs(plan)
        return try withContext { context in
            try objectIDs.compactMap { try row(for: $0, in: context) }
        }
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        try fetchObjectIDs(plan).compactMap(key(of:))
    }

    /// The context counts the objects a fetch returns (a store is not asked to count).
    func count(_ plan: FetchPlan) throws -> Int { throw StoreFetchUnsupported() }

    // MARK: - Objects

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        let objectID = objectID(entity: entity, pk: pk)
        return try withContext { try row(for: objectID, in: $0) }
    }

    /// An object's row from the store's node; nil when the store says the object is gone
    /// (`NSManagedObjectReferentialIntegrityError`).
    private func row(for objectID: NSManagedObjectID, in context: NSManagedObjectContext) throws -> StoreRow? {
        guard let pk = objectID.primaryKey else { return nil }
        let node: NSIncrementalStoreNode
        do {
            node = try incremental.newValuesForObject(with: objectID, with: context)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain
                    && error.code == NSManagedObjectReferentialIntegrityError {
            return nil
        }
        return try row(for: objectID, pk: pk, version: Int64(clamping: node.version),
                       value: { node.hasValue(forKey: $0.name) ? node.value(for: $0) : nil },
                       missingToOne: { relationship in
                           try incremental.newValue(forRelationship: relationship, forObjectWith: objectID, with: context)
                       })
    }

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        let objectID = objectID(entity: relationship.entity, pk: pk)
        let value = try withContext {
            try incremental.newValue(forRelationship: relationship, forObjectWith: objectID, with: $0)
        }
        if !relationship.isToMany {
            guard let destination = try self.objectID(named: value) else { return [] }
            return key(of: destination).map { [$0] } ?? []
        }
        return try keys(inCollection: value, ordered: relationship.isOrdered)
    }

    // MARK: - Saving

    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "The incremental store \(Swift.type(of: incremental)) makes its own object IDs (obtainPermanentIDs(for:)).")
    }

    func obtainKeys(for objects: [AnyObject]) throws -> [StoreKey]? {
        let managed = objects.compactMap { $0 as? NSManagedObject }
        let objectIDs = try incremental.obtainPermanentIDs(for: managed)
        guard objectIDs.count == managed.count else {
            throw CoreDataError.make(NSCoreDataError,
                "The store \(Swift.type(of: incremental)) returned \(objectIDs.count) IDs from obtainPermanentIDs(for:) for \(managed.count) objects.")
        }
        return try objectIDs.map { objectID in
            guard let key = key(of: objectID) else {
                throw CoreDataError.make(NSCoreDataError,
                    "The store \(Swift.type(of: incremental)) returned \(objectID) from obtainPermanentIDs(for:); make IDs with newObjectID(for:referenceObject:).")
            }
            return key
        }
    }

    var readsObjectsOnSave: Bool { true }

    /// An incremental store gets a save request, not the versions the context read: the
    /// coordinator checks them against the node versions it cached (as Apple's coordinator
    /// uses `NSIncrementalStoreNode.version` to detect conflicts).
    var checksVersions: Bool { false }

    func save(_ changes: StoreChanges) throws {
        func objects(_ writes: [StoreChanges.Write]) throws -> Set<NSManagedObject>? {
            guard !writes.isEmpty else { return nil }
            return Set(try writes.map { try managedObject($0.object) })
        }
        let deleted = try changes.deletes.isEmpty ? nil : Set(changes.deletes.map { try managedObject($0.object) })
        let locked = try changes.locks.isEmpty ? nil : Set(changes.locks.map { try managedObject($0.object) })
        let request = NSSaveChangesRequest(inserted: try objects(changes.inserts), updated: try objects(changes.updates),
                                           deleted: deleted, locked: locked)
        let result = try withContext { try incremental.execute(request, with: $0) }
        _ = try array(from: result, for: "a save request")
    }

    private func managedObject(_ object: AnyObject?) throws -> NSManagedObject {
        guard let managed = object as? NSManagedObject else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "The incremental store \(Swift.type(of: incremental)) saves managed objects; these changes came without them.")
        }
        return managed
    }
}
