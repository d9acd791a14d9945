import CoreData

/// Runs a ``SchemaMigrationPlan`` over a store file: finds the version that wrote the
/// store, then runs each stage from there to the plan's newest version.
///
/// A stage is three steps, each on its own container over the file, closed before the
/// next opens: `willMigrate` on a context of the old version; the table change, which is
/// Core Data's lightweight migration (the old model is the one the store caches, the
/// mapping inferred, renames through `originalName:`); `didMigrate` on a context of the new
/// version. A lightweight stage is the middle step alone.
///
/// - Note: Apple parity: Apple runs the plan through Core Data's staged migration manager;
///   this drives the same lightweight migration one stage at a time, which gives the same
///   store, stage by stage.
struct SchemaMigrator {
    let plan: any SchemaMigrationPlan.Type
    let url: URL

    func run() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let versions = plan.schemas
        guard !versions.isEmpty else { return }
        let models = try versions.map { try Schema(versionedSchema: $0).makeManagedObjectModel() }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            ofType: NSSQLiteStoreType, at: url, options: nil)
        guard var current = Self.version(of: metadata, among: versions, models: models) else {
            // Not a version of the plan: the container opens it as it would without a plan
            // (lightweight migration to the current schema, or Core Data's error).
            return
        }
        var visited: Set<Int> = []
        while current < versions.count - 1 {
            guard visited.insert(current).inserted else { break }
            let from = versions[current]
            guard let stage = plan.stages.first(where: { $0.fromVersion == from }) else {
                throw SwiftDataError(.loadIssueModelContainer,
                    "the migration plan \(plan) has no stage from version \(from.versionIdentifier) (\(from)), "
                        + "the version of the store at \(url.path)")
            }
            guard let next = versions.firstIndex(where: { $0 == stage.toVersion }), next > current else {
                throw SwiftDataError(.loadIssueModelContainer,
                    "the stage from \(from) goes to \(stage.toVersion), which is not a later version of the plan \(plan)")
            }
            try run(stage)
            try record(versions[next])
            current = next
        }
    }

    /// Index of the version that wrote the store: the versions whose models match the
    /// store's version hashes; when several do, the one the store's version identifiers
    /// name, else the oldest of them.
    static func version(of metadata: [String: Any], among versions: [any VersionedSchema.Type],
                        models: [NSManagedObjectModel]) -> Int? {
        let matching = models.indices.filter {
            models[$0].isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }
        guard matching.count > 1 else { return matching.first }
        let recorded = Set((metadata[NSStoreModelVersionIdentifiersKey] as? [Any] ?? []).map { "\($0)" })
        return matching.last { recorded.contains(versions[$0].versionIdentifier.description) } ?? matching.first
    }

    /// Writes the version a stage reached into the store's metadata, so that a stage whose
    /// versions hash alike is not run again at the next launch.
    private func record(_ version: any VersionedSchema.Type) throws {
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            ofType: NSSQLiteStoreType, at: url, options: nil)
        let identifier = version.versionIdentifier.description
        guard (metadata[NSStoreModelVersionIdentifiersKey] as? [String]) != [identifier] else { return }
        metadata[NSStoreModelVersionIdentifiersKey] = [identifier]
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
    }

    private func run(_ stage: MigrationStage) throws {
        let configuration = ModelConfiguration(url: url)
        if case .custom(let from, _, let willMigrate?, _) = stage {
            let container = try ModelContainer(for: Schema(versionedSchema: from), configurations: [configuration])
            defer { container.closeStores() }
            let context = ModelContext(container)
            try willMigrate(context)
            try context.save()
        }
        // Opening the store with the next version's schema migrates its tables.
        let container = try ModelContainer(for: Schema(versionedSchema: stage.toVersion), configurations: [configuration])
        defer { container.closeStores() }
        if case .custom(_, _, _, let didMigrate?) = stage {
            let context = ModelContext(container)
            try didMigrate(context)
            try context.save()
        }
    }
}

/// Two versioned schemas are the same version when they are the same type.
private func == (lhs: any VersionedSchema.Type, rhs: any VersionedSchema.Type) -> Bool {
    ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
}
