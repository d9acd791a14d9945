import Foundation

/// The PostgreSQL store (``NSPostgreSQLStoreType``): Core Data's table layout in a PostgreSQL
/// database, for many processes on many machines sharing one store.
///
/// The layout is the SQLite store's (<doc:StoreFormat>), named by the same ``SQLiteSchema``:
/// `Z_PRIMARYKEY`, `Z_METADATA` (the metadata as a binary property list), one `Z<ROOT>` table per
/// inheritance root with `Z_PK`, `Z_ENT`, `Z_OPT`, join tables, indexes and uniqueness constraints
/// as unique indexes. Column types are PostgreSQL's: `BIGINT` integers and booleans,
/// `DOUBLE PRECISION` reals and dates (seconds since 2001), `NUMERIC` decimals, `TEXT COLLATE "C"`
/// strings (ordered by code point, as `compare:` orders them), `BYTEA` data and UUIDs.
///
/// Predicates and sorts go through the SQLite store's compiler in its PostgreSQL dialect
/// (``SQLDialect``); what PostgreSQL cannot evaluate as memory does (string options, pattern
/// operators, localized sorts) is evaluated in memory by the context.
///
/// Keys come from `UPDATE Z_PRIMARYKEY … RETURNING`, atomic between processes. Each save is one
/// transaction at READ COMMITTED that checks `Z_OPT` on every updated, deleted and locked row:
/// a row another process changed meanwhile is a conflict for the merge policy, as on SQLite.
///
/// ## Topics
/// ### Opening
/// - ``load(model:entities:)``
/// ### Reading
/// - ``fetch(_:)``
/// - ``row(entity:pk:)``
/// ### Writing
/// - ``allocateKeys(entity:count:)``
/// - ``save(_:)``
final class PostgreSQLStoreBackend: SQLStoreCore {
    typealias Connection = PostgreSQLConnection
    typealias Field = SQLField
    typealias EntityPlan = SQLEntityPlan

    let storeType = NSPostgreSQLStoreType
    let dialect = SQLDialect.postgreSQL
    var metadata: [String: Any] = [:]
    /// The `postgresql://` URL the store was added with (libpq's connection URI).
    let url: URL
    /// `NSReadOnlyPersistentStoreOption`, or a store holding history opened without
    /// tracking it (``forcedReadOnlyByHistory``).
    var isReadOnly: Bool
    /// `NSPersistentHistoryTrackingKey`: each save records a history transaction
    /// (PostgreSQLStoreBackend+History.swift).
    let tracksHistory: Bool
    /// Whether the store was made read-only because it holds history yet was opened
    /// without tracking it.
    var forcedReadOnlyByHistory = false
    /// Whether the history tables exist (they are made when a store tracking history opens).
    var hasHistoryTables = false
    /// How many `ZTOMBSTONE<n>` columns `ACHANGE` has.
    var historyTombstoneColumns = 0
    /// `NSPostgreSQLSerializableOption`: saves run at SERIALIZABLE.
    let isSerializable: Bool
    /// `NSMigratePersistentStoresAutomaticallyOption` and `NSInferMappingModelAutomaticallyOption`
    /// (PostgreSQLStoreBackend+Migration.swift).
    let migration: (migrate: Bool, infer: Bool)

    var connection: PostgreSQLConnection?
    /// Hears other connections' saves, for remote change notifications
    /// (PostgreSQLStoreBackend+Watching.swift); nil unless asked for.
    var listener: PostgreSQLListener?
    var schema = SQLiteSchema()
    /// Per `Z_ENT`: how to read and write rows of that concrete entity.
    var plans: [Int: EntityPlan] = [:]
    /// Per inheritance root: the join-table columns whose rows go with a deleted row.
    var joinColumnsBySourceRoot: [ObjectIdentifier: [(table: String, column: String)]] = [:]
    /// Per table index: `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<columns>`.
    var fetchColumnLists: [String] = []
    /// The metadata as last written to `Z_METADATA`.
    var storedMetadata: NSDictionary = [:]
    /// INSERT and UPDATE statements' SQL by entity and written fields, built once.
    var writeSQL: [WriteSQLKey: String] = [:]

