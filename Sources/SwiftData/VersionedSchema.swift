import CoreData

/// One version of an app's schema: its model classes and the version that names it, the
/// unit a ``SchemaMigrationPlan`` migrates between.
///
/// Each version usually nests its own copies of the model classes, so that old and new
/// versions of a class exist side by side:
///
/// ```swift
/// enum TripsV1: VersionedSchema {
///     static let versionIdentifier = Schema.Version(1, 0, 0)
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///
///     @Model final class Trip {
///         var name: String
///         init(name: String) { self.name = name }
///     }
/// }
/// ```
///
/// A class's entity name is its own name without the enclosing types (`Trip` above), as on
/// Apple's systems, so every version's `Trip` maps to the store's `Trip` entity.
public protocol VersionedSchema {
    /// The model classes of this version.
    static var models: [any PersistentModel.Type] { get }
    /// The version this schema is.
    static var versionIdentifier: Schema.Version { get }
}

extension Schema {
    /// The schema of one version: its model classes, with its version identifier.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }
}
