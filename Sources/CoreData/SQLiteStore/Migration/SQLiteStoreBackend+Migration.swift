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
    /// A mapping model file that maps the store's model to `model` is used first (as
    /// Apple looks for a mapping model before inferring one); else, with `infer`, the
    /// mapping is inferred and the migration runs in SQL.
    ///
    /// - Throws: `NSMigrationMissingSourceModelError` (134130) when no model version
    ///   matches the store and it caches none, `NSMigrationMissingMappingModelError` (134140) when no
    ///   mapping model file fits and inference is off, `NSInferredMappingModelError` (134190) when the mapping can't
    ///   be inferred, `NSMigrationError` (134110) when the SQL fails. The store is left
    ///   untouched by every failure.
    func migrateIfNeeded(model: NSManagedObjectModel, entities: [NSEntityDescription], infer: Bool) throws {
        do {
            try migrateIfNeededUnexplained(model: model, entities: entities, infer: infer)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain
            && [NSMigrationMissingSourceModelError, NSMigrationMissingMappingModelError, NSInferredMappingModelError].contains(error.code) {
            // The dry run's diagnostics, under "migrationReport", as `coredata migrate --dry-run` prints them.
            guard let plan = try? MigrationDryRun(storeAt: url, model: model) else { throw error }
            var info = error.userInfo
            info["migrationReport"] = plan.report
            if info[MappingInference.problemsKey] == nil, !plan.problems.isEmpty { info[MappingInference.problemsKey] = plan.problems }
            throw NSError(domain: error.domain, code: error.code, userInfo: info)
        }
    }

    private func migrateIfNeededUnexplained(model: NSManagedObjectModel, entities: [NSEntityDescription], infer: Bool) throws {
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
        try sourceModel.freeze()
        if let runner = mappingMigration,
           let mapping = MappingModelFile.find(in: Self.mappingSearchFolders(model, sourceModel),
                                               source: sourceModel, destination: model) {
            return try migrate(with: mapping, from: sourceModel, to: model, stored: stored, runner: runner)
        }
        guard infer else {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError,
                "Can't find a mapping model to migrate the store at \(url.path): no .xcmappingmodel maps its model "
                    + "to the current one, and mapping inference is off.")
        }
        try Self.migrateInferred(storeAt: url, metadata: stored, from: sourceModel, to: model, entities: entities,
                                 busyTimeout: busyTimeout, defersIndexes: defersMigrationWork, throughVersions: true)
    }

    /// Migrates the store at `url`, whose metadata is `stored`, from `sourceModel` to
    /// `model` (its `entities`) with an inferred mapping, in SQL: one lightweight step,
    /// used by automatic migration and by each lightweight step of a staged migration.
    ///
    /// With `throughVersions`, when no mapping from `sourceModel` straight to `model` can
    /// be inferred, the versions between them in `model`'s bundle are tried as a chain
    /// (each step inferred from one version to the next), run as one migration
    /// (``versionChain(from:to:)``).
    ///
    /// - Throws: `NSInferredMappingModelError` (134190) when the mapping can't be
    ///   inferred (the direct mapping's error when the chain fails too),
    ///   `NSMigrationError` (134110) when the SQL fails; the store is untouched.
    static func migrateInferred(storeAt url: URL, metadata stored: [String: Any], from sourceModel: NSManagedObjectModel,
                                to model: NSManagedObjectModel, entities: [NSEntityDescription],
                                busyTimeout: TimeInterval, defersIndexes: Bool = false,
                                throughVersions: Bool = false) throws {
        let steps = try SQLiteLightweightMigration.inferredSteps(
            from: sourceModel, to: model, entities: entities, throughVersions: throughVersions)
        var migration = SQLiteLightweightMigration(url: url, steps: steps, storedMetadata: stored, busyTimeout: busyTimeout)
        migration.defersIndexes = defersIndexes
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

    /// The model versions from `source` to `destination` in the bundle `destination` was
    /// loaded from, both ends included and `destination` itself last: nil unless both are
    /// versions of that bundle (matched by entity version hashes) with at least one
    /// version between them, `source` first in the bundle's order.
    static func versionChain(from source: NSManagedObjectModel, to destination: NSManagedObjectModel) -> [NSManagedObjectModel]? {
        guard let bundleURL = destination.bundleURL, let bundle = try? ModelBundle.open(bundleURL) else { return nil }
        let versions = bundle.versionNames.compactMap { try? bundle.model(forVersion: $0) }
        let sourceHashes = source.entityVersionHashesByName, destinationHashes = destination.entityVersionHashesByName
        guard let start = versions.firstIndex(where: { $0.entityVersionHashesByName == sourceHashes }),
              let end = versions.lastIndex(where: { $0.entityVersionHashesByName == destinationHashes }),
              end - start >= 2 else { return nil }
        let between = Array(versions[(start + 1)..<end])
        for model in between { guard (try? model.freeze()) != nil else { return nil } }
        return [source] + between + [destination]
    }

    /// Finishes a deferred lightweight migration: creates the indexes the migration left
    /// out and removes `NSPersistentStoreDeferredLightweightMigrationOptionKey` from the
    /// metadata, in one transaction. Does nothing when no migration work is pending.
    func finishDeferredMigration() throws {
        guard (metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? NSNumber)?.boolValue == true else { return }
        let connection = try requireConnection()
        try checkWritable()
        // The indexes as a new store of these entities has them (the open store's schema
        // lists only the indexes its file holds).
        let designed = SQLiteSchema.design(entities: schema.entitiesByID.sorted { $0.key < $1.key }.map(\.value))
        try writeFailure {
            try connection.transaction {
                for statement in designed.createStatements where statement.hasPrefix("CREATE INDEX ") {
                    try connection.execute("CREATE INDEX IF NOT EXISTS " + statement.dropFirst("CREATE INDEX ".count))
                }
                metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] = nil
                try SQLiteMetadata.write(metadata, to: connection)
            }
        }
        storedMetadata = metadata as NSDictionary
    }

    /// Where mapping model files are looked for: the main bundle, and the folders that hold
    /// the two models' bundles (SwiftPM resources put them side by side).
    static func mappingSearchFolders(_ models: NSManagedObjectModel...) -> [URL] {
        var folders = [Bundle.main.resourceURL, Bundle.main.bundleURL].compactMap { $0 }
        for model in models {
            if let bundleURL = model.bundleURL { folders.append(bundleURL.deletingLastPathComponent()) }
        }
        return folders
    }

    /// Migrates the store with a mapping model: `runner` (an `NSMigrationManager`) writes
    /// the destination into a new file beside the store, which then gets the store's UUID
    /// and the app's metadata keys and replaces the store. Until that move the store's
    /// files are only read: any failure leaves them byte for byte as they were.
    ///
    /// - Throws: the migration's errors in `NSCocoaErrorDomain`'s migration range
    ///   (134110–134190) as they are; any other error as `NSMigrationError` (134110) with
    ///   the cause under `NSUnderlyingErrorKey`.
    private func migrate(with mapping: NSMappingModel, from sourceModel: NSManagedObjectModel,
                         to model: NSManagedObjectModel, stored: [String: Any], runner: MappingMigration) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).migration-\(UUID().uuidString)")
        // The migration's store writes external data files beside the temporary file.
        let temporaryFiles = ExternalDataStorage(storeURL: temporary)
        defer {
            for path in Self.companionPaths(of: temporary.path) { try? FileManager.default.removeItem(atPath: path) }
            try? FileManager.default.removeItem(at: temporaryFiles.supportFolder)
        }
        let filesBefore = SQLiteLightweightMigration.externalFiles(
            ofStoreAt: url, entities: sourceModel.entities, busyTimeout: busyTimeout)
        do {
            try runner(sourceModel, model, mapping, url, temporary, [NSPersistentStoreTimeoutOption: busyTimeout])
            let connection = try SQLiteConnection(path: temporary.path, busyTimeout: busyTimeout)
            var metadata = try SQLiteMetadata.read(from: connection)
            if let uuid = stored[NSStoreUUIDKey] { metadata[NSStoreUUIDKey] = uuid }
            for (key, value) in stored where !SQLiteLightweightMigration.frameworkKeys.contains(key) { metadata[key] = value }
            try SQLiteMetadata.write(metadata, to: connection)
            _ = try connection.scalarString("PRAGMA journal_mode = DELETE")
            // The new rows' files join the store's before the store is replaced (until
            // then the store names none of them; their names are new UUIDs).
            try temporaryFiles.moveFiles(to: externalData)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && (134110...134190).contains(error.code) {
            throw error
        } catch {
            throw CoreDataError.store(
                NSMigrationError, "The migration of the store at \(url.path) with a mapping model failed.",
                url: url, underlying: (error as? SQLiteError)?.nsError ?? error)
        }
        try SQLiteLightweightMigration.replaceStore(at: url, with: temporary, busyTimeout: busyTimeout)
        // The files only the old rows named.
        if let filesBefore, let filesAfter = SQLiteLightweightMigration.externalFiles(
            ofStoreAt: url, entities: model.entities, busyTimeout: busyTimeout) {
            externalData.remove(Array(filesBefore.subtracting(filesAfter)))
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

/// A migration with a mapping model, run by a layer above the store: (source model,
/// destination model, mapping, store URL, destination URL, store options). The
/// coordinator provides one that runs an `NSMigrationManager`.
typealias MappingMigration = (NSManagedObjectModel, NSManagedObjectModel, NSMappingModel, URL, URL,
                              [AnyHashable: Any]) throws -> Void
