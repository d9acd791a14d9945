import CCoreDataSQLite
import CoreData

/// Every workload, each written twice: as a Core Data user writes it (container,
/// contexts, `@Managed` properties, `NSFetchRequest`, `NSPredicate(format:)`), and as a
/// SQLite C API user writes it. Each run opens its stores afresh (untimed), so that no
/// in-process cache (our row cache, SQLite's page cache) carries over from the last run;
/// the OS file cache is warm for both.
final class Bench {
    let n: Int
    let data: Dataset
    let model: NSManagedObjectModel
    let directory: URL
    /// Seconds a budgeted workload (one query per operation) may take per run.
    let budget: Double
    let lookups: Int

    var oursPath: String { directory.appendingPathComponent("ours.sqlite").path }
    var rawPath: String { directory.appendingPathComponent("raw.sqlite").path }

    init(n: Int, directory: URL, budget: Double) {
        self.n = n
        self.data = Dataset(count: n)
        self.model = BenchModel.make()
        self.directory = directory
        self.budget = budget
        self.lookups = min(10_000, n)
    }

    // MARK: - Our stack

    /// Runs `body` on a new background context of our store, opened afresh (untimed).
    func inOursContext<T>(_ body: (NSManagedObjectContext) throws -> T) throws -> T {
        let container = try openContainer(oursPath)
        let context = container.newBackgroundContext()
        return try withExtendedLifetime(container) { try context.performAndWait { try body(context) } }
    }

