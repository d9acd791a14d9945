import CCoreDataLibPQ
import CoreData

/// The PostgreSQL rows (issue 16): our PostgreSQL store through Apple's API against raw libpq
/// doing the same work on the same server, in two databases of their own made for the run
/// (`coredata_bench_ours_<pid>`, `coredata_bench_raw_<pid>`, dropped at the end). Both get their
/// tables from our store, so both sides use the same layout and indexes.
final class PostgreSQLBench {
    let bench: Bench
    let server: URL
    let oursURL: URL
    let rawURL: URL
    /// Records per save in the writer-process rows.
    static let writerBatch = 100

    init(bench: Bench, server: URL) {
        self.bench = bench
        self.server = server
        oursURL = Self.url(server, database: "coredata_bench_ours_\(getpid())")
        rawURL = Self.url(server, database: "coredata_bench_raw_\(getpid())")
    }

    /// `server` with its database name replaced.
    static func url(_ server: URL, database: String) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = "/" + database
        return components.url!
    }

    var databases: [URL] { [oursURL, rawURL] }

    /// Creates both databases and their tables (our store creates them on first open).
    func setUp() throws {
        let admin = try RawPostgreSQL(url: server.absoluteString)
        for url in databases {
            let name = url.lastPathComponent
            try admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            try admin.execute("CREATE DATABASE \(name)")
            _ = try Self.openContainer(url, model: bench.model)
        }
    }

    func tearDown() {
        guard let admin = try? RawPostgreSQL(url: server.absoluteString) else { return }
        for url in databases { try? admin.execute("DROP DATABASE IF EXISTS \(url.lastPathComponent) WITH (FORCE)") }
    }

    static func openContainer(_ url: URL, model: NSManagedObjectModel) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Bench", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = NSPostgreSQLStoreType
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Empties `ZRECORD` and its key counter on both databases (untimed).
    func emptyRecords() throws {
        for url in databases {
            let db = try RawPostgreSQL(url: url.absoluteString)
            try db.execute("TRUNCATE ZRECORD")
            try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Record'")
        }
    }

    func contents(_ url: URL) throws -> Checksum { try RawPostgreSQL(url: url.absoluteString).recordContents() }

    // MARK: - Insert

    var insert: Workload {
        Workload(
            key: "pg_insert", title: "PostgreSQL: insert N + save()", ops: bench.n, unit: "rows", target: 3.0,
            rawDescription: "the keys reserved with one UPDATE Z_PRIMARYKEY … RETURNING, then one prepared INSERT per row (text parameters) in BEGIN … COMMIT",
            ours: { [self] clock in
                try emptyRecords()
                let container = try Self.openContainer(oursURL, model: bench.model)
                let context = container.newBackgroundContext()
                try context.performAndWait {
                    clock.start()
                    try insertRecords(0..<bench.n, into: context)
                    clock.stop()
                }
                return Outcome(checksum: try contents(oursURL), ops: bench.n)
            },
            raw: { [self] clock, _ in
                let db = try RawPostgreSQL(url: rawURL.absoluteString)
                let writer = try RawRecordWriter(db)
                clock.start()
                try writer.insert(0..<bench.n, bench.data)
                clock.stop()
                return Outcome(checksum: try contents(rawURL), ops: bench.n)
            })
    }

    /// What a Core Data user writes: `Record(context:)`, the 10 properties, `save()`.
    func insertRecords(_ indexes: Range<Int>, into context: NSManagedObjectContext) throws {
        bench.data.insertRecords(indexes, into: context)
        try context.save()
    }

    // MARK: - Fetch

    var fetch: Workload {
        Workload(
            key: "pg_fetch", title: "PostgreSQL: fetch N, read 10", ops: bench.n, unit: "rows", target: 2.5,
            rawDescription: "SELECT all columns ORDER BY Z_PK (text results), the 10 values of each row parsed",
            ours: { [self] clock in
                let container = try Self.openContainer(oursURL, model: bench.model)
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    clock.start()
                    var checksum = Checksum()
                    for record in try context.fetch(NSFetchRequest<Record>(entityName: "Record")) {
                        checksum.add(bench.hash(record))
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: bench.n)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawPostgreSQL(url: rawURL.absoluteString)
                return Outcome(checksum: try rawReadAll(db, clock), ops: bench.n)
            })
    }

    func rawReadAll(_ db: RawPostgreSQL, _ clock: Stopwatch) throws -> Checksum {
        clock.start()
        defer { clock.stop() }
        guard let result = PQexec(db.handle, "SELECT Z_PK, Z_ENT, Z_OPT, \(BenchModel.recordColumns) FROM ZRECORD ORDER BY Z_PK"),
              PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw BenchError("libpq: \(String(cString: PQerrorMessage(db.handle))) reading ZRECORD")
        }
        defer { PQclear(result) }
        var checksum = Checksum()
        for row in 0..<PQntuples(result) { checksum.add(RawPostgreSQL.hashRecord(result, row, from: 3)) }
        return checksum
    }
}

/// The raw writer: keys reserved as our store reserves them (one `UPDATE … RETURNING` outside
/// the transaction), then one prepared INSERT per row in one transaction.
final class RawRecordWriter {
    let db: RawPostgreSQL
    let entity: String

    init(_ db: RawPostgreSQL) throws {
        self.db = db
        guard let entity = try db.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Record'").first?.first ?? nil else {
            throw BenchError("Z_PRIMARYKEY has no Record row")
        }
        self.entity = entity
        try db.prepare("keys", "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + $1 WHERE Z_ENT = $2 RETURNING Z_MAX", parameters: 2)
        try db.prepare(
            "insert",
            "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, \(BenchModel.recordColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            parameters: 13)
    }

    func insert(_ indexes: Range<Int>, _ data: Dataset) throws {
        let count = strdup(String(indexes.count)), entity = strdup(self.entity), one = strdup("1")
        defer { free(count); free(entity); free(one) }
        let reserved = try db.run("keys", [count, entity])
        let last = RawPostgreSQL.int64(reserved, 0, 0)
        PQclear(reserved)
        var key = last - Int64(indexes.count) + 1
        try db.execute("BEGIN")
        for i in indexes {
            let texts = [String(key), String(data.ident[i]), String(data.quantity[i]), String(data.rank[i]),
                         String(data.flags[i]), "\(data.price[i])", "\(data.weight[i])",
                         data.name[i], data.city[i], data.notes[i], "\(data.created[i])"]
            let copies = texts.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            var values: [UnsafePointer<CChar>?] = [UnsafePointer(copies[0]), UnsafePointer(entity), UnsafePointer(one)]
            values += copies.dropFirst().map { UnsafePointer($0) }
            PQclear(try db.run("insert", values))
            key += 1
        }
        try db.execute("COMMIT")
    }
}
