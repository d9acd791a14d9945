import Foundation

// MARK: - Lightweight migration when a store opens

extension PostgreSQLStoreBackend {
    /// Migrates the store to `model` (its `entities`) when `Z_METADATA`'s version hashes say
    /// it was written with another model version and the options ask for automatic
    /// migration; does nothing otherwise (a store that differs then fails to open with
    /// `NSPersistentStoreIncompatibleVersionHashError`, 134100).
    ///
    /// Runs inside the transaction that opens the store, which holds the schema advisory
    /// lock (``schemaLockKey``): of two processes opening an old store at once, the first
    /// migrates and commits, the second waits for the lock, then finds the new version
    /// hashes and opens the store as it is. PostgreSQL's DDL is transactional, so a failed
    /// migration rolls back with the transaction and leaves the old tables as they were.
    ///
    /// Each inferred step (the SQLite store's, ``SQLiteLightweightMigration/inferredSteps(from:to:entities:throughVersions:)``)
    /// moves the old tables into a schema of their own, creates the destination tables,
    /// copies the rows with the SQLite store's statements in PostgreSQL's dialect
    /// (``MigrationSQL``), and drops the old schema.
    ///
    /// - Throws: `NSMigrationMissingSourceModelError` (134130) when no model version matches
    ///   the store, `NSMigrationMissingMappingModelError` (134140) when inference is off,
    ///   `NSInferredMappingModelError` (134190) when the mapping can't be inferred,
    ///   `NSMigrationError` (134110) when the SQL fails.
    func migrateIfNeeded(model: NSManagedObjectModel, entities: [NSEntityDescription],
                         on connection: PostgreSQLConnection) throws {
        guard migration.migrate, !isReadOnly else { return }
        let stored = try Self.readMetadata(on: connection)
        let theirs = stored[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        guard SQLiteMetadata.versionHashes(of: entities) != theirs else { return }
        guard let sourceModel = SQLiteStoreBackend.sourceModel(forStoreMetadata: stored, destination: model)
                ?? cachedSourceModel(forStoreMetadata: stored, on: connection) else {
            throw CoreDataError.make(
                NSMigrationMissingSourceModelError,
                "Can't find the model the store at \(displayURL) was written with, to migrate it.",
                userInfo: ["metadata": stored, NSURLErrorKey: url])
        }
        try sourceModel.freeze()
        guard migration.infer else {
            throw CoreDataError.make(
                NSMigrationMissingMappingModelError,
                "Can't migrate the store at \(displayURL): mapping inference is off, and the PostgreSQL store "
                    + "migrates with inferred mappings only.")
        }
        let steps = try SQLiteLightweightMigration.inferredSteps(
            from: sourceModel, to: model, entities: entities, throughVersions: true)
        var metadata = stored
        do {
            for step in steps {
                metadata = try migrate(step, metadata: metadata, on: connection)
            }
        } catch let error as PostgreSQLError {
            throw CoreDataError.make(
                NSMigrationError, "The lightweight migration of the store at \(displayURL) failed: \(error.message)",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
        }
    }

    /// The model the store caches (``PostgreSQLModelCache``), when its entity hashes match
    /// `metadata`: the source of a migration when the app no longer ships the model version
    /// the store was written with, as on SQLite.
    private func cachedSourceModel(forStoreMetadata metadata: [String: Any],
                                   on connection: PostgreSQLConnection) -> NSManagedObjectModel? {
        guard let model = try? PostgreSQLModelCache.read(from: connection, url: url, displayURL: displayURL),
              model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
        return model
    }

    /// Runs one step on the open transaction; returns the metadata it wrote.
    private func migrate(_ step: SQLiteLightweightMigration.Step, metadata stored: [String: Any],
                         on connection: PostgreSQLConnection) throws -> [String: Any] {
        let source = SQLiteSchema.design(entities: step.sourceModel.entities)
        let destination = SQLiteSchema.design(entities: step.destinationEntities)
        // The old tables move aside, with their indexes and keys, under their own names.
        let aside = "cd_migration_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try connection.execute("CREATE SCHEMA \(aside)")
        for table in ["Z_PRIMARYKEY", "Z_METADATA"] + source.tables.map(\.name) + source.joinTables.map(\.name) {
            try connection.execute("ALTER TABLE \(table) SET SCHEMA \(aside)")
        }
        for sql in Self.bookkeepingStatements + Self.createStatements(destination) {
            try connection.execute(sql)
        }
        try Self.insertPrimaryKeyRows(destination, on: connection)

        var sql = MigrationSQL(source: source, destination: destination, mapping: step.mapping)
        sql.dialect = .postgreSQL
        sql.sourcePrefix = aside + "."
        sql.destinationPrefix = ""
        for statement in sql.rowCopies() + sql.joinCopies() + sql.primaryKeyMaxima() + sql.primaryKeyNames() {
            try connection.execute(statement)
        }
        try migrateHistory(sql, aside: aside, on: connection)

        var metadata = SQLiteMetadata.initial(
            model: step.destinationModel, entities: step.destinationEntities,
            uuid: stored[NSStoreUUIDKey] as? String ?? UUID().uuidString)
        for (key, value) in stored where !SQLiteLightweightMigration.frameworkKeys.contains(key) { metadata[key] = value }
        metadata[NSStoreTypeKey] = NSPostgreSQLStoreType
        metadata.removeValue(forKey: "_NSAutoVacuumLevel")
        try Self.writeMetadata(metadata, on: connection)
        try PostgreSQLModelCache.write(step.destinationModel, on: connection)
        try connection.execute("DROP SCHEMA \(aside) CASCADE")
        return metadata
    }

    /// Keeps the persistent history through a step: the history tables stay where they are,
    /// their `Z_PRIMARYKEY` rows (and so their `Z_MAX`) are carried over, and each change
    /// gets its entity's number in the destination model; changes of entities the
    /// destination no longer holds are removed, as their rows are.
    ///
    /// - Note: Apple parity: the changed-property bits of updates (`ZCOLUMNS`) and the
    ///   tombstone columns keep the source model's property order; the SQLite store
    ///   re-indexes them (``MigrationHistory``).
    private func migrateHistory(_ sql: MigrationSQL, aside: String, on connection: PostgreSQLConnection) throws {
        let numbers = HistorySchema.primaryKeyRows.map { String($0.0) }.joined(separator: ", ")
        try connection.execute(
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) "
                + "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM \(aside).Z_PRIMARYKEY WHERE Z_ENT IN (\(numbers))")
        let hasChanges = try connection.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'achange'"
        ).rowCount > 0
        guard hasChanges else { return }
        let pairs = sql.mapping.entityMappings.compactMap { mapping -> (Int, Int)? in
            guard let origin = mapping.sourceEntity, let target = mapping.destinationEntity,
                  sql.destination.entitiesByID[target.runtime.entityID] === target else { return nil }
            return (origin.runtime.entityID, target.runtime.entityID)
        }
        guard !pairs.isEmpty else {
            try connection.execute("DELETE FROM ACHANGE")
            return
        }
        let kept = pairs.map { String($0.0) }.joined(separator: ", ")
        try connection.execute("DELETE FROM ACHANGE WHERE ZENTITY NOT IN (\(kept))")
        try connection.execute(
            "UPDATE ACHANGE SET ZENTITY = CASE ZENTITY" + pairs.map { " WHEN \($0.0) THEN \($0.1)" }.joined() + " END")
    }
}
