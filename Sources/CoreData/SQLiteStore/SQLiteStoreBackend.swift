import Foundation
internal import CCoreDataSQLite

/// The SQLite store (`NSSQLiteStoreType`), reading and writing Core Data's own file
/// format: stores written by Apple's Core Data open here, and ours open there
/// (<doc:StoreFormat>).
///
/// A new store gets `auto_vacuum` = incremental, 4096-byte pages, WAL and
/// `synchronous = NORMAL`, and its whole schema in one transaction. An existing store is
/// checked (readable, not locked, same model version hashes, every table and column
/// present) before anything is written to it; every failure leaves the file as it was.
///
/// Statements are prepared once and cached by SQL; each save is one transaction that
/// checks `Z_OPT` (optimistic locking) on every updated and deleted row.
///
/// ## Topics
/// ### Opening
/// - ``load(model:entities:)``
/// ### Reading
/// - ``fetch(_:)``
/// - ``row(entity:pk:)``
/// - ``relatedKeys(relationship:pk:)``
/// ### Writing
/// - ``allocateKeys(entity:count:)``
/// - ``save(_:)``
/// ### Files
/// - ``readMetadata(at:)``
/// - ``emptyStore(at:)``
/// - ``destroyFiles(at:)``
/// - ``copyStore(from:to:)``
final class SQLiteStoreBackend: SQLStoreCore {
    typealias Connection = SQLiteConnection

