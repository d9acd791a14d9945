import Foundation

/// Performs an inferred (lightweight) migration of a SQLite store, in SQL only: no
/// object is loaded.
///
/// The destination store is built in a new file beside the store (destination schema,
/// rows copied with `INSERT … SELECT` from the store attached read-only), then moved
/// over the store. Until that move, the store's files are only read: any failure leaves
/// them byte for byte as they were. A chain of model versions (``steps`` holds more than
/// one) builds one such file per step, each read by the next, and moves only the last.
///
/// Rows keep their `Z_PK` and `Z_OPT`; `Z_ENT` is renumbered for the destination
/// model; attribute columns are renamed, dropped or added with their default value;
/// to-one keys, `Z<n>_` entity columns, `Z_FOK_` ordering columns and join tables are
/// rebuilt from the source relationships (also when a relationship changed between
/// to-one and to-many); `Z_MAX` is kept per hierarchy, and `Z_NAME` keeps the name the
/// store gave a renamed entity (as Apple's migration leaves it); persistent history is
/// carried over with its entity numbers, changed-property bits and tombstones remapped;
/// the metadata gets the destination's version hashes and identifiers and keeps the store
/// UUID and the app's own keys.
struct SQLiteLightweightMigration {
    /// One migration from a model version to the next.
    struct Step {
        let sourceModel: NSManagedObjectModel
        let destinationModel: NSManagedObjectModel
        /// The destination entities the store holds (its configuration's).
        let destinationEntities: [NSEntityDescription]
        let mapping: NSMappingModel
    }