    init(url: URL, options: [AnyHashable: Any]) {
        self.url = url
        self.isReadOnly = (options[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        self.tracksHistory = (options[NSPersistentHistoryTrackingKey] as? NSNumber)?.boolValue
            ?? (options[NSPersistentHistoryTrackingKey] as? Bool) ?? false
        self.isSerializable = (options[NSPostgreSQLSerializableOption] as? NSNumber)?.boolValue
            ?? (options[NSPostgreSQLSerializableOption] as? Bool) ?? false
        self.migration = SQLiteStoreBackend.migrationOptions(options)
    }

    /// How many times a save refused as a serialization failure or deadlock is run in all.
    static let saveAttempts = 5

    deinit { close() }

    func close() {
        listener?.cancel()
        listener = nil
        connection = nil
    }

    /// The URL without its password, for messages.
    var displayURL: String { Self.displayURL(url) }

    /// `url` without its password, for messages.
    static func displayURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        if components.password != nil { components.password = "***" }
        return components.string ?? url.absoluteString
    }

    /// The open connection; one the server dropped is connected again first (a failed
    /// reconnection throws `NSPersistentStoreOperationError`).
    func requireConnection() throws -> PostgreSQLConnection {
        guard let connection else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The PostgreSQL store at \(displayURL) is not open.")
        }
        if !connection.isHealthy && !connection.reconnect() {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The PostgreSQL server of the store at \(displayURL) cannot be reached.")
        }
        return connection
    }

