import Foundation

// MARK: - Automatic lightweight migration when a store opens

extension SQLiteStoreBackend {
    /// Whether the options ask for automatic migration (`NSMigratePersistentStoresAutomaticallyOption`)
    /// and for an inferred mapping model (`NSInferMappingModelAutomaticallyOption`).
    static func migrationOptions(_ options: [AnyHashable: Any]) -> (migrate: Bool, infer: Bool) {
        func flag(_ key: String) -> Bool {
            (options[key] as? Bool) ?? (options[key] as? NSNumber)?.boolValue ?? false
        }
        return (flag(NSMigratePersistentStoresAutomaticallyOption), flag(NSInferMappingModelAutomaticallyOption))
    }

    /// Migrates the existing store at `url` to `model` when its version hashes say it
    /// was written with another model version; does nothing when they match.
    ///
    /// The source model is the matching version of the destination's bundle or of the main
    /// bundle, else the model the store caches in `Z_MODELCACHE`.
    ///
    /// - Throws: `NSMigrationMissingSourceModelError` (134130) when no model version
    ///   matches the store and it caches none, `NSMigrationMissingMappingModelError` (134140) when mapping
    ///   inference is off, `NSInferredMappingModelError` (134190) when the mapping can't
    ///   be inferred, `NSMigrationError` (134110) when the SQL fails. The store is left
    ///   untouched by every failure.
    func migrateIfNeeded(model: NSManagedObjectModel, entities: [NSEntityDescription], infer: Bool) throws {
        let stored = try Self.readMetadata(at: url, options: [NSPersistentStoreTimeoutOption: busyTimeout])
        let theirs = stored[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        guard SQLiteMetadata.versionHashes(of: entities) != theirs else { return }
        guard let sourceModel = Self.sourceModel(forStoreMetadata: stored, destination: model)
                ?? Self.cachedSourceModel(at: url, forStoreMetadata: stored) else {
            throw CoreDataError.make(
                NSMigrationMissingSourceModelError,
                "Can't find the model the store at \(url.path) was written with, to migrate it.",
                userInfo: ["metadata": stored, NSFilePathErrorKey: url.path])
        }
        guard infer else {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError,
                "Can't find a mapping model to migrate the store at \(url.path) (only inferred mapping models are supported).")
        }
        try sourceModel.freeze()
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: model)
        let migration = SQLiteLightweightMigration(
            url: url, sourceModel: sourceModel, destinationModel: model, destinationEntities: entities,
            mapping: mapping, storedMetadata: stored, busyTimeout: busyTimeout)
        do {
            try migration.run()
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && !(error is SQLiteError) {
            throw error
        } catch {
            throw CoreDataError.store(
                NSMigrationError, "The lightweight migration of the store at \(url.path) failed.",
                url: url, underlying: (error as? SQLiteError)?.nsError ?? error)
        }
    }

    /// The model version the store was written with: first among the other versions of
    /// the bundle `destination` was loaded from, then among every model version in the
    /// main bundle (``NSManagedObjectModel/mergedModel(from:forStoreMetadata:)``).
    static func sourceModel(forStoreMetadata metadata: [String: Any], destination: NSManagedObjectModel) -> NSManagedObjectModel? {
        if let bundleURL = destination.bundleURL, let bundle = try? ModelBundle.open(bundleURL) {
            for name in bundle.versionNames.reversed() {
                guard let candidate = try? bundle.model(forVersion: name) else { continue }
                if candidate.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return candidate }
            }
        }
        return NSManagedObjectModel.mergedModel(from: nil, forStoreMetadata: metadata)
    }
}