    let storeType = NSSQLiteStoreType
    let dialect = SQLDialect.sqlite
    var metadata: [String: Any] = [:]
    let url: URL
    /// `NSReadOnlyPersistentStoreOption`, or forced on when the store holds history but was
    /// opened without tracking it (``forcedReadOnlyByHistory``).
    var isReadOnly: Bool
    /// Set when ``isReadOnly`` was forced on by untracked history (SQLiteStoreBackend+History.swift).
    var forcedReadOnlyByHistory = false
    /// `NSPersistentHistoryTrackingKey`: each save records a history transaction
    /// (SQLiteStoreBackend+History.swift).
    let tracksHistory: Bool
    /// How long a statement waits for another connection's lock
    /// (`NSPersistentStoreTimeoutOption`, seconds).
    let busyTimeout: TimeInterval
    /// `NSSQLitePragmasOption`: extra PRAGMAs run when the store opens.
    let pragmas: [String: String]
    /// `NSMigratePersistentStoresAutomaticallyOption` and `NSInferMappingModelAutomaticallyOption`.
    let migration: (migrate: Bool, infer: Bool)
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey`: a lightweight migration
    /// leaves its index building for `finishDeferredLightweightMigration()`.
    let defersMigrationWork: Bool
    /// Runs a migration with a mapping model (an `NSMigrationManager`, set by the
    /// coordinator that adds the store; nil leaves only lightweight migration).
    var mappingMigration: MappingMigration?
    /// External data files written by the running save (removed if it fails).
    var externalFilesWritten: [String] = []
    /// External data files whose values the running save replaces or deletes (removed when
    /// it commits).
    var externalFilesReplaced: [String] = []

    var connection: SQLiteConnection?
    var schema = SQLiteSchema()
    /// Per `Z_ENT`: how to read and write rows of that concrete entity.
    var plans: [Int: EntityPlan] = [:]
    /// Per inheritance root: the join-table columns whose rows go with a deleted row.
    var joinColumnsBySourceRoot: [ObjectIdentifier: [(table: String, column: String)]] = [:]
    /// Per table index: `SELECT Z_PK, Z_ENT, Z_OPT, <columns> FROM <table>`.
    var selectPrefixes: [String] = []
    /// Per one-to-many relationship: its destination table and the SELECT of its members'
    /// rows by the source's key (what its fault runs), built once instead of per fault.
    var memberSelects: [ObjectIdentifier: (table: Int, sql: String)] = [:]
    /// The metadata as last written to `Z_METADATA` (to write it only when it changed).
    var storedMetadata: NSDictionary = [:]
    /// INSERT and UPDATE statements' SQL by entity and written fields, built once
    /// (SQLiteStoreBackend+Save.swift).
    var writeSQL: [WriteSQLKey: String] = [:]
    /// Reports commits by any connection, for remote change notifications
    /// (SQLiteStoreBackend+Watching.swift); nil unless asked for.
    var commitWatcher: SQLiteCommitWatcher?
    /// For a snapshot reader (SQLiteStoreBackend+Snapshots.swift): the store's own backend.
    weak var snapshotSource: SQLiteStoreBackend?
    /// Compiled SELECTs by shape (nil: a shape whose SQL must be compiled every time);
    /// see ``SelectShape``. Shared with the store's readers.
    var selectCache = SelectCache()
    /// Each table's full select list (`t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.Z…`), by table index.
    var fetchColumnLists: [String] = []
    /// Read-only connections for reads outside the coordinator's lock
    /// (SQLiteStoreBackend+Readers.swift).
    var readerPool = ReaderPool()

    /// How one slot of a concrete entity maps to its table (shared with the PostgreSQL store).
    typealias Field = SQLField
    /// How the rows of one concrete entity are read and written (shared with the PostgreSQL store).
    typealias EntityPlan = SQLEntityPlan

    init(url: URL, options: [AnyHashable: Any]) {
        self.url = url
        self.isReadOnly = (options[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        self.tracksHistory = (options[NSPersistentHistoryTrackingKey] as? NSNumber)?.boolValue
            ?? (options[NSPersistentHistoryTrackingKey] as? Bool) ?? false
        self.busyTimeout = Self.busyTimeout(options)
        var pragmas: [String: String] = [:]
        for (key, value) in (options[NSSQLitePragmasOption] as? [String: Any]) ?? [:] {
            pragmas[key] = "\(value)"
        }
        self.pragmas = pragmas
        self.migration = Self.migrationOptions(options)
        let deferred = options[NSPersistentStoreDeferredLightweightMigrationOptionKey]
        self.defersMigrationWork = (deferred as? NSNumber)?.boolValue ?? (deferred as? Bool) ?? false
    }

    deinit { close() }

    /// Seconds a statement waits for another connection's lock: `NSPersistentStoreTimeoutOption`
    /// (a number), else 240, the default `NSPersistentStoreDescription.timeout` reports.
    static func busyTimeout(_ options: [AnyHashable: Any]?) -> TimeInterval {
        let value = options?[NSPersistentStoreTimeoutOption]
        let seconds = (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? (value as? Int).map(Double.init)
        guard let seconds, seconds.isFinite, seconds >= 0 else { return defaultBusyTimeout }
        return seconds
    }

    /// Apple's default store timeout, in seconds.
    static let defaultBusyTimeout: TimeInterval = 240

    func close() {
        commitWatcher?.cancel()
        commitWatcher = nil
        // The readers first: the last connection to close checkpoints the WAL, and only
        // the writer can.
        closeReaders()
        connection = nil
    }

    func requireConnection() throws -> SQLiteConnection {
        guard let connection else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The SQLite store at \(url.path) is not open.")
        }
        return connection
    }

    // MARK: - Opening

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        if Self.isInMemoryPath(url) { return try loadInMemory(model: model, entities: entities) }
        let fileManager = FileManager.default
        let path = url.path
        let companions = Self.companionPaths(of: path)
        let existedBefore = companions.map { fileManager.fileExists(atPath: $0) }
        let size = ((try? fileManager.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        // An empty database (what destroyPersistentStore leaves) is a new store too.
        let isNew = !existedBefore[0] || size == 0 || (!isReadOnly && Self.holdsNoTables(path))
        if isNew && isReadOnly {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue,
                "There is no store to open read-only at \(path).", url: url)
        }
        if !isReadOnly { try createParentDirectory() }

        var schema = SQLiteSchema.design(entities: entities)
        var opened: SQLiteConnection?
        do {
            if !isNew && !isReadOnly && migration.migrate {
                try migrateIfNeeded(model: model, entities: entities, infer: migration.infer)
            }
            // Read-only: nothing is written in or beside the store, not even SQLite's -shm.
            let connection = isReadOnly
                ? try SQLiteConnection.openReadingOnly(path: path, busyTimeout: busyTimeout)
                : try SQLiteConnection(path: path, busyTimeout: busyTimeout)
            opened = connection
            try SQLiteFunctions.register(on: connection)
            if isNew {
                try create(schema: schema, model: model, entities: entities, on: connection)
            } else {
                try openExisting(schema: &schema, entities: entities, on: connection)
            }
        } catch {
            opened = nil
            // Put the files back as they were: remove what we created, empty what was empty.
            for (companion, existed) in zip(companions, existedBefore) where !existed {
                try? fileManager.removeItem(atPath: companion)
            }
            if existedBefore[0] && size == 0 { truncate(path, 0) }
            throw Self.openError(error, url: url)
        }
        self.connection = opened
        self.schema = schema
        buildPlans()
        try forceReadOnlyIfHistoryIsUntracked()
    }

    /// A store at `/dev/null`: a new SQLite database in memory, private to this store (two
    /// stores at `/dev/null` share nothing), gone when the store is removed.
    private func loadInMemory(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        let schema = SQLiteSchema.design(entities: entities)
        do {
            let connection = try SQLiteConnection(path: ":memory:")
            try SQLiteFunctions.register(on: connection)
            try create(schema: schema, model: model, entities: entities, on: connection)
            self.connection = connection
        } catch {
            throw Self.openError(error, url: url)
        }
        self.schema = schema
        buildPlans()
    }

    /// Whether the file at `path` is a SQLite database without any table.
    static func holdsNoTables(_ path: String) -> Bool {
        guard let connection = try? SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: 1),
              let count = try? connection.scalarString("SELECT COUNT(*) FROM sqlite_master") else { return false }
        return count == "0"
    }

    private func createParentDirectory() throws {
        let parent = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CoreDataError.store(
                    NSPersistentStoreOpenError,
                    "The store's folder \(parent.path) is not a folder.", url: url)
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw CoreDataError.store(
                NSPersistentStoreOpenError,
                "The store's folder \(parent.path) cannot be created.", url: url, underlying: error)
        }
    }

    /// Creates a new store: PRAGMAs first (`auto_vacuum` must precede every table), then
    /// all tables, indexes and bookkeeping rows in one transaction.
    private func create(
        schema: SQLiteSchema, model: NSManagedObjectModel, entities: [NSEntityDescription],
        on connection: SQLiteConnection
    ) throws {
        try connection.execute("PRAGMA auto_vacuum = 2")
        try connection.execute("PRAGMA page_size = 4096")
        try applyJournalPragmas(on: connection)
        let metadata = SQLiteMetadata.initial(model: model, entities: entities, uuid: UUID().uuidString)
        try connection.transaction {
            for sql in SQLiteMetadata.createStatements + schema.createStatements {
                try connection.execute(sql)
            }
            try SQLiteMetadata.insertPrimaryKeyRows(schema.entitiesByID, into: connection)
            try SQLiteMetadata.write(metadata, to: connection)
            try SQLiteModelCache.write(model, to: connection)
        }
        self.metadata = metadata
        storedMetadata = metadata as NSDictionary
    }

    /// Opens an existing store: reads its metadata (which also proves it is a readable,
    /// unlocked SQLite database), checks the model version hashes, then matches the
    /// schema. Nothing is written before every check passed.
    private func openExisting(
        schema: inout SQLiteSchema, entities: [NSEntityDescription], on connection: SQLiteConnection
    ) throws {
        let stored = try SQLiteMetadata.read(from: connection)
        try Self.checkVersionHashes(stored: stored, entities: entities)
        try schema.resolve(with: connection)
        let ids = try SQLiteMetadata.entityIDs(in: connection)
        let missing = schema.entitiesByID.filter { !ids.contains($0.key) }.map { $0.value.name ?? "?" }
        if !missing.isEmpty {
            throw CoreDataError.make(
                NSPersistentStoreIncompatibleSchemaError,
                "The store's Z_PRIMARYKEY has no row for \(missing.sorted().joined(separator: ", ")).")
        }
        if !isReadOnly { try applyJournalPragmas(on: connection) }
        metadata = stored
        storedMetadata = stored as NSDictionary
    }

    /// WAL and `synchronous = NORMAL`, unless `NSSQLitePragmasOption` says otherwise; then
    /// the option's other PRAGMAs.
    private func applyJournalPragmas(on connection: SQLiteConnection) throws {
        var pragmas = ["journal_mode": "WAL", "synchronous": "NORMAL"]
        for (key, value) in self.pragmas { pragmas[key.lowercased()] = value }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-."))
        for (key, value) in pragmas.sorted(by: { $0.key < $1.key }) {
            guard key.unicodeScalars.allSatisfy(allowed.contains), value.unicodeScalars.allSatisfy(allowed.contains) else {
                throw CoreDataError.make(NSPersistentStoreOpenError, "Invalid SQLite pragma \(key) = \(value).")
            }
            let statement = try connection.prepare("PRAGMA \(key) = \(value)")
            while try statement.step() {}
        }
    }

    /// Compares the store's `NSStoreModelVersionHashes` with the model's
    /// (``SQLiteMetadata/checkVersionHashes(stored:entities:)``).
    static func checkVersionHashes(stored: [String: Any], entities: [NSEntityDescription]) throws {
        try SQLiteMetadata.checkVersionHashes(stored: stored, entities: entities)
    }

    // MARK: - Row plans

    /// Builds each concrete entity's field list (``SQLEntityPlan``) and each table's SELECT list.
    private func buildPlans() {
        selectPrefixes = []
        fetchColumnLists = []
        selectCache = SelectCache()
        for t in schema.tables.indices {
            let columns = schema.selectColumns(table: t)
            fetchColumnLists.append(columns.map { "t0." + $0 }.joined(separator: ", "))
            selectPrefixes.append("SELECT \(columns.joined(separator: ", ")) FROM \(schema.tables[t].name)")
        }
        plans = SQLEntityPlan.plans(for: schema)
        joinColumnsBySourceRoot = schema.joinColumnsBySourceRoot()
        memberSelects = [:]
        for (relationship, storage) in schema.toMany {
            guard case let .children(table, foreignKey, orderColumn) = storage else { continue }
            let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
            memberSelects[relationship] = (table, selectPrefixes[table] + " WHERE \(foreignKey) = ? ORDER BY \(order)")
        }
    }

    // MARK: - The shared core's questions

    /// `The store at /path`, for messages.
    var storeName: String { "The store at \(url.path)" }

    /// The store's path and URL, for errors.
    var storeLocation: [String: Any] { [NSFilePathErrorKey: url.path, NSURLErrorKey: url] }

    func makeCompiler(_ entity: NSEntityDescription) -> SQLPredicateCompiler {
        SQLPredicateCompiler(schema: schema, entity: entity, backend: identity)
    }

    func reading<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try requireConnection()
        return try readFailure { try body(connection) }
    }

    func writeMetadata(_ metadata: [String: Any], on connection: SQLiteConnection) throws {
        try SQLiteMetadata.write(metadata, to: connection)
    }

    // MARK: - Errors

    /// The Core Data error for a failure while opening: corrupt or non-SQLite files are
    /// `NSFileReadCorruptFileError`, a lock held too long is `NSPersistentStoreTimeoutError`,
    /// anything else `NSPersistentStoreOpenError`; SQLite's error goes under
    /// `NSUnderlyingErrorKey` (domain `NSSQLiteErrorDomain`) and its code under
    /// `NSSQLiteErrorDomain`.
    static func openError(_ error: Error, url: URL) -> NSError {
        guard let sqlite = error as? SQLiteError else {
            let nsError = error as NSError
            if nsError.domain == NSCocoaErrorDomain { return CoreDataError.naming(nsError, url: url, "cannot be opened") }
            return CoreDataError.store(NSPersistentStoreOpenError, "The store at \(url.path) cannot be opened.", url: url, underlying: error)
        }
        let code: Int
        let text: String
        if sqlite.isCorrupt {
            code = CocoaError.Code.fileReadCorruptFile.rawValue
            text = "The file at \(url.path) is not a valid Core Data SQLite store."
        } else if sqlite.isBusy {
            code = NSPersistentStoreTimeoutError
            text = "The store at \(url.path) is locked by another connection."
        } else {
            code = NSPersistentStoreOpenError
            text = "The store at \(url.path) cannot be opened."
        }
        return sqliteError(code, text, sqlite, url: url)
    }

    /// A Cocoa error wrapping a SQLite failure.
    static func sqliteError(_ code: Int, _ text: String, _ sqlite: SQLiteError, url: URL) -> NSError {
        let base = CoreDataError.store(code, text, url: url, underlying: sqlite.nsError)
        var info = base.userInfo
        info[NSSQLiteErrorDomain] = Int(sqlite.resultCode)
        return NSError(domain: base.domain, code: base.code, userInfo: info)
    }

    // MARK: - Files

    /// The database and the files SQLite keeps beside it.
    static func companionPaths(of path: String) -> [String] {
        [path, path + "-wal", path + "-shm", path + "-journal"]
    }

    func truncate(_ path: String, _ size: off_t) {
        _ = Foundation.truncate(path, size)
    }
}
