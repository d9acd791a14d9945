import CCoreDataBench
import CCoreDataSQLite
import CoreData

/// Peak resident memory of N realized, registered objects, measured in a child process
/// (`coredata-bench --memory-probe ours|raw <store> <n>`) so that the heap left over by
/// other workloads does not hide or inflate it.
enum MemoryProbe {
    struct Report: Codable {
        var side: String
        var count: Int
        /// VmHWM after − VmRSS before (bytes), when the peak could be reset; else VmRSS delta.
        var peakDelta: Int
        var residentDelta: Int
        var checksumRows: Int
        var checksumSum: UInt64
        /// Heap bytes in use (glibc's `mallinfo2`) after the objects were let go of
        /// (`reset()` on our side, the array dropped on the raw side) minus before the
        /// fetch: what stays behind.
        var heapAfterRelease: Int
    }

    /// One row held the raw way: a struct of Swift values per row.
    struct RawRow {
        var pk: Int64
        var ident: Int64
        var quantity: Int64
        var rank: Int64
        var flags: Int64
        var price: Double
        var weight: Double
        var name: String?
        var city: String?
        var notes: String?
        var created: Double
    }

    /// Runs in the child: loads every record and prints a JSON report.
    static func probe(side: String, path: String, model: NSManagedObjectModel) throws {
        var report = Report(side: side, count: 0, peakDelta: 0, residentDelta: 0, checksumRows: 0, checksumSum: 0,
                            heapAfterRelease: 0)
        if side == "ours" {
            let container = NSPersistentContainer(name: "Bench", managedObjectModel: model)
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: path))]
            var failure: Error?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                // The store in use before measuring, as the raw side's connection is: a
                // first read opens what a store opens once (a WAL reader connection, its
                // page cache's first block, a compiled statement: ~100 KB), which is no
                // part of what N objects cost or leave behind.
                let first = NSFetchRequest<Record>(entityName: "Record")
                first.fetchLimit = 1
                _ = try context.fetch(first)
                context.reset()
                let heapBefore = heapInUse()
                let peakReset = ProcessMemory.resetPeak()
                let before = ProcessMemory.status("VmRSS")
                try {
                    let request = NSFetchRequest<Record>(entityName: "Record")
                    request.returnsObjectsAsFaults = false
                    let records = try context.fetch(request)
                    let after = ProcessMemory.status("VmRSS")
                    let peak = peakReset ? ProcessMemory.status("VmHWM") : after
                    var checksum = Checksum()
                    for record in records {
                        var row = RowHash()
                        row.add(record.ident)
                        row.add(record.notes)
                        checksum.add(row)
                    }
                    report.count = records.count
                    report.peakDelta = peak - before
                    report.residentDelta = after - before
                    report.checksumRows = checksum.rows
                    report.checksumSum = checksum.sum
                    withExtendedLifetime(records) {}
                }()
                // What an app does when it is done with a screenful of objects.
                context.reset()
                report.heapAfterRelease = heapInUse() - heapBefore
            }
        } else {
            let db = try RawDatabase(path: path)
            // The same first read as our side's.
            let first = try db.prepare(RawDatabase.recordSelect + " ORDER BY Z_PK LIMIT 1")
            _ = sqlite3_step(first)
            sqlite3_finalize(first)
            let heapBefore = heapInUse()
            let peakReset = ProcessMemory.resetPeak()
            let before = ProcessMemory.status("VmRSS")
            let select = try db.prepare(RawDatabase.recordSelect + " ORDER BY Z_PK")
            var rows: [RawRow] = []
            while sqlite3_step(select) == SQLITE_ROW {
                rows.append(RawRow(
                    pk: sqlite3_column_int64(select, 0),
                    ident: sqlite3_column_int64(select, 3), quantity: sqlite3_column_int64(select, 4),
                    rank: sqlite3_column_int64(select, 5), flags: sqlite3_column_int64(select, 6),
                    price: sqlite3_column_double(select, 7), weight: sqlite3_column_double(select, 8),
                    name: RawDatabase.string(select, 9), city: RawDatabase.string(select, 10),
                    notes: RawDatabase.string(select, 11), created: sqlite3_column_double(select, 12)))
            }
            sqlite3_finalize(select)
            let after = ProcessMemory.status("VmRSS")
            let peak = peakReset ? ProcessMemory.status("VmHWM") : after
            var checksum = Checksum()
            for record in rows {
                var row = RowHash()
                row.add(record.ident)
                row.add(record.notes)
                checksum.add(row)
            }
            report.count = rows.count
            report.peakDelta = peak - before
            report.residentDelta = after - before
            report.checksumRows = checksum.rows
            report.checksumSum = checksum.sum
            withExtendedLifetime(rows) {}
            rows = []
            report.heapAfterRelease = heapInUse() - heapBefore
        }
        let json = try JSONEncoder().encode(report)
        print(String(decoding: json, as: UTF8.self))
    }

    /// Bytes the process's heap has handed out and not taken back (glibc's `mallinfo2`),
    /// unlike resident memory blind to what `malloc` keeps for reuse.
    static func heapInUse() -> Int { Int(cdbench_heap_in_use()) }

    /// Runs in the parent: starts the child and reads its report.
    static func run(side: String, path: String) throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--memory-probe", side, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else {
            throw BenchError("memory probe (\(side)) failed with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Report.self, from: Data(line.utf8))
    }

    /// The raw size of a record row: 8 bytes for each number and date (Z_PK, 4 integers,
    /// 2 doubles, the date) plus the UTF-8 bytes of its 3 strings, averaged over the table.
    static func rawRowBytes(path: String) throws -> Double {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare(
            "SELECT AVG(LENGTH(CAST(ZNAME AS BLOB)) + LENGTH(CAST(ZCITY AS BLOB)) + LENGTH(CAST(ZNOTES AS BLOB))) FROM ZRECORD")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return 64 }
        return 64 + sqlite3_column_double(statement, 0)
    }
}
