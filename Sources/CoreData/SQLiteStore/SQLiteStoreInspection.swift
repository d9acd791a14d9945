import Foundation

/// What a SQLite store file holds below the Core Data API, for tools that inspect stores
/// (`coredata info`, `coredata check`): its tables, its journal mode, SQLite's integrity
/// check, and `Z_PRIMARYKEY`'s counters against the primary keys in use.
///
/// The file is read as ``NSReadOnlyPersistentStoreOption`` reads it: nothing is written in
/// or beside it, and what its `-wal` holds is seen.
///
/// - Note: Apple has no such API; tools on Apple's platforms read the tables with SQLite.
@_spi(Tools) public struct SQLiteStoreInspection: Sendable {
    /// One entity's row of `Z_PRIMARYKEY` against the table that holds its objects.
    public struct PrimaryKeyCounter: Sendable, Equatable {
        /// The entity's name (`Z_NAME`).
        public var entity: String
        /// The entity's number (`Z_ENT`).
        public var entityNumber: Int
        /// The last primary key the store handed out (`Z_MAX`).
        public var counter: Int64
        /// The largest primary key in the entity's table (of it and its sub-entities), or
        /// nil when the table is missing.
        public var largestInUse: Int64?
        /// Whether the next primary key the counter gives is free: a counter below a key in
        /// use would hand out that key again.
        public var isConsistent: Bool { largestInUse.map { counter >= $0 } ?? false }
    }

    /// Every table of the file, by name.
    public var tables: [String]
    /// "wal" for a file in write-ahead-log mode (as Core Data writes stores), else "delete"
    /// (rollback journal), read from the file's header.
    public var journalMode: String
    /// Whether the store records persistent history (it has Apple's `ATRANSACTION` table).
    public var hasPersistentHistory: Bool { tables.contains("ATRANSACTION") }
    /// The number of rows of each table.
    public var rowCounts: [String: Int64]
    /// One counter per root entity (an entity without a super-entity) of `Z_PRIMARYKEY`.
    public var primaryKeyCounters: [PrimaryKeyCounter]

    /// Reads the file's tables, row counts and primary-key counters.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) for a missing file; an `NSSQLiteError`
    ///   (134180) or `NSFileReadCorruptFileError` (259) for a file SQLite cannot read.
    public init(storeAt url: URL) throws {
        self = try Self.readable(url) { try Self(reading: Self.open(url)) }
        // From the file's header: a connection that reads without writing may open a WAL
        // file as immutable, and then reports "delete".
        journalMode = SQLiteConnection.isWALModeFile(url.standardizedFileURL.path) ? "wal" : "delete"
    }

    private init(reading connection: SQLiteConnection) throws {
        tables = try Self.strings(connection, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        journalMode = ""
        var counts: [String: Int64] = [:]
        for table in tables {
            let statement = try connection.prepare("SELECT count(*) FROM \(SQLiteConnection.quote(table))")
            if try statement.step() { counts[table] = statement.int64(0) }
        }
        rowCounts = counts
        var counters: [PrimaryKeyCounter] = []
        if tables.contains("Z_PRIMARYKEY") {
            let rows = try connection.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            var roots: [(Int, String, Int64)] = []
            while try rows.step() {
                if rows.int64(2) == 0 { roots.append((Int(rows.int64(0)), rows.string(1) ?? "", rows.int64(3))) }
            }
            for (number, name, counter) in roots {
                let table = "Z" + name.uppercased()
                var largest: Int64?
                if tables.contains(table) {
                    let statement = try connection.prepare("SELECT coalesce(max(Z_PK), 0) FROM \(SQLiteConnection.quote(table))")
                    if try statement.step() { largest = statement.int64(0) }
                }
                counters.append(PrimaryKeyCounter(entity: name, entityNumber: number, counter: counter, largestInUse: largest))
            }
        }
        primaryKeyCounters = counters
    }

    /// SQLite's `PRAGMA integrity_check` of the file: `["ok"]` when it is sound, else one
    /// line per problem found (at most 100).
    ///
    /// - Throws: as ``init(storeAt:)``.
    public static func integrityCheck(storeAt url: URL) throws -> [String] {
        try readable(url) { try strings(open(url), "PRAGMA integrity_check(100)") }
    }

    /// Runs `body`, turning SQLite's errors into `NSSQLiteError` (134180) naming the file.
    private static func readable<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw NSError(domain: NSCocoaErrorDomain, code: NSSQLiteError,
                          userInfo: [NSFilePathErrorKey: url.path,
                                     NSLocalizedDescriptionKey: "\(url.path) cannot be read as a SQLite store: \(error.description)"])
        }
    }

    private static func open(_ url: URL) throws -> SQLiteConnection {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                          userInfo: [NSFilePathErrorKey: url.path,
                                     NSLocalizedDescriptionKey: "There is no store at \(url.path)."])
        }
        return try SQLiteConnection.openReadingOnly(path: url.path, busyTimeout: 1)
    }

    private static func strings(_ connection: SQLiteConnection, _ sql: String) throws -> [String] {
        let statement = try connection.prepare(sql)
        var values: [String] = []
        while try statement.step() { values.append(statement.string(0) ?? "") }
        return values
    }
}