    let url: URL
    /// The steps, in order: each one's source model is the previous one's destination.
    let steps: [Step]
    let storedMetadata: [String: Any]
    /// How long to wait for another connection's lock (`NSPersistentStoreTimeoutOption`).
    let busyTimeout: TimeInterval
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey`: the secondary (non-unique)
    /// indexes are left for `finishDeferredLightweightMigration()`, and the metadata says so.
    var defersIndexes = false

    /// Metadata keys Core Data writes itself; every other key belongs to the app and is kept.
    static let frameworkKeys: Set<String> = [
        NSStoreTypeKey, NSStoreUUIDKey, "NSPersistenceFrameworkVersion", NSStoreModelVersionHashesKey,
        "NSStoreModelVersionHashesVersion", NSStoreModelVersionIdentifiersKey, "_NSAutoVacuumLevel",
        "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey",
    ]

    /// The inferred steps from `sourceModel` to `model` (its `entities`), for either engine:
    /// one step, or with `throughVersions`, when no mapping straight to `model` can be
    /// inferred, one step per version between them in `model`'s bundle
    /// (``SQLiteStoreBackend/versionChain(from:to:)``).
    ///
    /// - Throws: `NSInferredMappingModelError` (134190), the direct mapping's error, when
    ///   neither can be inferred.
    static func inferredSteps(from sourceModel: NSManagedObjectModel, to model: NSManagedObjectModel,
                              entities: [NSEntityDescription], throughVersions: Bool) throws -> [Step] {
        do {
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: model)
            return [.init(sourceModel: sourceModel, destinationModel: model, destinationEntities: entities, mapping: mapping)]
        } catch let direct {
            guard throughVersions, let chain = SQLiteStoreBackend.versionChain(from: sourceModel, to: model) else { throw direct }
            var steps: [Step] = []
            for (from, to) in zip(chain, chain.dropFirst()) {
                guard let mapping = try? NSMappingModel.inferredMappingModel(forSourceModel: from, destinationModel: to) else {
                    throw direct
                }
                steps.append(.init(sourceModel: from, destinationModel: to,
                                   destinationEntities: to === model ? entities : to.entities, mapping: mapping))
            }
            return steps
        }
    }

    func run() throws {
        let fileManager = FileManager.default
        let folder = url.deletingLastPathComponent()
        var built: [URL] = []
        defer {
            for file in built {
                for path in SQLiteStoreBackend.companionPaths(of: file.path) { try? fileManager.removeItem(atPath: path) }
            }
        }
        var input = url
        // External data files the store names before and after: those only the store
        // named are removed once the migrated store is in place.
        var filesBefore = Set<String>()
        var destinationSchema: SQLiteSchema?
        for (index, step) in steps.enumerated() {
            // The source schema, matched against the file's real columns.
            var sourceSchema = SQLiteSchema.design(entities: step.sourceModel.entities)
            do {
                let reader = try SQLiteConnection(path: input.path, readOnly: true, create: false, busyTimeout: busyTimeout)
                try sourceSchema.resolve(with: reader)
                if index == 0 { filesBefore = (try? Self.externalFiles(sourceSchema, on: reader)) ?? [] }
            }
            let output = folder.appendingPathComponent(".\(url.lastPathComponent).migration-\(UUID().uuidString)")
            built.append(output)
            let designed = SQLiteSchema.design(entities: step.destinationEntities)
            let last = index == steps.count - 1
            try build(step, at: output, reading: input, from: sourceSchema, into: designed, last: last)
            destinationSchema = designed
            // An intermediate file is read by the next step only.
            if input != url {
                for path in SQLiteStoreBackend.companionPaths(of: input.path) { try? fileManager.removeItem(atPath: path) }
            }
            input = output
        }
        var filesAfter = Set<String>()
        if !filesBefore.isEmpty, let destinationSchema {
            // Best effort: a file left behind costs space only; one removed loses data.
            guard let reader = try? SQLiteConnection(path: input.path, readOnly: true, create: false, busyTimeout: busyTimeout),
                  let names = try? Self.externalFiles(destinationSchema, on: reader) else {
                return try Self.replaceStore(at: url, with: input, busyTimeout: busyTimeout)
            }
            filesAfter = names
        }
        try Self.replaceStore(at: url, with: input, busyTimeout: busyTimeout)
        ExternalDataStorage(storeURL: url).remove(Array(filesBefore.subtracting(filesAfter)))
    }

    /// The external data files the store at `url`, holding `entities`, names; nil when
    /// they can't be read (then no file is removed).
    static func externalFiles(ofStoreAt url: URL, entities: [NSEntityDescription], busyTimeout: TimeInterval) -> Set<String>? {
        var schema = SQLiteSchema.design(entities: entities)
        guard let reader = try? SQLiteConnection(path: url.path, readOnly: true, create: false, busyTimeout: busyTimeout),
              (try? schema.resolve(with: reader)) != nil else { return nil }
        return try? externalFiles(schema, on: reader)
    }

    /// The external data files (``ExternalDataStorage``) the rows of a store with `schema`
    /// name, in its binary attributes that allow external storage.
    static func externalFiles(_ schema: SQLiteSchema, on connection: SQLiteConnection) throws -> Set<String> {
        var names = Set<String>()
        for (t, table) in schema.tables.enumerated() {
            let columns = schema.externalColumns(ofTable: t)
            guard !columns.isEmpty else { continue }
            let statement = try connection.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table.name)")
            while try statement.step() {
                for i in 0..<Int32(columns.count) {
                    if let data = statement.data(i), let name = ExternalDataStorage.referencedFile(data) { names.insert(name) }
                }
            }
        }
        return names
    }

    // MARK: - Building the destination file

    /// Builds `step`'s destination store at `temporary` from the store file `input`. Only
    /// the `last` step's file gets its secondary indexes (unless they are deferred).
    private func build(_ step: Step, at temporary: URL, reading input: URL, from source: SQLiteSchema,
                       into destination: SQLiteSchema, last: Bool) throws {
        let connection = try SQLiteConnection(path: temporary.path, busyTimeout: busyTimeout, uri: true)
        try connection.execute("PRAGMA auto_vacuum = 2")
        try connection.execute("PRAGMA page_size = 4096")
        _ = try connection.scalarString("PRAGMA journal_mode = DELETE")
        try connection.execute("ATTACH DATABASE \(Self.literal(Self.readOnlyURI(input.path))) AS src")
        var metadata = SQLiteMetadata.initial(
            model: step.destinationModel, entities: step.destinationEntities,
            uuid: storedMetadata[NSStoreUUIDKey] as? String ?? UUID().uuidString)
        for (key, value) in storedMetadata where !Self.frameworkKeys.contains(key) { metadata[key] = value }
        if defersIndexes && last { metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true }
        var sql = MigrationSQL(source: source, destination: destination, mapping: step.mapping)
        sql.externalFolder = ExternalDataStorage(storeURL: url).folder.path
        try ExternalDataStorage.registerMigrationFunctions(on: connection)
        let skipsIndexes = defersIndexes || !last
        try connection.transaction {
            for statement in SQLiteMetadata.createStatements + destination.createStatements
            where !(skipsIndexes && statement.hasPrefix("CREATE INDEX ")) {
                try connection.execute(statement)
            }
            try SQLiteMetadata.insertPrimaryKeyRows(destination.entitiesByID, into: connection)
            try SQLiteMetadata.write(metadata, to: connection)
            try SQLiteModelCache.write(step.destinationModel, to: connection)
            for statement in sql.rowCopies() + sql.joinCopies() + sql.primaryKeyMaxima() + sql.primaryKeyNames() {
                try connection.execute(statement)
            }
            try MigrationHistory(sql: sql).copy(on: connection)
        }
        try connection.execute("DETACH DATABASE src")
    }

    /// Moves the built file over the store. The store's WAL is first checkpointed into
    /// the store (its content unchanged, only where the pages live), so that no frame
    /// exists outside the main file; the empty WAL and shared-memory files are then
    /// removed (a stale WAL must never be replayed onto the new file) and the new file
    /// renamed into place, atomically. A crash at any point leaves either the old store,
    /// whole, or the new one.
    static func replaceStore(at url: URL, with temporary: URL, busyTimeout: TimeInterval) throws {
        let fileManager = FileManager.default
        let path = url.path
        do {
            if fileManager.fileExists(atPath: path + "-wal") { try Self.checkpoint(path, busyTimeout: busyTimeout) }
            try? fileManager.removeItem(atPath: path + "-wal")
            try? fileManager.removeItem(atPath: path + "-shm")
            if rename(temporary.path, path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        } catch {
            throw CoreDataError.store(
                NSMigrationManagerDestinationStoreError,
                "The migrated store could not replace the store at \(path).", url: url, underlying: error)
        }
    }

    /// Moves every WAL frame of the store at `path` into its main file (the connection
    /// and statement are closed when this returns). Fails when another connection keeps
    /// the WAL busy.
    private static func checkpoint(_ path: String, busyTimeout: TimeInterval) throws {
        let connection = try SQLiteConnection(path: path, readOnly: false, create: false, busyTimeout: busyTimeout)
        let statement = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try statement.step(), statement.int64(0) == 0 else {
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// A `file:` URI opening `path` read-only.
    static func readOnlyURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:\(escaped)?mode=ro"
    }

    /// A SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
