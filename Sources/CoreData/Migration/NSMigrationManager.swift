import Foundation

/// Migrates a store to a new model version by running a mapping model over its objects:
/// the source store is read through ``sourceContext``, the objects each entity mapping's
/// policy creates are written through ``destinationContext`` into the destination store.
///
/// ```swift
/// let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
/// try manager.migrateStore(from: oldURL, type: .sqlite, mapping: mapping,
///                          to: newURL, type: .sqlite)
/// ```
///
/// The source store is opened read-only and is never changed; a migration that fails
/// leaves no destination store behind when there was none before.
///
/// - Note: Apple parity: the migration runs on the calling thread; `migrationProgress`
///   is read, not observed with key-value observing (Linux has none).
///
/// ## Topics
/// - ``init(sourceModel:destinationModel:)``
/// - ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``
/// - ``migrateStore(from:type:options:mapping:to:type:options:)``
/// - ``sourceInstances(forEntityMappingName:destinationInstances:)``
/// - ``destinationInstances(forEntityMappingName:sourceInstances:)``
/// - ``associate(sourceInstance:withDestinationInstance:for:)``
/// - ``cancelMigrationWithError(_:)``
open class NSMigrationManager: NSObject {

    /// The model of the stores this manager migrates from.
    open private(set) var sourceModel: NSManagedObjectModel
    /// The model of the stores this manager migrates to.
    open private(set) var destinationModel: NSManagedObjectModel
    /// The mapping model of the current (or last) migration.
    open private(set) var mappingModel = NSMappingModel()
    /// The context that reads the source store during a migration.
    open private(set) var sourceContext: NSManagedObjectContext
    /// The context the destination objects are created in during a migration.
    open private(set) var destinationContext: NSManagedObjectContext
    /// The entity mapping being run.
    open private(set) var currentEntityMapping = NSEntityMapping()
    /// How much of the migration is done, from 0 to 1.
    open private(set) var migrationProgress: Float = 0
    /// Your own information, for policies to share.
    open var userInfo: [AnyHashable: Any]?
    /// Whether a store type's own migration manager may do the work.
    ///
    /// - Note: Apple parity: kept for source compatibility; every store type is migrated
    ///   by this manager's object-by-object migration.
    open var usesStoreSpecificMigrationManager = false

    /// The source and destination objects each entity mapping associated.
    private var associations: [String: Association] = [:]
    /// The error ``cancelMigrationWithError(_:)`` was given.
    private var cancellation: Error?
    private var policies: [String: NSEntityMigrationPolicy] = [:]

