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
        if !(request.includesPendingChanges && changes.hasChanges(inHierarchyOf: entity)),
           let count = try source?.count(query(request, entity: entity, folding: false)) {
            return count
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
        // A frozen model of our own class answers from the table it built when it froze; a
        // subclass may answer `entitiesByName` its own way.
        let found = model.isFrozen && type(of: model) == NSManagedObjectModel.self
            ? model.frozenEntitiesByName[name] : model.entitiesByName[name]
        guard let entity = found else {
            throw CoreDataError.make(NSCoreDataError, "The fetch request names the entity \(name), which is not in the model (entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).")
        }
        return entity
    }

    /// What the source is asked for a request. When the context folds its own unsaved
    /// changes in afterwards, the source must not apply the offset and limit.
    func query<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, folding: Bool) -> SourceQuery {
        SourceQuery(entity: entity, predicate: request.predicate,
                    sortDescriptors: request.sortDescriptors ?? [],
                    includesSubentities: request.includesSubentities, affectedStores: request.affectedStores,
                    fetchLimit: folding ? 0 : request.fetchLimit, fetchOffset: folding ? 0 : request.fetchOffset)
    }

    /// The objects a request selects, in order, registered in this context: the source's
    /// answer, with this context's unsaved changes folded in when the request includes
    /// them, sorted, offset and limited here when the source could not.
    func fetchObjects<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, faults: Bool) throws -> [NSManagedObject] {
        guard let source else { return [] }
        let predicate = request.predicate
        if let predicate { try PredicateValidation.validate(predicate, for: entity) }
        let pending = request.includesPendingChanges && changes.hasChanges(inHierarchyOf: entity)
        var query = query(request, entity: entity, folding: pending)
        query.returnsFaults = faults
        query.fetchBatchSize = request.fetchBatchSize
        // IDs, batches and `includesPropertyValues = false` need only the identities; the
        // values load when the faults fire.
        query.identitiesOnly = faults && (request.fetchBatchSize > 0 || !request.includesPropertyValues
            || request.resultType == .managedObjectIDResultType)
        let answer = try source.fetchObjects(query, into: self)
        var objects = answer.objects
        if pending {
            objects = try foldPendingChanges(into: objects, entity: entity, request: request, predicate: predicate)
        }
        if pending || !answer.isOrdered {
            let descriptors = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed)
            if !descriptors.isEmpty { objects = SortKeyResolver.sorted(objects, by: descriptors) }
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        if !faults && request.fetchBatchSize == 0 {
            for object in objects where object.isFault { try object.fireFaultThrowing() }
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty,
           request.resultType == .managedObjectResultType {
            try source.prefetch(keyPaths, for: objects, in: self)
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
        for object in changes.updatedObjects where belongs(object) && !seen.contains(ObjectIdentifier(object)) {
            if try matches(object) { seen.insert(ObjectIdentifier(object)); result.append(object) }
        }
        for object in changes.insertedObjects where belongs(object) && !object.isDeletedFlag {
            if try matches(object) { result.append(object) }
        }
        return result
    }

    /// The registered object for a fetched row (existing objects keep their in-memory
    /// state, as Apple's do unless `shouldRefreshRefetchedObjects`).
    func register(row: StoreRow, store: NSPersistentStore, asFault: Bool) -> NSManagedObject {
        let key = RegistryKey(store: ObjectIdentifier(store), root: row.entity.runtime.rootID, pk: row.pk)
        let object = registry[key]
            ?? makeFault(NSManagedObjectID(entity: row.entity, store: store, reference: .permanent(row.pk)))
        if !asFault, object.isFault { object.realize(from: row) }
        return object
    }

    /// ``register(row:store:asFault:)`` for the rows one fetch read from one store: the
    /// registry is searched once and written once for all of them (instead of a lock, a
    /// lookup and an insert per row), and the new objects' keys are the ones already made.
    ///
    /// A store that talks to contexts (`NSIncrementalStore`) may answer one object twice,
    /// and hears of each registration: its rows go one at a time. The built-in stores answer
    /// each primary key of an inheritance root at most once per fetch.
    func register(rows: [StoreRow], store: NSPersistentStore, asFault: Bool) -> [NSManagedObject] {
        guard !store.talksToContexts, rows.count > 1 else {
            return rows.map { register(row: $0, store: store, asFault: asFault) }
        }
        let storeID = ObjectIdentifier(store)
        let keys = rows.map { RegistryKey(store: storeID, root: $0.entity.runtime.rootID, pk: $0.pk) }
        let found = registry.objects(for: keys)
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(rows.count)
        var created: [NSManagedObject] = []
        created.reserveCapacity(rows.count)
        var createdKeys: [RegistryKey] = []
        createdKeys.reserveCapacity(rows.count)
        // The class of the last row's entity: rows come in runs of one entity.
        var last: (entity: NSEntityDescription?, type: NSManagedObject.Type) = (nil, NSManagedObject.self)
        for (i, row) in rows.enumerated() {
            if let object = found[i] {
                objects.append(object)
                continue
            }
            if last.entity !== row.entity { last = (row.entity, row.entity.runtime.objectClass) }
            let object = makeUnregisteredFault(NSManagedObjectID(entity: row.entity, store: store, reference: .permanent(row.pk)),
                                               of: last.type)
            object.context = self
            objects.append(object)
            created.append(object)
            createdKeys.append(keys[i])
        }
        if !created.isEmpty {
            let released = registry.insert(created, keys: createdKeys, retained: retainsRegisteredObjects)
            if !released.isEmpty { noteUnregistered(released) }
        }
        if !asFault {
            for (object, row) in zip(objects, rows) where object.isFault { object.realize(from: row) }
        }
        return objects
    }
}
