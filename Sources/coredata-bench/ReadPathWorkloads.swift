import CCoreDataSQLite
import CoreData

// The rows issue 12 asked for beyond the first benchmark: the untyped read path
// (`value(forKey:)` + `as?`), and two contexts of one coordinator fetching at once.

extension Bench {
    /// Reads the 10 attributes the way code without `@Managed` properties does:
    /// `value(forKey:)` and a cast to the attribute's Swift type.
    @inline(__always)
    func hashByKey(_ object: NSManagedObject) -> RowHash {
        var row = RowHash()
        row.add(object.value(forKey: "ident") as? Int64 ?? -1)
        row.add(object.value(forKey: "quantity") as? Int64 ?? -1)
        row.add(object.value(forKey: "rank") as? Int64 ?? -1)
        row.add(object.value(forKey: "flags") as? Int64 ?? -1)
        row.add(object.value(forKey: "price") as? Double ?? -1)
        row.add(object.value(forKey: "weight") as? Double ?? -1)
        row.add(object.value(forKey: "name") as? String)
        row.add(object.value(forKey: "city") as? String)
        row.add(object.value(forKey: "notes") as? String)
        row.add(object.value(forKey: "created") as? Date)
        return row
    }

    var keyValueFetch: Workload {
        Workload(
            key: "fetch_kvc", title: "fetch N, read 10 by value(forKey:)+as?", ops: n, unit: "rows", target: 3.0,
            rawDescription: "SELECT all columns ORDER BY Z_PK, reading the 10 values of each row",
            ours: { [self] clock in
                return try inOursContext { context in
                    clock.start()
                    var checksum = Checksum()
                    for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Record")) {
                        checksum.add(hashByKey(object))
                    }
                    clock.stop()
                    return Outcome(checksum: checksum, ops: n)
                }
            },
            raw: { [self] clock, _ in try rawReadAll(clock) })
    }

    // MARK: - Two contexts at once

    /// Fetches every record on `context`'s queue, fires each fault and hashes its 10
    /// attributes.
    func readAll(on context: NSManagedObjectContext) throws -> Checksum {
        try context.performAndWait {
            var checksum = Checksum()
            for record in try context.fetch(NSFetchRequest<Record>(entityName: "Record")) {
                checksum.add(hash(record))
            }
            return checksum
        }
    }

    /// Two background contexts of one coordinator, each on its own thread, each fetching
    /// and reading all N records, against one context doing it alone: both sides are our
    /// stack, and the ratio is the wall time of the two at once over the time of one
    /// (1.0 when the two run fully in parallel on two cores; 2.0 when serialized).
    var twoContexts: Workload {
        Workload(
            key: "two_contexts", title: "2 contexts fetch at once / 1 alone", ops: n, unit: "rows", target: 1.15,
            rawDescription: "(our stack) one background context fetching N, firing and reading 10, alone",
            ours: { [self] clock in
                let container = try openContainer(oursPath)
                let contexts = [container.newBackgroundContext(), container.newBackgroundContext()]
                let work = ParallelWork(count: 2) { [self] index in try readAll(on: contexts[index]) }
                clock.start()
                let sums = try work.run()
                clock.stop()
                var total = Checksum()
                for sum in sums {
                    total.rows += sum.rows
                    total.sum &+= sum.sum
                }
                return withExtendedLifetime(container) { Outcome(checksum: total, ops: n) }
            },
            raw: { [self] clock, _ in
                let container = try openContainer(oursPath)
                let context = container.newBackgroundContext()
                clock.start()
                let sum = try readAll(on: context)
                clock.stop()
                // The same rows read twice over, as the two contexts did.
                let total = Checksum(rows: 2 * sum.rows, sum: sum.sum &* 2)
                return withExtendedLifetime(container) { Outcome(checksum: total, ops: n) }
            })
    }
}

/// Runs `count` copies of a body on threads of their own at once and collects what each
/// returned (or the first error).
final class ParallelWork: @unchecked Sendable {
    // @unchecked Sendable: `results` is written by each thread at its own index under
    // `lock`, and read only after every thread has signalled `done`.
    private let count: Int
    private let body: (Int) throws -> Checksum
    private let lock = NSLock()
    private var results: [Result<Checksum, Error>?]
    private let done = DispatchGroup()

    init(count: Int, body: @escaping (Int) throws -> Checksum) {
        self.count = count
        self.body = body
        self.results = Array(repeating: nil, count: count)
    }

    func run() throws -> [Checksum] {
        for index in 0..<count {
            done.enter()
            let thread = Thread { [self] in
                let result = Result { try body(index) }
                lock.lock()
                results[index] = result
                lock.unlock()
                done.leave()
            }
            thread.start()
        }
        done.wait()
        return try results.map { try $0!.get() }
    }
}