    /// A manager migrating stores of `sourceModel` to `destinationModel`.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        sourceContext = Self.makeContext()
        destinationContext = Self.makeContext()
        super.init()
    }

    /// A context used from the migrating thread only (Apple's manager has no queue either).
    private static func makeContext() -> NSManagedObjectContext {
        NSManagedObjectContext(concurrencyType: NSManagedObjectContextConcurrencyType(rawValue: 0)!)
    }

    // MARK: - Associations

    private struct Association {
        var pairs: [(source: NSManagedObject, destination: NSManagedObject)] = []
        var destinationsBySource: [ObjectIdentifier: [NSManagedObject]] = [:]
        var sourcesByDestination: [ObjectIdentifier: [NSManagedObject]] = [:]
        var destinations: [NSManagedObject] = []
    }

    /// Records that `destinationInstance` was made from `sourceInstance` by `entityMapping`,
    /// for ``destinationInstances(forEntityMappingName:sourceInstances:)``, the relationship
    /// stage and value expressions.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                        for entityMapping: NSEntityMapping) {
        let name = entityMapping.name ?? ""
        var association = associations[name] ?? Association()
        association.pairs.append((sourceInstance, destinationInstance))
        association.destinationsBySource[ObjectIdentifier(sourceInstance), default: []].append(destinationInstance)
        if association.sourcesByDestination[ObjectIdentifier(destinationInstance)] == nil {
            association.destinations.append(destinationInstance)
        }
        association.sourcesByDestination[ObjectIdentifier(destinationInstance), default: []].append(sourceInstance)
        associations[name] = association
    }

    /// The destination objects the mapping named `mappingName` made from `sourceInstances`
    /// (from every source object for nil), in creation order.
    open func destinationInstances(forEntityMappingName mappingName: String,
                                   sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let association = associations[mappingName] else { return [] }
        guard let sourceInstances else { return association.destinations }
        return sourceInstances.flatMap { association.destinationsBySource[ObjectIdentifier($0)] ?? [] }
    }

    /// The source objects the mapping named `mappingName` made `destinationInstances`
    /// from (every source object it read for nil).
    open func sourceInstances(forEntityMappingName mappingName: String,
                              destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let association = associations[mappingName] else { return [] }
        guard let destinationInstances else {
            var seen = Set<ObjectIdentifier>()
            return association.pairs.map(\.source).filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        return destinationInstances.flatMap { association.sourcesByDestination[ObjectIdentifier($0)] ?? [] }
    }

    /// The source model's entity `mEntity` reads; nil for an add mapping.
    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity `mEntity` writes; nil for a remove mapping.
    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    /// Forgets the associations of the last migration and empties both contexts.
    open func reset() {
        associations = [:]
        policies = [:]
        sourceContext.reset()
        destinationContext.reset()
    }

    /// Stops the migration in progress as soon as the policy method running returns: the
    /// migration then throws `error`.
    open func cancelMigrationWithError(_ error: any Error) {
        cancellation = error
    }

    // MARK: - Migrating

    /// Migrates the store at `sourceURL` (of `sStoreType`, written with ``sourceModel``) into
    /// the store at `dURL` (of `dStoreType`, ``destinationModel``), with `mappings`.
    ///
    /// With a nil mapping model, one is looked for in the main bundle, else inferred.
    ///
    /// - Throws: `NSMigrationMissingMappingModelError` (134140) when the mapping model does
    ///   not fit the two models; `NSMigrationManagerSourceStoreError` (134150) when the
    ///   source store cannot be opened with the source model;
    ///   `NSMigrationManagerDestinationStoreError` (134160) when the destination cannot be
    ///   opened; `NSEntityMigrationPolicyError` (134170) when a policy class is missing;
    ///   the error of a policy that throws or of ``cancelMigrationWithError(_:)``;
    ///   validation errors of the destination objects.
    open func migrateStore(
        from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]? = nil,
        with mappings: NSMappingModel?, toDestinationURL dURL: URL, destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]? = nil
    ) throws {
        let mapping = try mappings
            ?? NSMappingModel(from: nil, forSourceModel: sourceModel, destinationModel: destinationModel)
            ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        try run(MigrationRun(sourceURL: sourceURL, sourceType: sStoreType, sourceOptions: sOptions,
                             mapping: mapping, destinationURL: dURL, destinationType: dStoreType,
                             destinationOptions: dOptions))
    }

    /// The `NSPersistentStore.StoreType` spelling of
    /// ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``.
    open func migrateStore(
        from sourceURL: URL, type sourceType: NSPersistentStore.StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
        mapping: NSMappingModel, to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        try migrateStore(from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
                         toDestinationURL: destinationURL, destinationType: destinationType.rawValue,
                         destinationOptions: destinationOptions)
    }

    struct MigrationRun {
        let sourceURL: URL
        let sourceType: String
        let sourceOptions: [AnyHashable: Any]?
        let mapping: NSMappingModel
        let destinationURL: URL
        let destinationType: String
        let destinationOptions: [AnyHashable: Any]?
    }

    private func run(_ run: MigrationRun) throws {
        reset()
        cancellation = nil
        migrationProgress = 0
        mappingModel = run.mapping
        if let reason = run.mapping.mismatch(source: sourceModel, destination: destinationModel) {
            throw CoreDataError.make(NSMigrationMissingMappingModelError,
                                     "The mapping model does not fit the migration's models: \(reason).")
        }
        for entityMapping in run.mapping.entityMappings ?? [] {
            policies[entityMapping.name ?? ""] = try makePolicy(for: entityMapping)
        }
        let destinationExisted = FileManager.default.fileExists(atPath: run.destinationURL.path)
        let (source, destination) = try openStores(run)
        var succeeded = false
        defer {
            reset()
            try? source.coordinator.remove(source.store)
            try? destination.coordinator.remove(destination.store)
            sourceContext.persistentStoreCoordinator = nil
            destinationContext.persistentStoreCoordinator = nil
            if !succeeded, !destinationExisted, run.destinationType == NSSQLiteStoreType {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: run.destinationURL.path + suffix)
                }
            }
        }
        try runStages(run.mapping.entityMappings ?? [])
        migrationProgress = 1
        succeeded = true
    }

    /// The stores, opened: the source read-only, the destination created if needed.
    private func openStores(_ run: MigrationRun) throws
        -> (source: (coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore),
            destination: (coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore)) {
        var sourceOptions = run.sourceOptions ?? [:]
        sourceOptions[NSReadOnlyPersistentStoreOption] = true
        sourceOptions[NSMigratePersistentStoresAutomaticallyOption] = false
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        let sourceStore: NSPersistentStore
        do {
            sourceStore = try sourceCoordinator.addPersistentStore(
                ofType: run.sourceType, configurationName: nil, at: run.sourceURL, options: sourceOptions)
        } catch {
            throw CoreDataError.store(NSMigrationManagerSourceStoreError,
                                      "The source store cannot be opened with the source model.",
                                      url: run.sourceURL, underlying: error)
        }
        var destinationOptions = run.destinationOptions ?? [:]
        destinationOptions[NSMigratePersistentStoresAutomaticallyOption] = false
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        let destinationStore: NSPersistentStore
        do {
            destinationStore = try destinationCoordinator.addPersistentStore(
                ofType: run.destinationType, configurationName: nil, at: run.destinationURL, options: destinationOptions)
        } catch {
            try? sourceCoordinator.remove(sourceStore)
            throw CoreDataError.store(NSMigrationManagerDestinationStoreError,
                                      "The destination store cannot be opened with the destination model.",
                                      url: run.destinationURL, underlying: error)
        }
        sourceContext.persistentStoreCoordinator = sourceCoordinator
        destinationContext.persistentStoreCoordinator = destinationCoordinator
        return ((sourceCoordinator, sourceStore), (destinationCoordinator, destinationStore))
    }

    /// The policy of an entity mapping: an instance of its named class, else the default.
    private func makePolicy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let name = mapping.entityMigrationPolicyClassName, !name.isEmpty else { return NSEntityMigrationPolicy() }
        guard let found = policyClassCandidates(name).lazy.compactMap(NSClassFromString).first else {
            throw CoreDataError.make(
                NSEntityMigrationPolicyError,
                "The migration policy class \(name) of the entity mapping \(mapping.name ?? "?") cannot be found "
                    + "(tried \(policyClassCandidates(name).joined(separator: ", ")); name a Swift class with its module, "
                    + "\"MyApp.MyPolicy\").",
                userInfo: ["entityMapping": mapping.name ?? "", "className": name])
        }
        guard let policyClass = found as? NSEntityMigrationPolicy.Type else {
            throw CoreDataError.make(
                NSEntityMigrationPolicyError,
                "The migration policy class \(name) of the entity mapping \(mapping.name ?? "?") is not an NSEntityMigrationPolicy.",
                userInfo: ["entityMapping": mapping.name ?? "", "className": name])
        }
        return policyClass.init()
    }

    /// The names a policy class is looked up by: the name as written; and, for a name
    /// without a module (`NotePolicy`, `.NotePolicy`, `$(PRODUCT_MODULE_NAME).NotePolicy`,
    /// as Apple apps write for `@objc(NotePolicy)` classes or the current module), the name
    /// in each module the two models' entity classes live in, then in the main executable's.
    func policyClassCandidates(_ written: String) -> [String] {
        var bare = written
        for prefix in ["$(PRODUCT_MODULE_NAME).", "."] where bare.hasPrefix(prefix) {
            bare = String(bare.dropFirst(prefix.count))
        }
        guard !bare.contains(".") else { return [written] }
        var modules: [String] = []
        for entity in sourceModel.entities + destinationModel.entities {
            let className = entity.managedObjectClassName ?? ""
            if let dot = className.firstIndex(of: "."), dot != className.startIndex {
                let module = String(className[..<dot])
                if !modules.contains(module) { modules.append(module) }
            }
        }
        if let executable = Bundle.main.executableURL?.deletingPathExtension().lastPathComponent,
           !executable.isEmpty, !modules.contains(executable) {
            modules.append(executable)
        }
        return [bare] + modules.map { "\($0).\(bare)" }
    }

    /// The three stages, in Apple's order.
    private func runStages(_ mappings: [NSEntityMapping]) throws {
        let steps = Float(max(1, mappings.count * 3))
        var done: Float = 0
        func step() { done += 1; migrationProgress = min(done / steps, 0.99) }
        // 1. Objects.
        for mapping in mappings {
            let policy = try self.policy(for: mapping)
            currentEntityMapping = mapping
            try policy.begin(mapping, with: self)
            try checkCancellation()
            if mapping.mappingType != .removeEntityMappingType, let expression = mapping.sourceExpression {
                let found = try evaluate(expression, source: nil, destination: nil, mapping: mapping,
                                         propertyMapping: nil, policy: policy)
                for source in Self.objects(in: found) {
                    try policy.createDestinationInstances(forSource: source, in: mapping, manager: self)
                    try checkCancellation()
                }
            }
            try policy.endInstanceCreation(forMapping: mapping, manager: self)
            try checkCancellation()
            step()
        }
        // 2. Relationships.
        for mapping in mappings {
            let policy = try self.policy(for: mapping)
            currentEntityMapping = mapping
            for destination in destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: nil) {
                try policy.createRelationships(forDestination: destination, in: mapping, manager: self)
                try checkCancellation()
            }
            try policy.endRelationshipCreation(forMapping: mapping, manager: self)
            try checkCancellation()
            step()
        }
        // 3. Validation, saving, end.
        for mapping in mappings {
            currentEntityMapping = mapping
            try self.policy(for: mapping).performCustomValidation(forMapping: mapping, manager: self)
            try checkCancellation()
        }
        try destinationContext.save()
        for mapping in mappings {
            currentEntityMapping = mapping
            try self.policy(for: mapping).end(mapping, manager: self)
            try checkCancellation()
            step()
        }
        if destinationContext.hasChanges { try destinationContext.save() }
    }

    private func policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        if let policy = policies[mapping.name ?? ""] { return policy }
        let policy = try makePolicy(for: mapping)
        policies[mapping.name ?? ""] = policy
        return policy
    }

    private func checkCancellation() throws {
        if let cancellation { throw cancellation }
    }

    // MARK: - Expressions

    /// The value of one of a mapping's expressions, with the migration's variables bound.
    func evaluate(_ expression: NSExpression, source: NSManagedObject?, destination: NSManagedObject?,
                  mapping: NSEntityMapping, propertyMapping: NSPropertyMapping?,
                  policy: NSEntityMigrationPolicy) throws -> Any? {
        var variables: [String: Any] = [
            NSMigrationManagerKey: self, NSMigrationEntityMappingKey: mapping, NSMigrationEntityPolicyKey: policy,
        ]
        if let source { variables[NSMigrationSourceObjectKey] = source }
        if let destination { variables[NSMigrationDestinationObjectKey] = destination }
        if let propertyMapping { variables[NSMigrationPropertyMappingKey] = propertyMapping }
        return try expression.value(with: source, variables: variables)
    }

    /// The managed objects of an expression's value (one object, or any collection,
    /// including the unordered values a key path through a to-many relationship reads).
    static func objects(in value: Any?) -> [NSManagedObject] {
        if let object = PredicateValue.unwrap(value) as? NSManagedObject { return [object] }
        return (PredicateValue.collectionElements(value) ?? []).compactMap { PredicateValue.unwrap($0) as? NSManagedObject }
    }
}
