import Foundation

// MARK: - Parent contexts (the child's side)

extension NSManagedObjectContext {
    /// The context this one fetches through and saves into, instead of a coordinator: a
    /// child context sees its parent's unsaved changes, and its `save()` hands its changes
    /// to the parent, which writes them to the store when it saves itself.
    ///
    /// ```swift
    /// let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// editor.parent = container.viewContext
    /// try editor.performAndWait {
    ///     let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: editor)
    ///     item.setValue("Milk", forKey: "name")
    ///     try editor.save()            // the view context now has the insert, unsaved
    /// }
    /// try container.viewContext.performAndWait { try container.viewContext.save() }
    /// ```
    ///
    /// The parent answers on its own queue (the child calls its `performAndWait`). A
    /// context has a parent or a coordinator, never both: setting the parent of a context
    /// that has a coordinator traps, as Apple raises; a child's
    /// ``persistentStoreCoordinator`` is its root context's.
    ///
    /// - Note: Apple parity: uniqueness constraints are checked only when the root context
    ///   saves; a child's dictionary results read the store's saved state; a child ignores
    ///   `relationshipKeyPathsForPrefetching`; objects arriving from a child get no
    ///   `awakeFromInsert` in the parent.
    public var parent: NSManagedObjectContext? {
        get { parentContext }
        set {
            if let newValue {
                if ownCoordinator != nil {
                    coreDataMisuse("Context already has a coordinator; cannot replace.")
                }
                if newValue.concurrencyType == .confinementConcurrencyType {
                    coreDataMisuse("Parent NSManagedObjectContext must use either NSPrivateQueueConcurrencyType or NSMainQueueConcurrencyType.")
                }
                var ancestor: NSManagedObjectContext? = newValue
                while let context = ancestor {
                    if context === self { coreDataMisuse("A context cannot be its own ancestor.") }
                    ancestor = context.parentContext
                }
            }
            parentContext = newValue
            if let coordinator = newValue?.persistentStoreCoordinator {
                ManagedClassRegistry.shared.noteModel(coordinator.managedObjectModel)
            }
            if automaticallyMergesChangesFromParent { observeSavesForAutomaticMerging(true) }
        }
    }

    /// The object for an ID handed down by the parent: the registered one or a new fault;
    /// nil for a temporary ID that no ancestor knows.
    func objectFromParent(_ objectID: NSManagedObjectID) -> NSManagedObject? {
        if let object = registeredObject(for: objectID) { return object }
        if objectID.isTemporaryID, !(parentContext?.knowsObject(objectID) ?? false) { return nil }
        return makeFault(objectID)
    }

    /// A fresh copy of an object's committed values: the parent's current values for a
    /// child, the store's row (bypassing the row cache) for a root context.
    func freshRow(for object: NSManagedObject) throws -> StoreRow? {
        if let parentContext { return try parentContext.snapshotRow(for: object.objectID) }
        persistentStoreCoordinator?.evictRow(for: object.objectID)
        return try persistentStoreCoordinator?.row(for: object.objectID)
    }

    /// A fetch in a child: the parent runs the request (its unsaved changes included)
    /// for object IDs; the child then folds in its own unsaved changes, as a root context
    /// folds its changes into the store's rows.
    func fetchObjectsThroughParent<T>(_ parent: NSManagedObjectContext, _ request: NSFetchRequest<T>,
                                      entity: NSEntityDescription, faults: Bool) throws -> [NSManagedObject] {
        let predicate = request.predicate
        if let predicate { try PredicateValidation.validate(predicate, for: entity) }
        let pending = request.includesPendingChanges && hasPendingChanges(for: entity)
        let upward = NSFetchRequest<NSManagedObjectID>()
        upward.entity = entity
        upward.predicate = predicate
        upward.sortDescriptors = request.sortDescriptors
        upward.includesSubentities = request.includesSubentities
        upward.affectedStores = request.affectedStores
        upward.resultType = .managedObjectIDResultType
        upward.includesPendingChanges = true
        if !pending {
            upward.fetchLimit = request.fetchLimit
            upward.fetchOffset = request.fetchOffset
        }
        let ids = try parent.performAndWait { try parent.fetch(upward) }
        var objects = ids.compactMap(objectFromParent)
        if pending {
            objects = try foldPendingChanges(into: objects, entity: entity, request: request, predicate: predicate)
            let descriptors = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed)
            if !descriptors.isEmpty { objects = SortKeyResolver.sorted(objects, by: descriptors) }
            if request.fetchOffset > 0 { objects = Array(objects.dropFirst(request.fetchOffset)) }
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
        }
        if !faults && request.fetchBatchSize == 0 {
            for object in objects where object.isFault { try object.fireFaultThrowing() }
        }
        return objects
    }

    /// Obtains permanent IDs for objects this child has from its parent with temporary
    /// IDs: the parent (through the chain) obtains them, then the child adopts them.
    func obtainPermanentIDsFromParent(for objects: [NSManagedObject]) throws {
        guard let parentContext, !objects.isEmpty else { return }
        let ids = objects.map(\.objectID)
        let permanent = try parentContext.permanentIDs(forTemporaryIDs: ids)
        for (object, objectID) in zip(objects, permanent) where objectID != object.objectID {
            reassign(object, to: objectID)
        }
    }
}