    func openContainer(_ path: String) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: path))]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Reads the 10 attributes through the `@Managed` properties and hashes them.
    @inline(__always)
    func hash(_ record: Record) -> RowHash {
        hash(record, into: RowHash())
    }

    /// The primary key, then the 10 attributes (what `RawRecord.hash` hashes).
    func hash(_ record: Record, key: Int64) -> RowHash {
        var row = RowHash()
        row.add(key)
        return hash(record, into: row)
    }

    @inline(__always)
    func hash(_ record: Record, into start: RowHash) -> RowHash {
        var row = start
        row.add(record.ident)
        row.add(record.quantity)
        row.add(record.rank)
        row.add(record.flags)
        row.add(record.price)
        row.add(record.weight)
        row.add(record.name)
        row.add(record.city)
        row.add(record.notes)
        row.add(record.created)
        return row
    }

    /// Record rows without `Z_PK` (our store numbers inserted objects in its own order).
    func recordContents(_ path: String) throws -> Checksum {
        let db = try RawDatabase(path: path)
        return try db.tableChecksum("(SELECT Z_ENT, Z_OPT, \(BenchModel.recordColumns) FROM ZRECORD)")
    }

    func tables(_ path: String, _ names: [String]) throws -> Checksum {
        let db = try RawDatabase(path: path)
        var total = Checksum()
        for name in names {
            let part = try db.tableChecksum(name)
            total.rows += part.rows
            total.sum &+= part.sum
        }
        return total
    }

    // MARK: - Insert

    /// The raw side of both insert workloads: N rows into a fresh file at `path` whose schema
    /// is copied from our store at `schemaSource`, one prepared INSERT per row and the
    /// `Z_PRIMARYKEY` update, in one `BEGIN IMMEDIATE … COMMIT`.
    func rawInsert(into path: String, schemaFrom schemaSource: String, _ clock: Stopwatch) throws -> Outcome {
        RawDatabase.remove(path)
        let db = try RawDatabase(path: path, create: true)
        try db.copySchema(from: RawDatabase(path: schemaSource))
        let entity = try db.entityID("Record")
        clock.start()
        try db.execute("BEGIN IMMEDIATE")
        let insert = try db.prepare(
            "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, \(BenchModel.recordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        let transient = cdsqlite_transient()
        for i in 0..<n {
            sqlite3_bind_int64(insert, 1, Int64(i + 1))
            sqlite3_bind_int64(insert, 2, entity)
            sqlite3_bind_int64(insert, 3, 1)
            sqlite3_bind_int64(insert, 4, data.ident[i])
            sqlite3_bind_int64(insert, 5, data.quantity[i])
            sqlite3_bind_int64(insert, 6, data.rank[i])
            sqlite3_bind_int64(insert, 7, data.flags[i])
            sqlite3_bind_double(insert, 8, data.price[i])
            sqlite3_bind_double(insert, 9, data.weight[i])
            sqlite3_bind_text(insert, 10, data.name[i], -1, transient)
            sqlite3_bind_text(insert, 11, data.city[i], -1, transient)
            sqlite3_bind_text(insert, 12, data.notes[i], -1, transient)
            sqlite3_bind_double(insert, 13, data.created[i])
            try db.check(sqlite3_step(insert), "insert")
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(n) WHERE Z_ENT = \(entity)")
        try db.execute("COMMIT")
        clock.stop()
        return Outcome(checksum: try recordContents(path), ops: n)
    }

    var insert: Workload { insertWorkload(key: "insert", title: "insert N + save()") }

    /// Inserting N records through `@Managed` properties and one `save()` (also the
    /// opt-in `insert_1m` row, on a bench of its own with N = 1 000 000).
    func insertWorkload(key: String, title: String) -> Workload {
        Workload(
            key: key, title: title, ops: n, unit: "rows", target: 3.0,
            rawDescription: "one prepared INSERT of 13 columns per row and the Z_PRIMARYKEY update, in BEGIN IMMEDIATE … COMMIT",
            ours: { [self] clock in
                RawDatabase.remove(oursPath)
                try inOursContext { context in
                    clock.start()
                    data.insertRecords(0..<n, into: context)
                    try context.save()
                    clock.stop()
                }
                return Outcome(checksum: try recordContents(oursPath), ops: n)
            },
            raw: { [self] clock, _ in try rawInsert(into: rawPath, schemaFrom: oursPath, clock) })
    }

    /// After the inserts: the raw file takes our file's rows, so that primary keys name
    /// the same records on both sides (lookups by key must find the same data).
    func alignRawWithOurs() throws {
        let raw = try RawDatabase(path: rawPath)
        try raw.execute("DELETE FROM ZRECORD")
        try raw.copyRows(of: "ZRECORD", from: RawDatabase(path: oursPath))
        try raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZRECORD) WHERE Z_NAME = 'Record'")
        let ours = try tables(oursPath, ["ZRECORD"]), theirs = try tables(rawPath, ["ZRECORD"])
        guard ours == theirs else { throw BenchError("raw copy of ZRECORD differs: \(ours) vs \(theirs)") }
    }

    // MARK: - Fetching

    /// The default fetch: faults whose rows (every column, as Apple's default
    /// `includesPropertyValues` reads them) go into the row cache. The raw side reads the
    /// same columns into plain structs, which is what "the same work" means for it.
    var faultFetch: Workload {
        Workload(
            key: "fetch_faults", title: "fetch N as faults", ops: n, unit: "rows", target: 4.0,
            rawDescription: "SELECT Z_PK, Z_ENT, Z_OPT and the 10 attributes ORDER BY Z_PK into an array of structs (the columns our fetch reads)",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    let records = try context.fetch(NSFetchRequest<Record>(entityName: "Record"))
                    clock.stop()
                    // Verification, untimed: faults, the primary keys their IDs carry, and
                    // the values the fetch cached (firing each fault from the row cache).
                    for record in records where !record.isFault { throw BenchError("fetch returned a realized object") }
                    var checksum = Checksum()
                    for record in records { checksum.add(hash(record, key: primaryKey(record))) }
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare(RawDatabase.recordSelect + " ORDER BY Z_PK")
                var records: [RawRecord] = []
                while sqlite3_step(select) == SQLITE_ROW { records.append(RawRecord(select)) }
                sqlite3_finalize(select)
                clock.stop()
                var checksum = Checksum()
                for record in records { checksum.add(record.hash) }
                return Outcome(checksum: checksum, ops: n)
            })
    }

    /// Faults without their values (`includesPropertyValues = false`: only the keys are
    /// read, the values when a fault fires) against a one-column read of the keys.
    var faultKeysFetch: Workload {
        Workload(
            key: "fetch_faults_keys", title: "fetch N as faults, no values", ops: n, unit: "rows", target: 4.0,
            rawDescription: "SELECT Z_PK FROM ZRECORD ORDER BY Z_PK into an array (a one-column fetch)",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    let request = NSFetchRequest<Record>(entityName: "Record")
                    request.includesPropertyValues = false
                    let records = try context.fetch(request)
                    clock.stop()
                    // Verification, untimed: faults, and the primary keys their IDs carry.
                    var checksum = Checksum()
                    for record in records {
                        guard record.isFault else { throw BenchError("fetch returned a realized object") }
                        var row = RowHash()
                        row.add(primaryKey(record))
                        checksum.add(row)
                    }
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare("SELECT Z_PK FROM ZRECORD ORDER BY Z_PK")
                var keys: [Int64] = []
                while sqlite3_step(select) == SQLITE_ROW { keys.append(sqlite3_column_int64(select, 0)) }
                sqlite3_finalize(select)
                clock.stop()
                var checksum = Checksum()
                for key in keys { var row = RowHash(); row.add(key); checksum.add(row) }
                return Outcome(checksum: checksum, ops: n)
            })
    }

    /// The primary key an object's ID carries (`…/Record/p<pk>`).
    func primaryKey(_ record: Record) -> Int64 {
        Int64(record.objectID.uriRepresentation().lastPathComponent.dropFirst()) ?? -1
    }

    /// The raw side of every "read all N records" workload.
    func rawReadAll(_ clock: Stopwatch) throws -> Outcome {
        let db = try RawDatabase(path: rawPath)
        clock.start()
        let select = try db.prepare(RawDatabase.recordSelect + " ORDER BY Z_PK")
        var checksum = Checksum()
        while sqlite3_step(select) == SQLITE_ROW { checksum.add(RawDatabase.hashRecord(select, from: 3)) }
        sqlite3_finalize(select)
        clock.stop()
        return Outcome(checksum: checksum, ops: n)
    }

    var faultFire: Workload {
        Workload(
            key: "fetch_fire", title: "fetch N faults, fire all, read 10", ops: n, unit: "rows", target: 2.3,
            rawDescription: "SELECT all columns ORDER BY Z_PK, reading the 10 values of each row",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    var checksum = Checksum()
                    for record in try context.fetch(NSFetchRequest<Record>(entityName: "Record")) {
                        checksum.add(hash(record))
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in try rawReadAll(clock) })
    }

    var fullFetch: Workload {
        Workload(
            key: "fetch_objects", title: "fetch N (no faults), read 10", ops: n, unit: "rows", target: 2.3,
            rawDescription: "SELECT all columns ORDER BY Z_PK, reading the 10 values of each row",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    let request = NSFetchRequest<Record>(entityName: "Record")
                    request.returnsObjectsAsFaults = false
                    var checksum = Checksum()
                    for record in try context.fetch(request) { checksum.add(hash(record)) }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in try rawReadAll(clock) })
    }

    var dictionaryFetch: Workload {
        Workload(
            key: "fetch_dictionary", title: "dictionary fetch, 1 attr, as? Int64", ops: n, unit: "rows", target: 1.7,
            rawDescription: "SELECT ZQUANTITY FROM ZRECORD ORDER BY Z_PK",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    let request = NSFetchRequest<NSDictionary>(entityName: "Record")
                    request.resultType = .dictionaryResultType
                    request.propertiesToFetch = ["quantity"]
                    var checksum = Checksum()
                    for dictionary in try context.fetch(request) {
                        var row = RowHash()
                        row.add(dictionary["quantity"] as? Int64 ?? -1)
                        checksum.add(row)
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare("SELECT ZQUANTITY FROM ZRECORD ORDER BY Z_PK")
                var checksum = Checksum()
                while sqlite3_step(select) == SQLITE_ROW {
                    var row = RowHash()
                    row.add(sqlite3_column_int64(select, 0))
                    checksum.add(row)
                }
                sqlite3_finalize(select)
                clock.stop()
                return Outcome(checksum: checksum, ops: n)
            })
    }

    // MARK: - Lookups

    /// `count` distinct values of a column of ZRECORD, in a fixed pseudo-random order.
    func randomKeys(_ column: String, count: Int, seed: UInt64) throws -> [Int64] {
        var keys = try RawDatabase(path: oursPath).integers("SELECT \(column) FROM ZRECORD ORDER BY Z_PK").map { $0[0] }
        var generator = SplitMix64(seed: seed)
        keys.shuffle(using: &generator)
        return Array(keys.prefix(count))
    }

    func existingObject(keys: [Int64]) -> Workload {
        Workload(
            key: "existing_object", title: "existingObject(with:), cold, random", ops: keys.count, unit: "lookups",
            target: 2.5,
            rawDescription: "one prepared SELECT … WHERE Z_PK = ? per lookup, reading the 10 values",
            ours: { [self] clock in
                let container = try openContainer(oursPath)
                let coordinator = container.persistentStoreCoordinator
                let store = coordinator.persistentStores[0].identifier ?? ""
                let ids = keys.compactMap {
                    coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store)/Record/p\($0)")!)
                }
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    clock.start()
                    var checksum = Checksum()
                    for id in ids {
                        guard let record = try context.existingObject(with: id) as? Record else {
                            throw BenchError("existingObject returned another class")
                        }
                        checksum.add(hash(record))
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: keys.count)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare(RawDatabase.recordSelect + " WHERE Z_PK = ?")
                var checksum = Checksum()
                for key in keys {
                    sqlite3_bind_int64(select, 1, key)
                    guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError("no row \(key)") }
                    checksum.add(RawDatabase.hashRecord(select, from: 3))
                    sqlite3_reset(select)
                }
                sqlite3_finalize(select)
                clock.stop()
                return Outcome(checksum: checksum, ops: keys.count)
            })
    }

    func keyFetch(idents: [Int64]) -> Workload {
        Workload(
            key: "fetch_by_key", title: "fetch `ident == %lld`, new predicate", ops: idents.count,
            unit: "queries", target: 3.0,
            rawDescription: "one prepared SELECT … WHERE ZIDENT = ? per query (index ZRECORD_ZIDENT_INDEX), reading the 10 values",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    var checksum = Checksum()
                    var done = 0
                    for ident in idents {
                        if done > 0 && clock.running > budget { break }
                        let request = NSFetchRequest<Record>(entityName: "Record")
                        // `%lld`, not `%@` with an NSNumber: Linux Foundation's NSNumber is no CVarArg.
                        request.predicate = NSPredicate(format: "ident == %lld", ident)
                        for record in try context.fetch(request) { checksum.add(hash(record)) }
                        done += 1
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: done)
                }
            },
            raw: { [self] clock, ops in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare(RawDatabase.recordSelect + " WHERE ZIDENT = ?")
                var checksum = Checksum()
                for ident in idents.prefix(ops) {
                    sqlite3_bind_int64(select, 1, ident)
                    while sqlite3_step(select) == SQLITE_ROW { checksum.add(RawDatabase.hashRecord(select, from: 3)) }
                    sqlite3_reset(select)
                }
                sqlite3_finalize(select)
                clock.stop()
                return Outcome(checksum: checksum, ops: ops)
            })
    }

    var prefixFetch: Workload {
        let queries = 10
        return Workload(
            key: "fetch_beginswith", title: "fetch `name BEGINSWITH[c] %@` (~1%)", ops: queries, unit: "queries",
            target: nil,
            rawDescription: "one prepared SELECT … WHERE ZNAME LIKE ? ESCAPE '\\' per query (no index), reading the 10 values",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    var checksum = Checksum()
                    var done = 0
                    for k in 0..<queries {
                        if done > 0 && clock.running > budget { break }
                        let request = NSFetchRequest<Record>(entityName: "Record")
                        request.predicate = NSPredicate(format: "name BEGINSWITH[c] %@", Dataset.namePrefix(k))
                        for record in try context.fetch(request) { checksum.add(hash(record)) }
                        done += 1
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: done)
                }
            },
            raw: { [self] clock, ops in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare(RawDatabase.recordSelect + " WHERE ZNAME LIKE ? ESCAPE '\\'")
                let transient = cdsqlite_transient()
                var checksum = Checksum()
                for k in 0..<ops {
                    sqlite3_bind_text(select, 1, Dataset.namePrefix(k) + "%", -1, transient)
                    while sqlite3_step(select) == SQLITE_ROW { checksum.add(RawDatabase.hashRecord(select, from: 3)) }
                    sqlite3_reset(select)
                }
                sqlite3_finalize(select)
                clock.stop()
                return Outcome(checksum: checksum, ops: ops)
            })
    }

    // MARK: - Relationships

    static let parents = 1_000
    static let childrenPerParent = 10

    /// Writes the parents and children through our API (untimed), then copies the rows
    /// to the raw file.
    func setUpFamilies() throws {
        do {
            try inOursContext { context in
                for p in 0..<Self.parents {
                    let parent = Parent(context: context)
                    parent.name = "Parent \(p)"
                    for c in 0..<Self.childrenPerParent {
                        let child = Child(context: context)
                        child.name = "Child \(p)-\(c)"
                        child.parent = parent
                    }
                }
                try context.save()
            }
        }
        let raw = try RawDatabase(path: rawPath)
        let ours = try RawDatabase(path: oursPath)
        for table in ["ZPARENT", "ZCHILD"] {
            try raw.execute("DELETE FROM \(table)")
            try raw.copyRows(of: table, from: ours)
        }
        guard try tables(oursPath, ["ZPARENT", "ZCHILD"]) == tables(rawPath, ["ZPARENT", "ZCHILD"]) else {
            throw BenchError("raw copy of ZPARENT/ZCHILD differs")
        }
    }

    var traversal: Workload {
        let children = Self.parents * Self.childrenPerParent
        return Workload(
            key: "to_many", title: "to-many: 1000 parents × 10 children", ops: children, unit: "children",
            target: 3.0,
            rawDescription: "SELECT Z_PK FROM ZPARENT, then a prepared SELECT Z_PK, ZNAME FROM ZCHILD WHERE ZPARENT = ? per parent",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    var checksum = Checksum()
                    for parent in try context.fetch(NSFetchRequest<Parent>(entityName: "Parent")) {
                        for child in parent.children {
                            var row = RowHash()
                            row.add(child.name)
                            checksum.add(row)
                        }
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: children)
                }
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let parents = try db.prepare("SELECT Z_PK FROM ZPARENT ORDER BY Z_PK")
                let select = try db.prepare("SELECT Z_PK, ZNAME FROM ZCHILD WHERE ZPARENT = ? ORDER BY Z_PK")
                var checksum = Checksum()
                while sqlite3_step(parents) == SQLITE_ROW {
                    sqlite3_bind_int64(select, 1, sqlite3_column_int64(parents, 0))
                    while sqlite3_step(select) == SQLITE_ROW {
                        var row = RowHash()
                        row.add(RawDatabase.string(select, 1))
                        checksum.add(row)
                    }
                    sqlite3_reset(select)
                }
                sqlite3_finalize(select)
                sqlite3_finalize(parents)
                clock.stop()
                return Outcome(checksum: checksum, ops: children)
            })
    }

    // MARK: - Updating and deleting

    var update: Workload {
        Workload(
            key: "update", title: "update 1 attribute of N + save()", ops: n, unit: "rows", target: nil,
            rawDescription: "SELECT Z_PK, Z_OPT, ZQUANTITY, then one prepared UPDATE … SET ZQUANTITY = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ? per row, in one transaction",
            ours: { [self] clock in
                try inOursContext { context in
                    clock.start()
                    for record in try context.fetch(NSFetchRequest<Record>(entityName: "Record")) {
                        record.quantity = record.quantity + 1
                    }
                    try context.save()
                    clock.stop()
                }
                return Outcome(checksum: try tables(oursPath, ["ZRECORD"]), ops: n)
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawPath)
                clock.start()
                let select = try db.prepare("SELECT Z_PK, Z_OPT, ZQUANTITY FROM ZRECORD ORDER BY Z_PK")
                var rows: [(pk: Int64, version: Int64, quantity: Int64)] = []
                while sqlite3_step(select) == SQLITE_ROW {
                    rows.append((sqlite3_column_int64(select, 0), sqlite3_column_int64(select, 1), sqlite3_column_int64(select, 2)))
                }
                sqlite3_finalize(select)
                try db.execute("BEGIN IMMEDIATE")
                let update = try db.prepare("UPDATE ZRECORD SET ZQUANTITY = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?")
                for row in rows {
                    sqlite3_bind_int64(update, 1, row.quantity + 1)
                    sqlite3_bind_int64(update, 2, row.pk)
                    sqlite3_bind_int64(update, 3, row.version)
                    try db.check(sqlite3_step(update), "update")
                    guard sqlite3_changes(db.handle) == 1 else { throw BenchError("update conflict on \(row.pk)") }
                    sqlite3_reset(update)
                }
                sqlite3_finalize(update)
                try db.execute("COMMIT")
                clock.stop()
                return Outcome(checksum: try tables(rawPath, ["ZRECORD"]), ops: n)
            })
    }

    /// Deletes start each run from the same files (copies made before the first run).
    func delete(oursTemplate: String, rawTemplate: String) -> Workload {
        let count = max(1, n / 10)
        return Workload(
            key: "delete", title: "delete N/10 + save()", ops: count, unit: "rows", target: nil,
            rawDescription: "SELECT Z_PK, Z_OPT … ORDER BY ZIDENT LIMIT N/10, then one prepared DELETE … WHERE Z_PK = ? AND Z_OPT = ? per row, in one transaction",
            ours: { [self] clock in
                let work = directory.appendingPathComponent("ours-delete.sqlite").path
                try RawDatabase(path: oursTemplate).backup(to: work)
                let container = try openContainer(work)
                let context = container.newBackgroundContext()
                try context.performAndWait {
                    clock.start()
                    let request = NSFetchRequest<Record>(entityName: "Record")
                    request.sortDescriptors = [NSSortDescriptor(key: "ident", ascending: true)]
                    request.fetchLimit = count
                    for record in try context.fetch(request) { context.delete(record) }
                    try context.save()
                    clock.stop()
                }
                return Outcome(checksum: try tables(work, ["ZRECORD"]), ops: count)
            },
            raw: { [self] clock, _ in
                let work = directory.appendingPathComponent("raw-delete.sqlite").path
                try RawDatabase(path: rawTemplate).backup(to: work)
                let db = try RawDatabase(path: work)
                clock.start()
                let select = try db.prepare("SELECT Z_PK, Z_OPT FROM ZRECORD ORDER BY ZIDENT LIMIT ?")
                sqlite3_bind_int64(select, 1, Int64(count))
                var rows: [(pk: Int64, version: Int64)] = []
                while sqlite3_step(select) == SQLITE_ROW {
                    rows.append((sqlite3_column_int64(select, 0), sqlite3_column_int64(select, 1)))
                }
                sqlite3_finalize(select)
                try db.execute("BEGIN IMMEDIATE")
                let delete = try db.prepare("DELETE FROM ZRECORD WHERE Z_PK = ? AND Z_OPT = ?")
                for row in rows {
                    sqlite3_bind_int64(delete, 1, row.pk)
                    sqlite3_bind_int64(delete, 2, row.version)
                    try db.check(sqlite3_step(delete), "delete")
                    guard sqlite3_changes(db.handle) == 1 else { throw BenchError("delete conflict on \(row.pk)") }
                    sqlite3_reset(delete)
                }
                sqlite3_finalize(delete)
                try db.execute("COMMIT")
                clock.stop()
                return Outcome(checksum: try tables(work, ["ZRECORD"]), ops: count)
            })
    }
}
