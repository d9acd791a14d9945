import Foundation

// MARK: - Delete

extension NSBatchDeleteRequest: BatchRequestExecuting {
    func executeBatch(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        let coordinator = try BatchExecution.coordinator(of: context)
        let model = coordinator.managedObjectModel
        var keys: [NSPersistentStore: [StoreKey]] = [:]
        var plan: FetchPlan?
        var stores: [NSPersistentStore]
        if let objectIDs {
            guard let first = objectIDs.first else { return result(ids: []) }
            for objectID in objectIDs {
                guard objectID.entity === first.entity || objectID.entity.name == first.entity.name else {
                    throw CoreDataError.make(NSCoreDataError,
                        "A batch delete's object IDs must all be of one entity (\(first.entity.name ?? "?") and \(objectID.entity.name ?? "?") were given).")
                }
                guard let pk = objectID.primaryKey, let store = objectID.persistentStore,
                      store.persistentStoreCoordinator === coordinator else {
                    throw CoreDataError.make(NSCoreDataError,
                        "A batch delete cannot delete \(objectID.uriRepresentation()), which is not saved in a store of the context's coordinator.")
                }
                keys[store, default: []].append(StoreKey(entityID: objectID.entity.runtime.entityID, pk: pk))
            }
            stores = Array(keys.keys)
            for store in stores { _ = try BatchExecution.stores(for: first.entity, among: [store], in: coordinator) }
        } else {
            let entity = try BatchExecution.entity(fetchRequest.entity, named: fetchRequest.entityName, in: coordinator,
                                                   request: "batch delete request")
            if let predicate = fetchRequest.predicate { try PredicateValidation.validate(predicate, for: entity) }
            stores = try BatchExecution.stores(for: entity, among: fetchRequest.affectedStores ?? affectedStores, in: coordinator)
            let descriptors = (fetchRequest.sortDescriptors ?? []).map(SortKeyResolver.keyed)
            let sorts = descriptors.compactMap(SortKeyResolver.sortKey(for:))
            plan = FetchPlan(entity: entity, includesSubentities: fetchRequest.includesSubentities,
                             predicate: fetchRequest.predicate,
                             sorts: sorts.count == descriptors.count ? sorts : [],
                             limit: sorts.count == descriptors.count ? fetchRequest.fetchLimit : 0,
                             offset: sorts.count == descriptors.count ? fetchRequest.fetchOffset : 0)
            if sorts.count != descriptors.count { plan = nil }
        }
        var deleted: [NSManagedObjectID] = []
        for store in stores {
            let outcome: StoreBatchOutcome = try BatchExecution.writing {
                if let plan, let outcome = try sqlDelete(plan, store, coordinator) { return outcome }
                let storeKeys = try keys[store] ?? selectedKeys(in: store, coordinator)
                if let outcome = try coordinator.executeBatch(.delete(StoreBatchDelete(plan: nil, keys: storeKeys)), in: store) {
                    return outcome
                }
                return try coordinator.deleteRowByRow(storeKeys, in: store)
            }
            deleted += BatchExecution.objectIDs(outcome.result, in: store, model: model)
        }
        return result(ids: deleted)
    }

    /// The delete in SQL, or nil when the store has no batch operations; rethrows
    /// everything but `StoreFetchUnsupported` (then the rows are selected in memory).
    private func sqlDelete(_ plan: FetchPlan, _ store: NSPersistentStore,
                           _ coordinator: NSPersistentStoreCoordinator) throws -> StoreBatchOutcome? {
        do {
            return try coordinator.executeBatch(.delete(StoreBatchDelete(plan: plan, keys: [])), in: store)
        } catch is StoreFetchUnsupported {
            return nil
        }
    }

    /// The keys of the objects the fetch request selects, fetched in memory.
    private func selectedKeys(in store: NSPersistentStore, _ coordinator: NSPersistentStoreCoordinator) throws -> [StoreKey] {
        let request = NSFetchRequest<NSManagedObject>(entityName: fetchRequest.entityName ?? "")
        request.entity = fetchRequest.entity.flatMap { coordinator.managedObjectModel.entitiesByName[$0.name ?? ""] }
        request.predicate = fetchRequest.predicate
        request.sortDescriptors = fetchRequest.sortDescriptors
        request.fetchLimit = fetchRequest.fetchLimit
        request.fetchOffset = fetchRequest.fetchOffset
        request.includesSubentities = fetchRequest.includesSubentities
        request.affectedStores = [store]
        request.includesPendingChanges = false
        return try BatchExecution.inScratchContext(coordinator) { scratch in
            try scratch.fetch(request).compactMap { object in
                object.objectID.primaryKey.map { StoreKey(entityID: object.entity.runtime.entityID, pk: $0) }
            }
        }
    }

    private func result(ids: [NSManagedObjectID]) -> NSBatchDeleteResult {
        let value: Any
        switch resultType {
        case .resultTypeStatusOnly: value = NSNumber(value: true)
        case .resultTypeCount: value = NSNumber(value: ids.count)
        case .resultTypeObjectIDs: value = ids
        }
        return NSBatchDeleteResult(result: value, resultType: resultType)
    }
}