    // MARK: - Opening

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        let connection: PostgreSQLConnection
        do {
            connection = try PostgreSQLConnection(connectionString: url.absoluteString)
        } catch let error as PostgreSQLError {
            throw CoreDataError.make(
                NSPersistentStoreOpenError,
                "The PostgreSQL store at \(displayURL) cannot be opened: \(error.message)",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
        }
        var schema = SQLiteSchema.design(entities: entities)
        do {
            try connection.execute("SET client_min_messages = WARNING")
            try connection.transaction {
                // One process creates a new store's tables; the others wait, then open them.
                try connection.execute("SELECT pg_advisory_xact_lock(\(Self.schemaLockKey))")
                let exists = try connection.execute(
                    "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'z_metadata'"
                ).rowCount > 0
                if exists {
                    try migrateIfNeeded(model: model, entities: entities, on: connection)
                    try openExisting(schema: &schema, entities: entities, on: connection)
                } else {
                    if isReadOnly {
                        throw CoreDataError.make(
                            CocoaError.Code.fileReadNoSuchFile.rawValue,
                            "There is no store to open read-only in the database \(displayURL).")
                    }
                    try create(schema: schema, model: model, entities: entities, on: connection)
                }
                try openHistory(entities: entities, on: connection)
            }
        } catch let error as PostgreSQLError {
            throw CoreDataError.make(
                NSPersistentStoreOpenError,
                "The PostgreSQL store at \(displayURL) cannot be opened: \(error.message)",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
        }
        self.connection = connection
        self.schema = schema
        buildPlans()
    }

    /// The advisory lock key that serialises schema creation and migration of stores in one
    /// database (`'CDPG'` as a number).
    static let schemaLockKey: Int64 = 0x4344_5047

    private func create(
        schema: SQLiteSchema, model: NSManagedObjectModel, entities: [NSEntityDescription],
        on connection: PostgreSQLConnection
    ) throws {
        for sql in Self.bookkeepingStatements + Self.createStatements(schema) {
            try connection.execute(sql)
        }
        try Self.insertPrimaryKeyRows(schema, on: connection)
        var metadata = SQLiteMetadata.initial(model: model, entities: entities, uuid: UUID().uuidString)
        metadata[NSStoreTypeKey] = NSPostgreSQLStoreType
        metadata.removeValue(forKey: "_NSAutoVacuumLevel")
        try Self.writeMetadata(metadata, on: connection)
        try PostgreSQLModelCache.write(model, on: connection)
        self.metadata = metadata
        storedMetadata = metadata as NSDictionary
    }

    /// One `Z_PRIMARYKEY` row per entity of `schema`, its `Z_MAX` 0.
    static func insertPrimaryKeyRows(_ schema: SQLiteSchema, on connection: PostgreSQLConnection) throws {
        for (id, entity) in schema.entitiesByID.sorted(by: { $0.key < $1.key }) {
            try connection.execute(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES ($1, $2, $3, 0)",
                [.integer(Int64(id)), .text(entity.name ?? ""),
                 .integer(Int64(entity.superentity?.runtime.entityID ?? 0))])
        }
    }

    private func openExisting(
        schema: inout SQLiteSchema, entities: [NSEntityDescription], on connection: PostgreSQLConnection
    ) throws {
        let stored = try Self.readMetadata(on: connection)
        try SQLiteMetadata.checkVersionHashes(stored: stored, entities: entities)
        let result = try connection.execute("SELECT Z_ENT FROM Z_PRIMARYKEY")
        let ids = Set((0..<result.rowCount).compactMap { result.int64($0, 0).map(Int.init) })
        let missing = schema.entitiesByID.filter { !ids.contains($0.key) }.map { $0.value.name ?? "?" }
        if !missing.isEmpty {
            throw CoreDataError.make(
                NSPersistentStoreIncompatibleSchemaError,
                "The store's Z_PRIMARYKEY has no row for \(missing.sorted().joined(separator: ", ")).")
        }
        metadata = stored
        storedMetadata = stored as NSDictionary
    }

    // MARK: - Schema

    static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT, Z_SUPER INTEGER, Z_MAX BIGINT)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BYTEA)",
    ]

    /// The PostgreSQL type of a column SQLite's layout declares as `declared`.
    static func columnType(_ declared: String) -> String {
        switch declared {
        case "INTEGER": "BIGINT"
        case "FLOAT", "TIMESTAMP": "DOUBLE PRECISION"
        case "DECIMAL": "NUMERIC"
        case "VARCHAR": "TEXT COLLATE \"C\""
        default: "BYTEA"
        }
    }

    /// The DDL of the entity tables, join tables and indexes of `schema`.
    static func createStatements(_ schema: SQLiteSchema) -> [String] {
        var sql: [String] = []
        for table in schema.tables {
            let columns = ["Z_PK BIGINT PRIMARY KEY", "Z_ENT INTEGER NOT NULL", "Z_OPT BIGINT NOT NULL"]
                + table.columns.map { "\($0.name) \(columnType($0.declaredType))" }
            sql.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in schema.joinTables {
            var columns = ["\(join.columnA) BIGINT NOT NULL", "\(join.columnB) BIGINT NOT NULL"]
            if let order = join.orderA { columns.append("\(order) BIGINT") }
            if let order = join.orderB { columns.append("\(order) BIGINT") }
            columns.append("PRIMARY KEY (\(join.columnA), \(join.columnB))")
            sql.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
        }
        for index in schema.indexes {
            // Text columns are declared COLLATE "C", SQLite's BINARY.
            let terms = index.terms.map { $0.replacingOccurrences(of: " COLLATE BINARY", with: "") }
            sql.append("CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(terms.joined(separator: ", ")))")
        }
        return sql
    }

    /// Builds each concrete entity's field list (``SQLEntityPlan``) and each table's select
    /// list, as the SQLite store does.
    private func buildPlans() {
        fetchColumnLists = schema.tables.indices.map { t in
            schema.selectColumns(table: t).map { "t0." + $0 }.joined(separator: ", ")
        }
        plans = SQLEntityPlan.plans(for: schema)
        joinColumnsBySourceRoot = schema.joinColumnsBySourceRoot()
    }

    // MARK: - The shared core's questions

    /// `The PostgreSQL store at postgresql://…` (without its password), for messages.
    var storeName: String { "The PostgreSQL store at \(displayURL)" }

    /// The store's URL, for errors.
    var storeLocation: [String: Any] { [NSURLErrorKey: url] }

    func makeCompiler(_ entity: NSEntityDescription) -> SQLPredicateCompiler {
        SQLPredicateCompiler(schema: schema, entity: entity, backend: self, dialect: .postgreSQL)
    }

    /// PostgreSQL keeps every binary value in its row (`BYTEA`), unmarked.
    func bindExternal(_ bytes: UnsafeRawBufferPointer, to statement: PostgreSQLStoreStatement, at index: Int32) throws {
        try statement.bindBlob(index, bytes.baseAddress, count: bytes.count)
    }

    /// Nothing to do: no binary value lives outside its row.
    func willReplaceExternalData(of fields: [SQLField], table: String, pk: Int64, on connection: PostgreSQLConnection) throws {}

    func writeMetadata(_ metadata: [String: Any], on connection: PostgreSQLConnection) throws {
        try Self.writeMetadata(metadata, on: connection)
    }

    // MARK: - Metadata

    static func readMetadata(on connection: PostgreSQLConnection) throws -> [String: Any] {
        let result = try connection.execute("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard result.rowCount > 0 else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The store has no metadata row in Z_METADATA.")
        }
        var metadata = try SQLiteMetadata.decodeRow(uuid: result.string(0, 0), plist: result.data(0, 1))
        metadata[NSStoreTypeKey] = NSPostgreSQLStoreType
        return metadata
    }

    static func writeMetadata(_ metadata: [String: Any], on connection: PostgreSQLConnection) throws {
        let row = try SQLiteMetadata.encodeRow(metadata, storeType: NSPostgreSQLStoreType)
        try connection.execute(
            "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, $1, $2) ON CONFLICT (Z_VERSION) DO UPDATE SET Z_UUID = EXCLUDED.Z_UUID, Z_PLIST = EXCLUDED.Z_PLIST",
            [row.uuid.map(PostgreSQLValue.text) ?? .null, .bytes(row.plist)])
    }

    // MARK: - Errors

    /// A Cocoa error (`code`) for a PostgreSQL failure: the server's message in the
    /// description, the PostgreSQL error under `NSUnderlyingErrorKey`.
    func storeError(_ code: Int, _ action: String, _ error: PostgreSQLError) -> NSError {
        CoreDataError.make(
            code, "\(action) the PostgreSQL store at \(displayURL) failed: \(error.message)",
            userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
    }

    /// Runs a read; a connection the server dropped is connected again and the read run once
    /// more (reads change nothing, so running one twice is harmless). PostgreSQL failures
    /// become `NSPersistentStoreOperationError`.
    func reading<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try requireConnection()
        do {
            return try body(connection)
        } catch let error as PostgreSQLError {
            if error.isConnectionFailure, !connection.inTransaction, connection.reconnect() {
                do {
                    return try body(connection)
                } catch let again as PostgreSQLError {
                    throw storeError(NSPersistentStoreOperationError, "Reading", again)
                }
            }
            throw storeError(NSPersistentStoreOperationError, "Reading", error)
        }
    }
}

// MARK: - Destroying

extension PostgreSQLStoreBackend {
    /// Drops the tables of the store at `url` that a model of `entities` lays out, and the
    /// bookkeeping tables (`destroyPersistentStore(at:type:)`); other tables of the database
    /// stay. A database without the store is left as it is.
    static func destroyStore(at url: URL, entities: [NSEntityDescription]) throws {
        let schema = SQLiteSchema.design(entities: entities)
        let names = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"] + schema.tables.map(\.name) + schema.joinTables.map(\.name)
        do {
            let connection = try PostgreSQLConnection(connectionString: url.absoluteString)
            try connection.execute("SET client_min_messages = WARNING")
            try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(\(schemaLockKey))")
                try connection.execute("DROP TABLE IF EXISTS \(names.joined(separator: ", ")) CASCADE")
            }
        } catch let error as PostgreSQLError {
            throw CoreDataError.make(
                NSPersistentStoreOperationError,
                "The PostgreSQL store at \(url.absoluteString) cannot be destroyed: \(error.message)",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
        }
    }
}
