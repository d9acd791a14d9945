import CoreData

/// The schema and the store behind a set of model classes: the SwiftData face of an
/// `NSPersistentContainer`, whose store file Core Data code can open too.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, Stop.self,
///                                    configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
///
/// ## Topics
/// ### Creating a container
/// - ``init(for:migrationPlan:configurations:)-(any PersistentModel.Type...,_,_)``
/// - ``init(for:migrationPlan:configurations:)-(Schema,_,ModelConfiguration...)``
/// - ``init(for:migrationPlan:configurations:)-(Schema,_,[ModelConfiguration])``
/// ### Contexts
/// - ``mainContext``
/// ### Schema versions
/// - ``migrationPlan``
///
/// - Note: Apple parity: one configuration (the first) is used; several stores per
///   container are not supported yet.
public final class ModelContainer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is set in init and never changes; the
    // Core Data container and model are themselves safe to share.

    /// The container's schema.
    public let schema: Schema
    /// The configurations the container was created with.
    public let configurations: [ModelConfiguration]
    /// The plan that brought the store to ``schema`` when it was written with an earlier
    /// version, if one was given.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The Core Data stack underneath.
    let persistentContainer: NSPersistentContainer
    let typesByEntityName: [String: any PersistentModel.Type]
    private let mainContextBox: MainContextBox

    /// A container for the given model classes (and the classes they reach).
    ///
    /// - Throws: ``SwiftDataError`` for a schema that cannot be mapped; Core Data's
    ///   `NSError` when the store cannot be opened or migrated.
    public convenience init(for forTypes: any PersistentModel.Type...,
                            migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema.
    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                            configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// A container for a schema, with the configurations as an array.
    ///
    /// With a `migrationPlan`, a store on disk written with one of the plan's earlier
    /// schema versions is migrated stage by stage (see ``SchemaMigrationPlan``) before it
    /// opens; without one, a store written with another version is migrated in one
    /// lightweight step when Core Data can infer the mapping.
    ///
    /// - Throws: ``SwiftDataError`` for a schema that cannot be mapped or a plan that has no
    ///   stage from the store's version; Core Data's `NSError` when the store cannot be
    ///   opened or a stage fails (the error of a `willMigrate`/`didMigrate` closure is
    ///   rethrown as it is).
    public init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                configurations: [ModelConfiguration]) throws {
        let configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        let configuration = configurations[0]
        self.schema = givenSchema
        self.configurations = configurations
        self.migrationPlan = migrationPlan
        self.typesByEntityName = Dictionary(givenSchema.entities.map { ($0.name, $0.type) },
                                            uniquingKeysWith: { a, _ in a })
        if let migrationPlan, !configuration.isStoredInMemoryOnly {
            try SchemaMigrator(plan: migrationPlan, url: configuration.url).run()
        }
        let model = try givenSchema.makeManagedObjectModel()
        let container = NSPersistentContainer(name: configuration.name, managedObjectModel: model)
        let description: NSPersistentStoreDescription
        if configuration.isStoredInMemoryOnly {
            description = NSPersistentStoreDescription()
            description.type = NSInMemoryStoreType
        } else {
            try? FileManager.default.createDirectory(at: configuration.url.deletingLastPathComponent(),
                                                     withIntermediateDirectories: true)
            description = NSPersistentStoreDescription(url: configuration.url)
            // As Apple's SwiftData: every store records its history (ModelContext.fetchHistory).
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        }
        description.isReadOnly = !configuration.allowsSave
        description.shouldAddStoreAsynchronously = false
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        self.persistentContainer = container
        self.mainContextBox = MainContextBox()
    }

    /// The context bound to the main actor, created on first use; it saves automatically
    /// (``ModelContext/autosaveEnabled`` is true).
    @MainActor
    public var mainContext: ModelContext {
        if let context = mainContextBox.context { return context }
        let context = ModelContext(self, managedObjectContext: persistentContainer.viewContext)
        context.autosaveEnabled = true
        mainContextBox.context = context
        return context
    }

    /// Closes the container's stores (used between the stages of a migration, so that the
    /// next stage opens the file alone).
    func closeStores() {
        let coordinator = persistentContainer.persistentStoreCoordinator
        for store in coordinator.persistentStores { try? coordinator.remove(store) }
    }

    func entityDescription(for type: any PersistentModel.Type) -> NSEntityDescription {
        let name = Schema.entityName(of: type)
        guard let entity = persistentContainer.managedObjectModel.entitiesByName[name] else {
            fatalError("SwiftData: \(name) is not in the container's schema; add it to ModelContainer(for:)")
        }
        return entity
    }
}

/// Holds the main context once made (touched on the main actor only).
private final class MainContextBox: @unchecked Sendable {
    // @unchecked Sendable: read and written only from the main actor (`mainContext`).
    var context: ModelContext?
}
