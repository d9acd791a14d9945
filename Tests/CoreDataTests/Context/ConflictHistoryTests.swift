import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Conflict histories (issue 17 item 4, issue 16 on PostgreSQL): writer processes, each with
// several contexts on threads of their own, on one store (a SQLite file, or a PostgreSQL
// database) increment a shared counter and move items between buckets (a to-one with a
// to-many inverse), under each merge policy, and log every read and every committed write. A checker then reads
// the logs and the store for lost updates (two commits of the same increment), phantom
// increments (more in the store than was ever committed) and broken inverses (an item whose
// bucket does not list it, or a bucket listing an item that names another, read afresh).
// Inverses are not judged inside a writer after its save: another process may move the item
// between that save and the check, so what the writer reads there proves nothing.

/// The shared counter, the items and their buckets; built the same in every process.
private enum HistoryModel {
    static func make() -> NSManagedObjectModel {
        let counter = entity("Counter", [attribute("name", .stringAttributeType), attribute("value", .integer64AttributeType)])
        let item = entity("Item", [attribute("name", .stringAttributeType)])
        let bucket = entity("Bucket", [attribute("name", .stringAttributeType)])
        let owner = relationship("bucket", to: bucket), items = relationship("items", to: item, toMany: true)
        connect(owner, items)
        item.properties += [owner]
        bucket.properties += [items]
        let model = NSManagedObjectModel()
        model.entities = [counter, item, bucket]
        return model
    }

    /// A container over the store at `url` that waits up to 30 s for another process's lock.
    static func container(_ url: URL, type: String) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "History", managedObjectModel: make())
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        description.timeout = 30
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Writer processes, contexts per process (each on a thread of its own), rounds per context.
    static let processes = 3, contexts = 2, rounds = 8, items = 4
    static var writers: Int { processes * contexts }
}

/// One writer process: ``HistoryModel/contexts`` background contexts of one container, each
/// on a thread of its own, run ``historyRounds(_:writer:)`` at once; the lines of all of them
/// are printed at the end.
private func historyWriter(location: String, type: String, process: Int, policy: UInt) throws {
    let url = type == NSSQLiteStoreType ? URL(fileURLWithPath: location) : try #require(URL(string: location))
    let container = try HistoryModel.container(url, type: type)
    let merge = try #require(NSMergePolicyType(rawValue: policy))
    let results = LockedLines()
    DispatchQueue.concurrentPerform(iterations: HistoryModel.contexts) { index in
        let context = container.newBackgroundContext()
        context.stalenessInterval = 0
        context.mergePolicy = NSMergePolicy(merge: merge)
        do {
            results.append(try historyRounds(context, writer: process * HistoryModel.contexts + index))
        } catch {
            results.append(["error \(error)"])
        }
    }
    print(results.lines.joined(separator: "\n"))
}

/// Lines gathered from several threads.
private final class LockedLines: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ lines: [String]) { lock.withLock { storage += lines } }
    var lines: [String] { lock.withLock { storage } }
}

/// One writer: each round reads the counter, writes it plus one, moves one item into its own
/// bucket, and saves; under the error policy a conflict is rolled back and the round redone
/// from a fresh read. One line per event: `read W R VALUE`, `retry W R`,
/// `commit W R READ STORED ITEM BUCKET`.
private func historyRounds(_ context: NSManagedObjectContext, writer process: Int) throws -> [String] {
    try context.performAndWait {
        let counter = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
        let buckets = NSFetchRequest<NSManagedObject>(entityName: "Bucket")
        buckets.predicate = NSPredicate(format: "name == %@", "b\(process)")
        let bucket = try #require(try context.fetch(buckets).first)
        let itemRequest = NSFetchRequest<NSManagedObject>(entityName: "Item")
        itemRequest.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let items = try context.fetch(itemRequest)
        var lines: [String] = []
        for round in 1...HistoryModel.rounds {
            let item = items[(round + process) % items.count]
            for _ in 0..<1_000 {
                context.refresh(counter, mergeChanges: false)
                context.refresh(item, mergeChanges: false)
                let read = counter.value(forKey: "value") as? Int64 ?? -1
                lines.append("read \(process) \(round) \(read)")
                counter.setValue(read + 1, forKey: "value")
                item.setValue(bucket, forKey: "bucket")
                do {
                    try context.save()
                } catch let error as NSError where error.code == NSManagedObjectMergeError {
                    context.rollback()
                    context.refreshAllObjects()
                    lines.append("retry \(process) \(round)")
                    continue
                }
                let stored = counter.value(forKey: "value") as? Int64 ?? -1
                let holder = (item.value(forKey: "bucket") as? NSManagedObject)?.value(forKey: "name") as? String ?? "nil"
                lines.append("commit \(process) \(round) \(read) \(stored) \(item.value(forKey: "name") as? String ?? "?") \(holder)")
                break
            }
        }
        return lines
    }
}

@Suite struct ConflictHistoryTests {
    static let policyNames = ["error", "storeTrump", "objectTrump", "overwrite", "rollback"]

