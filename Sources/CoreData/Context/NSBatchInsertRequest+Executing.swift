import Foundation

// MARK: - Insert

extension NSBatchInsertRequest: BatchRequestExecuting {
    func executeBatch(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        let coordinator = try BatchExecution.coordinator(of: context)
        let entity = try BatchExecution.entity(self.entity, named: entityName, in: coordinator, request: "batch insert request")
        if entity.isAbstract {
            throw CoreDataError.make(NSCoreDataError, "A batch insert cannot make objects of the abstract entity \(entity.name ?? "?").")
        }
        let stores = try BatchExecution.stores(for: entity, among: affectedStores, in: coordinator)
        guard let store = stores.first else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "No store of the coordinator holds the entity \(entity.name ?? "?").")
        }
        let insert = BatchInsertSource(self, entity: entity).operation()
        let outcome = try BatchExecution.writing {
            try coordinator.executeBatch(.insert(insert), in: store) ?? coordinator.insertRowByRow(insert, in: store)
        }
        let result: Any
        switch resultType {
        case .statusOnly: result = NSNumber(value: true)
        case .count: result = NSNumber(value: outcome.result.count)
        case .objectIDs: result = BatchExecution.objectIDs(outcome.result, in: store, model: coordinator.managedObjectModel)
        }
        return NSBatchInsertResult(result: result, resultType: resultType)
    }
}
