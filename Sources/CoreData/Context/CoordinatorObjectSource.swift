import Foundation

/// A root context's source: the persistent store coordinator, its stores and its row cache.
///
/// Its calls to the coordinator name its context as the requesting one
/// (``NSPersistentStoreCoordinator/serving(_:_:)``) where that matters: the context a
/// custom store receives in `execute(_:with:)` and `newValuesForObject(with:with:)`, and a
/// context pinned to a query generation, which reads at its generation. Reads of the
/// built-in stores by an unpinned context go without, so that the SQLite store reads them
/// outside the coordinator's lock (``NSPersistentStoreCoordinator/readOutsideLock(_:_:keep:)``).
final class CoordinatorObjectSource: ObjectSource {
    private let root: NSPersistentStoreCoordinator
    /// The context this source serves (which owns the source).
    private unowned let context: NSManagedObjectContext

    init(_ coordinator: NSPersistentStoreCoordinator, context: NSManagedObjectContext) {
        self.root = coordinator
        self.context = context
    }

    var coordinator: NSPersistentStoreCoordinator? { root }
    var parentContext: NSManagedObjectContext? { nil }
    var writesToStores: Bool { true }
    var saveNotificationSender: AnyObject? { nil }

    func isChanged(bySaveOf saver: NSManagedObjectContext) -> Bool {
        saver.source?.writesToStores == true && saver.persistentStoreCoordinator === root
    }

    /// Runs a coordinator call about `store`, naming this context as the requesting one
    /// when the store or the context's query generation needs it (see the type's comment).
    private func call<T>(for store: NSPersistentStore, _ body: () throws -> T) rethrows -> T {
        guard store.readsForContexts || context.generationPin.isPinned else { return try body() }
        return try root.serving(context, body)
    }

    // MARK: - Fetching

    private func stores(for query: SourceQuery) throws -> [NSPersistentStore] {
        try root.stores(for: query.entity, among: query.affectedStores)
    }

    private func plan(_ query: SourceQuery, sorts: [SortKey]) -> FetchPlan {
        FetchPlan(entity: query.entity, includesSubentities: query.includesSubentities,
                  predicate: query.predicate, sorts: sorts, limit: query.fetchLimit, offset: query.fetchOffset)
    }

    func fetchObjects(_ query: SourceQuery, into context: NSManagedObjectContext) throws -> SourceAnswer {
        let stores = try stores(for: query)
        let descriptors = query.sortDescriptors.map(SortKeyResolver.keyed)
        let sorts = descriptors.compactMap(SortKeyResolver.sortKey(for:))
        // The store sorts and limits when it can express every sort and answers alone.
        var ordered = sorts.count == descriptors.count && stores.count == 1
        var plan = ordered ? plan(query, sorts: sorts) : plan(query, sorts: [])
        if !ordered { (plan.limit, plan.offset) = (0, 0) }

        var objects: [NSManagedObject] = []
        for store in stores {
            do {
                if query.identitiesOnly {
                    // See NSPersistentStoreCoordinator+Batches.swift: the values load when the
                    // faults fire, a batch at a time.
                    let keys = try root.serving(context) { try root.fetchKeys(plan, in: store, batchSize: query.fetchBatchSize) }
                    objects += keys.compactMap {
                        context.registeredObjectOrFault(entityID: $0.entityID, pk: $0.pk, store: store, fallback: nil)
                    }
                } else {
                    let rows = try call(for: store) { try root.fetchRows(plan, in: store) }
                    objects += context.register(rows: rows, store: store, asFault: query.returnsFaults)
                }
            } catch is StoreFetchUnsupported {
                // The store cannot express the predicate: read every row of the entity and
                // filter (and sort) in memory.
                var all = FetchPlan(entity: query.entity, includesSubentities: query.includesSubentities)
                all.hintPredicate = query.predicate
                all.hintSortDescriptors = query.sortDescriptors
                let rows = try call(for: store) { try root.fetchRows(all, in: store) }
                let candidates = context.register(rows: rows, store: store, asFault: false)
                if let predicate = query.predicate {
                    objects += try candidates.filter { try PredicateSupport.evaluate(predicate, with: $0) }
                } else {
                    objects += candidates
                }
                ordered = false
            }
        }
        return SourceAnswer(objects: objects, isOrdered: ordered)
    }

    func count(_ query: SourceQuery) throws -> Int? {
        let plan = plan(query, sorts: [])
        do {
            return try root.serving(context) {
                try stores(for: query).reduce(0) { total, store in total + (try root.count(plan, in: store)) }
            }
        } catch is StoreFetchUnsupported {
            return nil
        }
    }

    /// Reads the relationships a request names for prefetching, a level per statement.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject], in context: NSManagedObjectContext) throws {
        try context.prefetch(keyPaths, for: objects)
    }

    // MARK: - Objects

    func row(for objectID: NSManagedObjectID, maxAge: TimeInterval) throws -> StoreRow? {
        // The fault path: only a store that talks to contexts, or a context pinned to a query
        // generation, needs the coordinator to know which context asks.
        guard objectID.storeReference?.talksToContexts == true || context.generationPin.isPinned else {
            return try root.row(for: objectID, maxAge: maxAge)
        }
        return try root.serving(context) { try root.row(for: objectID, maxAge: maxAge) }
    }

    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        root.evictRow(for: objectID)
        return try root.serving(context) { try root.row(for: objectID) }
    }

    func relatedObjects(_ relationship: NSRelationshipDescription, of object: NSManagedObject,
                        into context: NSManagedObjectContext) throws -> [NSManagedObject] {
        guard !object.objectID.isTemporaryID else { return [] }
        let objectID = object.objectID
        let keys = objectID.storeReference?.talksToContexts == true || context.generationPin.isPinned
            ? try root.serving(context) { try root.relatedKeys(relationship, of: objectID) }
            : try root.relatedKeys(relationship, of: objectID)
        return context.registeredObjectsOrFaults(keys: keys, store: objectID.persistentStore,
                                                 fallback: relationship.destinationEntity)
    }

    /// A coordinator knows only saved objects: temporary IDs are never its.
    func knowsObject(withTemporaryID objectID: NSManagedObjectID) -> Bool { false }

    func checkExistence(of objectID: NSManagedObjectID) throws -> StoreRow? {
        guard !objectID.isTemporaryID, objectID.persistentStore?.persistentStoreCoordinator === root else {
            throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                "The object \(objectID) is not in this context's stores.", userInfo: [NSAffectedObjectsErrorKey: [objectID]])
        }
        guard let row = try root.serving(context, { try root.row(for: objectID) }) else {
            throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                "The object \(objectID) does not exist in its store.", userInfo: [NSAffectedObjectsErrorKey: [objectID]])
        }
        return row
    }

    func permanentIDs(for objectIDs: [NSManagedObjectID]) throws -> [NSManagedObjectID] { objectIDs }

    // MARK: - Saving

    func save(_ changes: SaveChanges, from context: NSManagedObjectContext) throws {
        let batch = try SaveBatch(context: context, coordinator: root, changes: changes)
        try batch.write()
        batch.commit()
    }
}