    @Test("writers in 3 processes × 2 contexts on one SQLite file under each merge policy: logged histories show no lost update under the error policy, no phantom increment and no broken inverse under any")
    func histories() async throws {
        try await Self.histories(type: NSSQLiteStoreType) { folder in folder.file("History.sqlite") }
    }

    @Test("writers in 3 processes × 2 contexts on one PostgreSQL database under each merge policy: no lost update under the error policy, no phantom increment, no broken inverse",
          .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
    func historiesOnPostgreSQL() async throws {
        var databases: [PostgreSQLTestDatabase] = []
        try await Self.histories(type: NSPostgreSQLStoreType) { _ in
            let database = try PostgreSQLTestDatabase()
            databases.append(database)
            return database.url
        }
    }

    /// Runs every policy's history on a new store that `store` names.
    static func histories(type: String, store: (TemporaryDirectory) throws -> URL) async throws {
        var summary: [String] = [], operations = 0, anomalies = 0
        for policy in Self.policyNames {
            let folder = try TemporaryDirectory()
            let url = try store(folder)
            let location = type == NSSQLiteStoreType ? url.path : url.absoluteString
            do {
                let container = try HistoryModel.container(url, type: type)
                let context = container.newBackgroundContext()
                try context.performAndWait {
                    let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
                    counter.setValue("shared", forKey: "name")
                    counter.setValue(Int64(0), forKey: "value")
                    let buckets = (0..<HistoryModel.writers).map { index in
                        let bucket = NSEntityDescription.insertNewObject(forEntityName: "Bucket", into: context)
                        bucket.setValue("b\(index)", forKey: "name")
                        return bucket
                    }
                    for index in 0..<HistoryModel.items {
                        let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                        item.setValue("i\(index)", forKey: "name")
                        item.setValue(buckets[0], forKey: "bucket")
                    }
                    try context.save()
                }
            }
            let policyType = try #require(ConflictModels.policies[policy]).mergeType.rawValue
            let logs = await withTaskGroup(of: String.self) { group in
                for process in 0..<HistoryModel.processes {
                    group.addTask {
                        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                            [location = location as String, storeType = type as String, process = process as Int, policy = policyType as UInt] in
                            try historyWriter(location: location, type: storeType, process: process, policy: policy)
                        }
                        return String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
                    }
                }
                return await group.reduce(into: "") { $0 += $1 + "\n" }
            }

            // The log.
            struct Commit { let read: Int64, stored: Int64 }
            var commits: [Commit] = [], retries = 0, reads = 0
            for line in logs.split(separator: "\n") {
                let fields = line.split(separator: " ")
                switch fields.first {
                case "read": reads += 1
                case "retry": retries += 1
                case "commit" where fields.count == 7:
                    commits.append(Commit(read: Int64(fields[3]) ?? -1, stored: Int64(fields[4]) ?? -1))
                default: break
                }
            }
            operations += reads + commits.count
            #expect(commits.count == HistoryModel.writers * HistoryModel.rounds, "\(policy): \(commits.count) commits logged\n\(logs)")

            // The store, read afresh.
            let container = try HistoryModel.container(url, type: type)
            let reader = container.newBackgroundContext()
            let (final, brokenInStore) = try reader.performAndWait {
                let counter = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
                var broken = 0
                for item in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")) {
                    let bucket = item.value(forKey: "bucket") as? NSManagedObject
                    if (bucket?.value(forKey: "items") as? Set<NSManagedObject>)?.contains(item) != true { broken += 1 }
                }
                for bucket in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Bucket")) {
                    for item in bucket.value(forKey: "items") as? Set<NSManagedObject> ?? [] where item.value(forKey: "bucket") as? NSManagedObject !== bucket {
                        broken += 1
                    }
                }
                return (counter.value(forKey: "value") as? Int64 ?? -1, broken)
            }

            // Increments each commit says it made (it stored what it read plus one).
            let effective = commits.filter { $0.stored == $0.read + 1 }
            let phantom = max(0, Int(final) - commits.count)
            let lost = commits.count - Int(final)
            var found = phantom + brokenInStore
            if policy == "error" {
                // Optimistic locking with retries: every commit is one increment, each from a
                // distinct value, all of them in the store.
                let values = effective.map(\.stored).sorted()
                let distinct = values == Array(1...Int64(commits.count)) && effective.count == commits.count
                if lost != 0 || !distinct { found += max(1, abs(lost)) }
                #expect(lost == 0 && distinct, "error policy: \(commits.count) commits, counter \(final), values \(values)")
            }
            #expect(phantom == 0, "\(policy): counter \(final) above \(commits.count) commits")
            #expect(brokenInStore == 0, "\(policy): \(brokenInStore) broken inverses in the store")
            anomalies += found
            summary.append("\(policy) \(commits.count) commits/\(retries) retries/\(max(0, lost)) increments overruled")
        }
        print("conflict histories (\(type)): \(Self.policyNames.count) policies × \(HistoryModel.processes) processes × \(HistoryModel.contexts) contexts × \(HistoryModel.rounds) rounds, \(operations) reads and writes logged (\(summary.joined(separator: ", "))), \(anomalies) anomalies (lost updates under the error policy, phantom increments, broken inverses)")
    }
}
