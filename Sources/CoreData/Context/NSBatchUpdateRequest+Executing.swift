import Foundation

// MARK: - Update

extension NSBatchUpdateRequest: BatchRequestExecuting {
    func executeBatch(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        let coordinator = try BatchExecution.coordinator(of: context)
        let entity = try BatchExecution.entity(resolvedEntity, named: entityName, in: coordinator, request: "batch update request")
        if let predicate { try PredicateValidation.validate(predicate, for: entity) }
        let constants = StoreRow(entity: entity, pk: 0, version: 0)
        let assignments = try resolvedAssignments(of: entity, constants: constants)
        let plan = FetchPlan(entity: entity, includesSubentities: includesSubentities, predicate: predicate)
        let update = StoreBatchUpdate(plan: plan, assignments: assignments, constants: constants)
        var updated: [NSManagedObjectID] = []
        for store in try BatchExecution.stores(for: entity, among: affectedStores, in: coordinator) {
            let outcome: StoreBatchOutcome = try BatchExecution.writing {
                do {
                    if let outcome = try coordinator.executeBatch(.update(update), in: store) { return outcome }
                } catch is StoreFetchUnsupported {
                    // Selected and computed in memory below.
                }
                return try updateRowByRow(update, in: store, coordinator)
            }
            updated += BatchExecution.objectIDs(outcome.result, in: store, model: coordinator.managedObjectModel)
        }
        let result: Any
        switch resultType {
        case .statusOnlyResultType: result = NSNumber(value: true)
        case .updatedObjectsCountResultType: result = NSNumber(value: updated.count)
        case .updatedObjectIDsResultType: result = updated
        }
        return NSBatchUpdateResult(result: result, resultType: resultType)
    }

    /// ``propertiesToUpdate`` checked against the entity: constants are written into
    /// `constants` (so a bad value fails before anything runs), expressions kept.
    private func resolvedAssignments(of entity: NSEntityDescription, constants: StoreRow) throws -> [StoreBatchUpdate.Assignment] {
        guard let properties = propertiesToUpdate, !properties.isEmpty else {
            throw CoreDataError.make(NSCoreDataError, "A batch update request needs propertiesToUpdate.")
        }
        var assignments: [StoreBatchUpdate.Assignment] = []
        for (key, value) in properties.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            let name = (key.base as? String) ?? (key.base as? NSPropertyDescription)?.name ?? "\(key)"
            guard let attribute = entity.propertiesByName[name] as? NSAttributeDescription, !attribute.isTransient,
                  attribute.slot >= 0 else {
                let property = entity.propertiesByName[name]
                let what = property is NSRelationshipDescription ? "a relationship, which a batch update cannot set"
                    : property != nil ? "not a stored attribute" : "not a property of the entity"
                throw CoreDataError.make(NSManagedObjectValidationError,
                    "The batch update's propertiesToUpdate names \(entity.name ?? "?").\(name), \(what).",
                    userInfo: [NSValidationKeyErrorKey: name])
            }
            if let expression = value as? NSExpression, expression.expressionType != .constantValue {
                assignments.append(.init(attribute: attribute, expression: expression))
            } else {
                let constant = (value as? NSExpression)?.constantValue ?? (value is NSExpression ? nil : value)
                try BatchExecution.store(constant, attribute, of: entity, into: constants, by: "batch update")
                assignments.append(.init(attribute: attribute, expression: nil))
            }
        }
        return assignments
    }

    /// The update in memory: the rows selected by fetching (on a scratch context), each
    /// expression evaluated on its object, the new rows written through the store's save
    /// (each checked against the version it was read at).
    private func updateRowByRow(_ update: StoreBatchUpdate, in store: NSPersistentStore,
                                _ coordinator: NSPersistentStoreCoordinator) throws -> StoreBatchOutcome {
        let entity = update.plan.entity
        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
        request.entity = entity
        request.predicate = update.plan.predicate
        request.includesSubentities = update.plan.includesSubentities
        request.affectedStores = [store]
        request.returnsObjectsAsFaults = false
        request.includesPendingChanges = false
        var changes = StoreChanges(origin: coordinator.requestingOrigin)
        var outcome = StoreBatchOutcome()
        let slots = update.assignments.map(\.attribute.slot)
        try BatchExecution.inScratchContext(coordinator) { scratch in
            for object in try scratch.fetch(request) {
                guard let pk = object.objectID.primaryKey, let current = try coordinator.row(for: object.objectID) else { continue }
                let row = StoreRow(entity: current.entity, pk: pk, version: current.version + 1)
                row.values.copyAll(from: current.values)
                for assignment in update.assignments {
                    if let expression = assignment.expression {
                        let value = try expression.value(with: object)
                        try BatchExecution.store(value, assignment.attribute, of: current.entity, into: row, by: "batch update")
                    } else {
                        row.values.copy(CollectionOfOne(assignment.attribute.slot), from: update.constants.values)
                    }
                }
                changes.updates.append(.init(entity: current.entity, pk: pk, values: row, changedSlots: slots,
                                             expectedVersion: current.version))
                outcome.result.append(row.key)
            }
        }
        try coordinator.apply(changes, to: store)
        outcome.changes.updated = outcome.result
        return outcome
    }
}
