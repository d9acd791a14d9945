import CoreData

/// How a store moves from one schema version to the next: the versions in order, oldest
/// first, and one ``MigrationStage`` per step.
///
/// ```swift
/// enum TripsMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
///     static var stages: [MigrationStage] {
///         [.custom(fromVersion: TripsV1.self, toVersion: TripsV2.self,
///                  willMigrate: { context in /* remove duplicates */ }, didMigrate: nil),
///          .lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self)]
///     }
/// }
/// let container = try ModelContainer(for: Schema(versionedSchema: TripsV3.self),
///                                    migrationPlan: TripsMigrationPlan.self,
///                                    configurations: ModelConfiguration(url: storeURL))
/// ```
///
/// When the container opens a store written with an earlier version, it finds which
/// version wrote it (by the entities' version hashes, told apart by the version
/// identifiers the store records when two versions hash alike) and runs the stages from
/// there, one after the other; a store already at the newest version is opened as it is.
public protocol SchemaMigrationPlan {
    /// The schema versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The steps between consecutive versions.
    static var stages: [MigrationStage] { get }
}

/// One step of a ``SchemaMigrationPlan``: from a schema version to the next.
///
/// A lightweight stage changes the store's tables as Core Data's inferred mapping does
/// (added and removed properties and entities, renames through `originalName:`, optional
/// to required with a default). A custom stage does the same, and also runs its closures:
/// `willMigrate` with a context over the store at the old version (to fix the data so the
/// step can run, for example by removing duplicates before a property becomes unique),
/// `didMigrate` with a context over the store at the new version. Each closure's changes
/// are saved when it returns.
public enum MigrationStage: @unchecked Sendable {
    // @unchecked Sendable: the closures are only called by the container that migrates, on
    // the thread that creates it.

    /// A step the store's tables make by themselves.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A step with code before and after the tables change.
    case custom(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
                willMigrate: ((_ context: ModelContext) throws -> Void)?,
                didMigrate: ((_ context: ModelContext) throws -> Void)?)

    /// The version the stage starts from.
    var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from
        }
    }

    /// The version the stage ends at.
    var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): to
        }
    }
}
