import Foundation

// MARK: - Executing batch requests

/// A request that `NSManagedObjectContext.execute(_:)` runs against the stores, bypassing
/// the context's objects: the three batch requests.
protocol BatchRequestExecuting {
    func executeBatch(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}

/// What the three batch requests share when they run.
enum BatchExecution {
    /// The coordinator at the root of `context`'s chain.
    static func coordinator(of context: NSManagedObjectContext) throws -> NSPersistentStoreCoordinator {
        guard let coordinator = context.persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The context has no persistent store coordinator.")
        }
        return coordinator
    }

    /// The request's entity as the coordinator's model has it.
    static func entity(_ given: NSEntityDescription?, named name: String?, in coordinator: NSPersistentStoreCoordinator,
                       request: String) throws -> NSEntityDescription {
        let model = coordinator.managedObjectModel
        if let given, given.managedObjectModel === model { return given }
        let name = given?.name ?? name ?? ""
        guard let entity = model.entitiesByName[name] else {
            throw CoreDataError.make(NSCoreDataError,
                "The \(request) names the entity \(name.isEmpty ? "(none)" : name), which is not in the model (entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).")
        }
        return entity
    }

    /// The stores holding `entity` that can run batch requests: SQLite stores run them in
    /// SQL, in-memory and PostgreSQL stores row by row (a PostgreSQL store writes the rows in
    /// one transaction that checks `Z_OPT`, as a save does).
    static func stores(for entity: NSEntityDescription, among affected: [NSPersistentStore]?,
                       in coordinator: NSPersistentStoreCoordinator) throws -> [NSPersistentStore] {
        let stores = try coordinator.stores(for: entity, among: affected)
        for store in stores where !(store.backend is BatchStoreBackend)
            && store.type != NSInMemoryStoreType && store.type != NSPostgreSQLStoreType {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "A store of type \(store.type) cannot run batch requests (SQLite, in-memory and PostgreSQL stores can).")
        }
        return stores
    }

    /// The object IDs of store keys.
    static func objectIDs(_ keys: [StoreKey], in store: NSPersistentStore,
                          model: NSManagedObjectModel) -> [NSManagedObjectID] {
        keys.compactMap { key in
            model.entity(forID: key.entityID).map { NSManagedObjectID(entity: $0, store: store, reference: .permanent(key.pk)) }
        }
    }

    /// Runs `body`, turning a row that changed under a row-by-row batch (another writer
    /// saved it meanwhile) into `NSManagedObjectMergeError`.
    static func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let conflict as StoreConflict {
            let rows = conflict.rows.map { "\($0.entity.name ?? "?") p\($0.pk)" }.joined(separator: ", ")
            throw CoreDataError.make(NSManagedObjectMergeError,
                "The batch request found \(rows) changed by another writer; nothing was written.")
        }
    }

    /// Runs `body` on a scratch context of the coordinator (no pending changes, no objects
    /// of the requesting context), on its queue: the path of batch requests whose rows are
    /// selected in memory.
    static func inScratchContext<T>(_ coordinator: NSPersistentStoreCoordinator,
                                    _ body: (NSManagedObjectContext) throws -> T) throws -> T {
        let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        scratch.persistentStoreCoordinator = coordinator
        return try scratch.performAndWait { try body(scratch) }
    }

    /// Writes a value for `attribute` into a row, as a store row holds it: nil (or `NSNull`)
    /// for an optional attribute only, a transformable value through its transformer, any
    /// other value only when it fits the attribute's type.
    ///
    /// - Throws: `NSValidationMissingMandatoryPropertyError` for nil in a mandatory
    ///   attribute; `NSManagedObjectValidationError` for a value of the wrong type. Both
    ///   carry the attribute's name under `NSValidationKeyErrorKey`.
    static func store(_ value: Any?, _ attribute: NSAttributeDescription, of entity: NSEntityDescription,
                      into row: StoreRow, by request: String) throws {
        let slot = attribute.slot
        guard let value = NSAttributeDescription.unwrap(value) else {
            if !attribute.isOptional {
                throw CoreDataError.make(NSValidationMissingMandatoryPropertyError,
                    "The \(request) leaves the mandatory attribute \(entity.name ?? "?").\(attribute.name) without a value.",
                    userInfo: [NSValidationKeyErrorKey: attribute.name])
            }
            row.values.setNull(at: slot)
            return
        }
        let fits: Bool
        switch attribute.attributeType {
        case .transformableAttributeType:
            let data = Transformer.encode(value, for: attribute)
            fits = data.map { row.values.setData($0, at: slot) } ?? false
        case .objectIDAttributeType, .undefinedAttributeType, .compositeAttributeType:
            fits = false
        default:
            fits = attribute.store(value, into: row.values, slot: slot)
        }
        guard fits else {
            throw CoreDataError.make(NSManagedObjectValidationError,
                "The \(request) gives \(entity.name ?? "?").\(attribute.name) (of type \(attribute.attributeType)) the value \(value) of type \(type(of: value)).",
                userInfo: [NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value])
        }
    }
}

extension NSManagedObjectContext {
    /// Runs a batch request (``NSBatchInsertRequest``, ``NSBatchUpdateRequest``,
    /// ``NSBatchDeleteRequest``) against the stores.
    func executeBatchRequest(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult? {
        guard let batch = request as? BatchRequestExecuting else { return nil }
        // The coordinator serves this context: persistent history records its author.
        guard let coordinator = persistentStoreCoordinator, parentContext == nil else {
            return try batch.executeBatch(in: self)
        }
        return try coordinator.serving(self) { try batch.executeBatch(in: self) }
    }
}

extension NSManagedObjectContext: HistoryAuthoring {
    /// Who persistent history says wrote this context's saves and batch requests.
    var historyOrigin: HistoryOrigin { HistoryOrigin(author: transactionAuthor, contextName: name) }
}
