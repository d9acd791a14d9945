import CCoreDataSQLite
import CoreData

// Batch requests against raw SQLite doing the same statements. They work on files of their
// own (`ours-batch.sqlite`, `raw-batch.sqlite`), so the other workloads are unaffected.

extension Bench {
    var oursBatchPath: String { directory.appendingPathComponent("ours-batch.sqlite").path }
    var rawBatchPath: String { directory.appendingPathComponent("raw-batch.sqlite").path }

    /// The N records as the dictionaries a batch insert takes (made before any timing,
    /// like the dataset itself).
    func recordDictionaries() -> [[String: Any]] {
        (0..<n).map { (i: Int) -> [String: Any] in
            var values: [String: Any] = [:]
            values["ident"] = data.ident[i]
            values["quantity"] = data.quantity[i]
            values["rank"] = data.rank[i]
            values["flags"] = data.flags[i]
            values["price"] = data.price[i]
            values["weight"] = data.weight[i]
            values["name"] = data.name[i]
            values["city"] = data.city[i]
            values["notes"] = data.notes[i]
            values["created"] = Date(timeIntervalSinceReferenceDate: data.created[i])
            return values
        }
    }

    /// Runs `body` on a background context of a store opened afresh (untimed).
    func inContext<T>(_ path: String, _ body: (NSManagedObjectContext) throws -> T) throws -> T {
        let container = try openContainer(path)
        let context = container.newBackgroundContext()
        return try withExtendedLifetime(container) { try context.performAndWait { try body(context) } }
    }

    func batchInsert(_ dictionaries: [[String: Any]]) -> Workload {
        Workload(
            key: "batch_insert", title: "NSBatchInsertRequest, N objects", ops: n, unit: "rows", target: 1.5,
            rawDescription: "one prepared INSERT of 13 columns per row and the Z_PRIMARYKEY update, in BEGIN IMMEDIATE … COMMIT",
            ours: { [self] clock in
                RawDatabase.remove(oursBatchPath)
                try inContext(oursBatchPath) { context in
                    let request = NSBatchInsertRequest(entityName: "Record", objects: dictionaries)
                    clock.start()
                    _ = try context.execute(request)
                    clock.stop()
                }
                return Outcome(checksum: try recordContents(oursBatchPath), ops: n)
            },
            raw: { [self] clock, _ in try rawInsert(into: rawBatchPath, schemaFrom: oursBatchPath, clock) })
    }

    var batchUpdate: Workload {
        Workload(
            key: "batch_update", title: "NSBatchUpdateRequest, quantity + 1", ops: n, unit: "rows", target: nil,
            rawDescription: "UPDATE ZRECORD SET ZQUANTITY = ZQUANTITY + 1, Z_OPT = Z_OPT + 1, in one transaction",
            ours: { [self] clock in
                try inContext(oursBatchPath) { context in
                    let request = NSBatchUpdateRequest(entityName: "Record")
                    request.propertiesToUpdate = ["quantity": NSExpression(format: "quantity + 1")]
                    request.resultType = .updatedObjectsCountResultType
                    clock.start()
                    let result = try context.execute(request) as? NSBatchUpdateResult
                    clock.stop()
                    guard result?.result as? Int == n else { throw BenchError("batch update changed \(String(describing: result?.result)) rows") }
                }
                return Outcome(checksum: try tables(oursBatchPath, ["ZRECORD"]), ops: n)
            },
            raw: { [self] clock, _ in
                let db = try RawDatabase(path: rawBatchPath)
                clock.start()
                try db.execute("BEGIN IMMEDIATE")
                try db.execute("UPDATE ZRECORD SET ZQUANTITY = ZQUANTITY + 1, Z_OPT = Z_OPT + 1")
                try db.execute("COMMIT")
                clock.stop()
                return Outcome(checksum: try tables(rawBatchPath, ["ZRECORD"]), ops: n)
            })
    }

    /// Each run starts from copies of the files as the update left them.
    func batchDelete(oursTemplate: String, rawTemplate: String) -> Workload {
        let count = max(1, n / 10)
        let bound = data.ident[0] + Int64(count)
        return Workload(
            key: "batch_delete", title: "NSBatchDeleteRequest, N/10 objects", ops: count, unit: "rows", target: nil,
            rawDescription: "DELETE FROM ZRECORD WHERE ZIDENT < ? (indexed), in one transaction",
            ours: { [self] clock in
                let work = directory.appendingPathComponent("ours-batch-delete.sqlite").path
                try RawDatabase(path: oursTemplate).backup(to: work)
                try inContext(work) { context in
                    let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Record")
                    fetch.predicate = NSPredicate(format: "ident < %lld", bound)
                    let request = NSBatchDeleteRequest(fetchRequest: fetch)
                    request.resultType = .resultTypeCount
                    clock.start()
                    let result = try context.execute(request) as? NSBatchDeleteResult
                    clock.stop()
                    guard result?.result as? Int == count else { throw BenchError("batch delete removed \(String(describing: result?.result)) rows") }
                }
                return Outcome(checksum: try tables(work, ["ZRECORD"]), ops: count)
            },
            raw: { [self] clock, _ in
                let work = directory.appendingPathComponent("raw-batch-delete.sqlite").path
                try RawDatabase(path: rawTemplate).backup(to: work)
                let db = try RawDatabase(path: work)
                clock.start()
                try db.execute("BEGIN IMMEDIATE")
                let delete = try db.prepare("DELETE FROM ZRECORD WHERE ZIDENT < ?")
                sqlite3_bind_int64(delete, 1, bound)
                try db.check(sqlite3_step(delete), "delete")
                sqlite3_finalize(delete)
                try db.execute("COMMIT")
                clock.stop()
                return Outcome(checksum: try tables(work, ["ZRECORD"]), ops: count)
            })
    }
}
