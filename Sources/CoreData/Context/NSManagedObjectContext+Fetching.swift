import Foundation

// MARK: - Fetching

extension NSManagedObjectContext {
    /// Runs a fetch request: the store selects and sorts rows, the context registers
    /// objects (faults unless `returnsObjectsAsFaults` is false) and, when
    /// `includesPendingChanges` is true, folds in its unsaved inserts, updates and deletes.
    ///
    /// - Throws: `NSError` in `NSCocoaErrorDomain` for a request without a known entity,
    ///   a context without stores, or a store failure.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        let entity = try resolveEntity(request)
        if request.propertiesToGroupBy?.isEmpty == false, request.resultType != .dictionaryResultType {
            throw CoreDataError.make(NSCoreDataError, "Invalid fetch request: GROUP BY requires NSDictionaryResultType.")
        }
        switch request.resultType {
        case .countResultType:
            return try [NSNumber(value: count(for: request)) as! T]
        case .managedObjectIDResultType:
            return try fetchObjects(request, entity: entity, faults: true).map { cast($0.objectID, request) }
        case .dictionaryResultType:
            return try fetchDictionaries(request, entity: entity).map { cast($0, request) }
        default:
            let objects = try fetchObjects(request, entity: entity,
                                           faults: request.returnsObjectsAsFaults || request.fetchBatchSize > 0)
            var result: [T] = []
            result.reserveCapacity(objects.count)
            for object in objects {
                guard let typed = object as? T else {
                    throw CoreDataError.make(NSCoreDataError,
                        "The fetch returned \(type(of: object)) objects for the entity \(entity.name ?? "?"), not \(T.self): set the entity's class (representedClassName / managedObjectClassName) or call \(T.self).registerSubclass().")
                }
                result.append(typed)
            }
            return result
        }
    }

    /// The number of objects a fetch request would return.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        let entity = try resolveEntity(request)
        if parentContext == nil, !(request.includesPendingChanges && hasPendingChanges(for: entity)),
           let coordinator = persistentStoreCoordinator {
            let plan = FetchPlan(entity: entity, includesSubentities: request.includesSubentities,
                                 predicate: request.predicate, sorts: [], limit: request.fetchLimit,
                                 offset: request.fetchOffset)
            do {
                return try stores(for: request, entity: entity).reduce(0) { total, store in
                    total + (try coordinator.count(plan, in: store))
                }
            } catch is StoreFetchUnsupported {}
        }
        return try fetchObjects(request, entity: entity, faults: true).count
    }

    private func cast<T>(_ value: Any, _ request: NSFetchRequest<T>) -> T {
        value as! T
    }

    func resolveEntity<T>(_ request: NSFetchRequest<T>) throws -> NSEntityDescription {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The context has no persistent store coordinator.")
        }
        let model = coordinator.managedObjectModel
        if let entity = request.entity, entity.managedObjectModel === model { return entity }
        guard let name = request.entityName else {
            throw CoreDataError.make(NSCoreDataError, "A fetch request must have an entity.")
        }
        guard let entity = model.entitiesByName[name] else {
            throw CoreDataError.make(NSCoreDataError, "The fetch request names the entity \(name), which is not in the model (entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).")
        }
        return entity
    }

    func stores<T>(for request: NSFetchRequest<T>, entity: NSEntityDescription) throws -> [NSPersistentStore] {
        guard let coordinator = persistentStoreCoordinator else { return [] }
        let candidates = request.affectedStores ?? coordinator.persistentStores
        let model = coordinator.managedObjectModel
        let root = entity.runtime.root
        let stores = candidates.filter { store in
            guard store.persistentStoreCoordinator === coordinator else { return false }
            let members = model.entities(forConfigurationName: store.configurationName) ?? []
            return members.contains { $0 === entity || $0 === root }
        }
        if stores.isEmpty && coordinator.persistentStores.isEmpty {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The context's coordinator has no persistent stores.")
        }
        return stores
    }

    func hasPendingChanges(for entity: NSEntityDescription) -> Bool {
        let root = entity.runtime.root
        func related(_ object: NSManagedObject) -> Bool { object.entity.runtime.root === root }
        return inserted.values.contains(where: related) || deleted.values.contains(where: related)
            || touched.values.contains { related($0) && $0.isUpdated }
    }

    /// The objects a request selects, in order, registered in this context.
    func fetchObjects<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, faults: Bool) throws -> [NSManagedObject] {
        if let parentContext {
            return try fetchObjectsThroughParent(parentContext, request, entity: entity, faults: faults)
        }
        guard let coordinator = persistentStoreCoordinator else { return [] }
        let stores = try stores(for: request, entity: entity)
        let predicate = request.predicate
        if let predicate { try PredicateValidation.validate(predicate, for: entity) }
        let descriptors = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed)
        let sorts = descriptors.compactMap(SortKeyResolver.sortKey(for:))
        let pending = request.includesPendingChanges && hasPendingChanges(for: entity)
        var sortInMemory = sorts.count != descriptors.count || pending || stores.count > 1
        var plan = FetchPlan(entity: entity, includesSubentities: request.includesSubentities,
                             predicate: predicate, sorts: sortInMemory ? [] : sorts,
                             limit: sortInMemory ? 0 : request.fetchLimit,
                             offset: sortInMemory ? 0 : request.fetchOffset)

        // IDs, batches and `includesPropertyValues = false` need only the keys (see
        // NSPersistentStoreCoordinator+Batches.swift); the values load when faults fire.
        let keysOnly = faults && (request.fetchBatchSize > 0 || !request.includesPropertyValues
            || request.resultType == .managedObjectIDResultType)
        var objects: [NSManagedObject] = []
        for store in stores {
            var rows: [StoreRow]
            var filterInMemory = false
            do {
                if keysOnly {
                    let keys = try coordinator.fetchKeys(plan, in: store, batchSize: request.fetchBatchSize)
                    objects += keys.compactMap {
                        registeredObjectOrFault(entityID: $0.entityID, pk: $0.pk, store: store, fallback: nil)
                    }
                    continue
                }
                rows = try coordinator.fetchRows(plan, in: store)
            } catch is StoreFetchUnsupported {
                plan.predicate = nil
                plan.sorts = []
                plan.limit = 0
                plan.offset = 0
                rows = try coordinator.fetchRows(plan, in: store)
                filterInMemory = predicate != nil
                sortInMemory = true
                plan.predicate = predicate
            }
            permanentObjects.reserveCapacity(permanentObjects.count + rows.count)
            let storeObjects = rows.map { register(row: $0, store: store, asFault: faults && !filterInMemory) }
            if filterInMemory, let predicate {
                objects += try storeObjects.filter { try PredicateSupport.evaluate(predicate, with: $0) }
            } else {
                objects += storeObjects
            }
        }

        if pending {
            objects = try foldPendingChanges(into: objects, entity: entity, request: request, predicate: predicate)
        }
        if sortInMemory {
            if !descriptors.isEmpty { objects = SortKeyResolver.sorted(objects, by: descriptors) }
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        if !faults && request.fetchBatchSize == 0 {
            for object in objects where object.isFault { try object.fireFaultThrowing() }
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty,
           request.resultType == .managedObjectResultType {
            try prefetch(keyPaths, for: objects)
        }
        return objects
    }

    /// Unsaved changes, as `includesPendingChanges` asks: deleted objects leave,
    /// changed ones are matched again, inserted ones join.
    func foldPendingChanges<T>(into objects: [NSManagedObject], entity: NSEntityDescription,
                                       request: NSFetchRequest<T>, predicate: NSPredicate?) throws -> [NSManagedObject] {
        func belongs(_ object: NSManagedObject) -> Bool {
            request.includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity
        }
        func matches(_ object: NSManagedObject) throws -> Bool {
            guard let predicate else { return true }
            return try PredicateSupport.evaluate(predicate, with: object)
        }
        var seen = Set<ObjectIdentifier>()
        var result: [NSManagedObject] = []
        for object in objects where !object.isDeletedFlag {
            if object.isUpdated, !(try matches(object)) { continue }
            if seen.insert(ObjectIdentifier(object)).inserted { result.append(object) }
        }
        for object in touched.values where object.isUpdated && belongs(object) && !seen.contains(ObjectIdentifier(object)) {
            if try matches(object) { seen.insert(ObjectIdentifier(object)); result.append(object) }
        }
        for object in inserted.values where belongs(object) && !object.isDeletedFlag {
            if try matches(object) { result.append(object) }
        }
        return result
    }

    /// The registered object for a fetched row (existing objects keep their in-memory
    /// state, as Apple's do unless `shouldRefreshRefetchedObjects`).
    func register(row: StoreRow, store: NSPersistentStore, asFault: Bool) -> NSManagedObject {
        let key = RegistryKey(store: ObjectIdentifier(store), root: row.entity.runtime.rootID, pk: row.pk)
        let object = permanentObjects[key]
            ?? makeFault(NSManagedObjectID(entity: row.entity, store: store, reference: .permanent(row.pk)))
        if !asFault, object.isFault { object.realize(from: row) }
        return object
    }
}
