import Foundation

/// A stage between two model versions with your code around the lightweight migration
/// that joins them: ``willMigrateHandler`` runs on the store opened with ``currentModel``,
/// ``didMigrateHandler`` on the store opened with ``nextModel``.
///
/// Both handlers reach the store through the manager's
/// ``NSStagedMigrationManager/container``, loaded with the stage's model at that moment.
///
/// ```swift
/// let split = NSCustomMigrationStage(migratingFrom: v2Reference, to: v3Reference)
/// split.willMigrateHandler = { manager, stage in
///     guard let container = manager.container else { return }
///     let context = container.newBackgroundContext()
///     try context.performAndWait {
///         // read and change objects of version 2
///         try context.save()
///     }
/// }
/// ```
///
/// ## Topics
/// - ``init(migratingFrom:to:)``
/// - ``currentModel``
/// - ``nextModel``
/// - ``willMigrateHandler``
/// - ``didMigrateHandler``
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    // @unchecked Sendable: configured before the manager is handed to a store, then only
    // read by the thread that adds the store (see NSMigrationStage).

    /// The model version the stage starts from.
    open private(set) var currentModel: NSManagedObjectModelReference
    /// The model version the stage ends at.
    open private(set) var nextModel: NSManagedObjectModelReference
    /// Called before the migration, with the store loaded in the manager's container with
    /// ``currentModel``. An error it throws stops the migration, store left at ``currentModel``.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Called after the migration, with the store loaded in the manager's container with
    /// ``nextModel``. An error it throws stops the migration, store left at ``nextModel``.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// A stage from the model `currentModel` names to the one `nextModel` names.
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
