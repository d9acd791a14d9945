import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The PostgreSQL store through Apple's API: containers and coordinators on a `postgresql://`
/// URL, each test on its own database of the test cluster.
@Suite("PostgreSQL store", .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
struct PostgreSQLStoreTests {
    final class ShopContainer: NSPersistentContainer, @unchecked Sendable {}

    /// A container on `url`, its store loaded.
    func makeContainer(_ url: URL, model: NSManagedObjectModel = PostgreSQLStoreTests.model,
                       serializable: Bool = false, remoteChanges: Bool = false,
                       migrates: Bool = true) throws -> NSPersistentContainer {
        let container = ShopContainer(name: "Shop", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = NSPostgreSQLStoreType
        description.shouldMigrateStoreAutomatically = migrates
        if serializable { description.setOption(true as NSNumber, forKey: NSPostgreSQLSerializableOption) }
        if remoteChanges {
            description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    static let model = TestModel.make()

    @Test("objects saved by one container are read back by another, every attribute type intact")
    func roundTrip() throws {
        let database = try PostgreSQLTestDatabase()
        let writer = try makeContainer(database.url)
        let context = writer.viewContext
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
        list.setValue("Groceries", forKey: "title")
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        item.setValuesForKeys([
            "name": "Crème fraîche", "quantity": Int64(1) << 40, "count16": Int16(-7), "price": 2.5,
            "purchased": true, "addedAt": date, "identifier": uuid, "photo": Data([0, 0x5c, 0xff]),
            "link": URL(string: "https://example.com/a?b=c")!, "cost": NSDecimalNumber(string: "10.11"),
        ])
        item.setValue(list, forKey: "list")
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("dairy", forKey: "label")
        item.mutableSetValue(forKey: "tags").add(tag)
        try context.save()

        let reader = try makeContainer(database.url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        let fetched = try reader.viewContext.fetch(request)
        try #require(fetched.count == 1)
        let read = fetched[0]
        #expect(read.value(forKey: "name") as? String == "Crème fraîche")
        #expect(read.value(forKey: "quantity") as? Int64 == Int64(1) << 40)
        #expect(read.value(forKey: "count16") as? Int16 == -7)
        #expect(read.value(forKey: "price") as? Double == 2.5)
        #expect(read.value(forKey: "purchased") as? Bool == true)
        #expect(read.value(forKey: "addedAt") as? Date == date)
        #expect(read.value(forKey: "identifier") as? UUID == uuid)
        #expect(read.value(forKey: "photo") as? Data == Data([0, 0x5c, 0xff]))
        #expect(read.value(forKey: "link") as? URL == URL(string: "https://example.com/a?b=c"))
        #expect((read.value(forKey: "cost") as? NSDecimalNumber)?.stringValue == "10.11")
        #expect((read.value(forKey: "list") as? NSManagedObject)?.value(forKey: "title") as? String == "Groceries")
        let tags = read.value(forKey: "tags") as? Set<NSManagedObject>
        #expect(tags?.map { $0.value(forKey: "label") as? String } == ["dairy"])
        // The other side of the many-to-many and of the one-to-many, read from the store.
        let readList = read.value(forKey: "list") as? NSManagedObject
        #expect((readList?.value(forKey: "items") as? Set<NSManagedObject>)?.count == 1)
        #expect(reader.persistentStoreCoordinator.persistentStores.first?.type == NSPostgreSQLStoreType)
    }

    @Test("the store is laid out as Core Data lays out its SQLite stores")
    func layout() throws {
        let database = try PostgreSQLTestDatabase()
        let container = try makeContainer(database.url)
        for name in ["a", "b", "c"] {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: container.viewContext)
            item.setValue(name, forKey: "name")
        }
        try container.viewContext.save()
        // Entities are numbered in name order: ShoppingItem 1, ShoppingList 2, Tag 3.
        let tables = try database.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").map { $0[0] ?? "" }
        #expect(tables == ["z_1tags", "z_metadata", "z_modelcache", "z_primarykey", "zshoppingitem", "zshoppinglist", "ztag"])
        let rows = try database.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ZSHOPPINGITEM ORDER BY ZNAME")
        #expect(rows.map { [$0[1], $0[2], $0[3]] } == [["1", "1", "a"], ["1", "1", "b"], ["1", "1", "c"]])
        #expect(Set(rows.map { $0[0] }) == ["1", "2", "3"])
        #expect(try database.rows("SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == [["1", "ShoppingItem", "3"], ["2", "ShoppingList", "0"], ["3", "Tag", "0"]])
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.metadata[NSStoreTypeKey] as? String == NSPostgreSQLStoreType)
        #expect((store.metadata[NSStoreModelVersionHashesKey] as? [String: Data])?.count == 3)
        #expect(try database.rows("SELECT Z_UUID FROM Z_METADATA") == [[store.identifier]])
    }

    @Test("predicates and sorts select what memory selects, string options included")
    func predicates() throws {
        let database = try PostgreSQLTestDatabase()
        let container = try makeContainer(database.url)
        let context = container.viewContext
        let names = ["apple", "Banana", "cherry", "Äpfel", "date"]
        for (i, name) in names.enumerated() {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
            item.setValuesForKeys(["name": name, "quantity": Int64(i), "price": Double(i) * 1.5])
        }
        try context.save()
        let fresh = try makeContainer(database.url).viewContext
        func fetchNames(_ format: String, _ args: [Any] = [], sort: [NSSortDescriptor] = [NSSortDescriptor(key: "name", ascending: true)]) throws -> [String] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
            request.predicate = NSPredicate(format: format, argumentArray: args)
            request.sortDescriptors = sort
            return try fresh.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(try fetchNames("quantity >= 2") == ["cherry", "date", "Äpfel"])
        #expect(try fetchNames("price < %@ OR name == %@", [2.0, "date"]) == ["Banana", "apple", "date"])
        #expect(try fetchNames("name BEGINSWITH[c] 'a'") == ["apple"])
        #expect(try fetchNames("name BEGINSWITH[cd] 'a'") == ["apple", "Äpfel"])
        #expect(try fetchNames("NOT (name CONTAINS 'e')") == ["Banana"])
        #expect(try fetchNames("quantity IN %@", [[1, 3]]) == ["Banana", "Äpfel"])
        #expect(try fetchNames("TRUEPREDICATE", sort: [NSSortDescriptor(key: "quantity", ascending: false)])
                == ["date", "Äpfel", "cherry", "Banana", "apple"])
        let count = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        count.predicate = NSPredicate(format: "price > 2")
        #expect(try fresh.count(for: count) == 3)
        count.fetchLimit = 2
        #expect(try fresh.fetch(count).count == 2)
    }

    @Test("two coordinators writing the same row: the second save conflicts, the merge policy settles it")
    func optimisticLocking() throws {
        let database = try PostgreSQLTestDatabase()
        let first = try makeContainer(database.url)
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: first.viewContext)
        item.setValuesForKeys(["name": "milk", "quantity": Int64(1)])
        try first.viewContext.save()

        let second = try makeContainer(database.url)
        let other = try #require(try second.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")).first)
        #expect(other.value(forKey: "name") as? String == "milk")

        item.setValue(Int64(2), forKey: "quantity")
        try first.viewContext.save()

        other.setValue(Int64(5), forKey: "quantity")
        do {
            try second.viewContext.save()
            Issue.record("a stale write was saved")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError)
        }
        second.viewContext.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        try second.viewContext.save()
        #expect(try database.rows("SELECT ZQUANTITY, Z_OPT FROM ZSHOPPINGITEM") == [["5", "3"]])
    }

    @Test("coordinators inserting at once never get the same key")
    func concurrentKeys() async throws {
        let database = try PostgreSQLTestDatabase()
        _ = try makeContainer(database.url)
        let url = database.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let container = try makeContainer(url)
                    let context = container.newBackgroundContext()
                    try context.performAndWait {
                        for round in 0..<5 {
                            for n in 0..<10 {
                                let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
                                item.setValue("w\(writer)-\(round)-\(n)", forKey: "name")
                            }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try database.rows("SELECT COUNT(*), COUNT(DISTINCT Z_PK), MAX(Z_PK) FROM ZSHOPPINGITEM") == [["200", "200", "200"]])
    }

    @Test("four coordinators incrementing one counter, retrying on conflicts, lose no increment",
          arguments: [false, true])
    func sharedCounter(serializable: Bool) async throws {
        let database = try PostgreSQLTestDatabase()
        let setup = try makeContainer(database.url)
        let counter = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: setup.viewContext)
        counter.setValuesForKeys(["name": "counter", "quantity": Int64(0)])
        try setup.viewContext.save()
        let url = database.url
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let container = try makeContainer(url, serializable: serializable)
                    let context = container.newBackgroundContext()
                    return try context.performAndWait {
                        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
                        let item = try #require(try context.fetch(request).first)
                        var conflicts = 0
                        for _ in 0..<10 {
                            while true {
                                let quantity = item.value(forKey: "quantity") as? Int64 ?? 0
                                item.setValue(quantity + 1, forKey: "quantity")
                                do {
                                    try context.save()
                                    break
                                } catch let error as NSError where error.code == NSManagedObjectMergeError {
                                    // Another writer got there first: read its value, try again.
                                    conflicts += 1
                                    context.refresh(item, mergeChanges: false)
                                }
                            }
                        }
                        return conflicts
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(try database.rows("SELECT ZQUANTITY, Z_OPT FROM ZSHOPPINGITEM") == [["40", "41"]])
        print("shared counter on PostgreSQL\(serializable ? " (SERIALIZABLE)" : ""): 40 increments by 4 writers, \(conflicts) conflicts retried")
    }

    @Test("a server that is not there fails loadPersistentStores with a clear error")
    func serverDown() throws {
        let folder = try TemporaryDirectory()
        let host = folder.url.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let url = try #require(URL(string: "postgresql://nobody@/shop?host=\(host)&connect_timeout=2"))
        do {
            _ = try makeContainer(url)
            Issue.record("a store opened without a server")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreOpenError)
            #expect(error.localizedDescription.contains("PostgreSQL"))
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError) != nil)
        }
    }

    @Test("a dictionary fetch reads only the requested columns: a value out of another attribute's range does not fail it")
    func dictionaryReadsRequestedColumns() throws {
        let database = try PostgreSQLTestDatabase()
        let container = try makeContainer(database.url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, quantity) in [("Milk", 2), ("Eggs", 12)] {
                let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
                item.setValue(name, forKey: "name")
                item.setValue(quantity, forKey: "quantity")
            }
            try context.save()
        }
        // A value no Integer 16 attribute holds: reading whole rows fails on it.
        _ = try database.rows("UPDATE ZSHOPPINGITEM SET ZCOUNT16 = 100000")
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "quantity"]
            request.sortDescriptors = [NSSortDescriptor(key: "quantity", ascending: true)]
            let rows = try reader.fetch(request)
            #expect(rows.map { $0["name"] as? String } == ["Milk", "Eggs"])
            #expect(rows.map { $0["quantity"] as? Int } == [2, 12])
            #expect(throws: NSError.self) { try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) }
        }
    }

    @Test("a store opened with another model version is refused with the version hash error")
    func incompatibleModel() throws {
        let database = try PostgreSQLTestDatabase()
        _ = try makeContainer(database.url)
        let other = NSManagedObjectModel()
        other.entities = [entity("Note", [attribute("text", .stringAttributeType)])]
        do {
            _ = try makeContainer(database.url, model: other, migrates: false)
            Issue.record("an incompatible store opened")
        } catch let error as NSError {
            #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        }
        // With the container's default options it is migrated, from the model the store keeps
        // in Z_MODELCACHE (no model version beside `other` matches it), as a SQLite store is.
        _ = try makeContainer(database.url, model: other)
        #expect(try NSManagedObjectModel(cachedInStoreAt: database.url).entitiesByName.keys.sorted() == ["Note"])
    }

    @Test("a backend killed in the middle of a save loses nothing committed, keeps nothing partial, and the store reconnects")
    func killedBackend() throws {
        let database = try PostgreSQLTestDatabase()
        let container = try makeContainer(database.url)
        let context = container.viewContext
        let kept = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        kept.setValue("kept", forKey: "name")
        try context.save()
        // Every backend of this database but ours (the test's own raw connection) goes.
        _ = try database.rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        for n in 0..<3 {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
            item.setValue("new \(n)", forKey: "name")
        }
        kept.setValue("changed", forKey: "name")
        // The save either fails with a Cocoa error (the connection broke under it) or, having
        // reconnected first, succeeds; never half of it.
        do {
            try context.save()
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            let after = try database.rows("SELECT ZNAME FROM ZSHOPPINGITEM ORDER BY ZNAME")
            #expect(after == [["kept"]])
            try context.save()
        }
        let names = try database.rows("SELECT ZNAME FROM ZSHOPPINGITEM ORDER BY ZNAME").map { $0[0] ?? "" }
        #expect(names == ["changed", "new 0", "new 1", "new 2"])
    }

    @Test("a save through another coordinator posts NSPersistentStoreRemoteChange here (LISTEN/NOTIFY), one per save")
    func remoteChangeNotifications() async throws {
        let database = try PostgreSQLTestDatabase()
        let writer = try makeContainer(database.url)
        let watcher = try makeContainer(database.url, remoteChanges: true)
        let recorder = RemoteChangeRecorder(watcher.persistentStoreCoordinator)

        let context = writer.newBackgroundContext()
        let list = try context.performAndWait {
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
            list.setValue("Hardware", forKey: "title")
            try context.save()
            return list.objectID
        }
        let received = await recorder.wait(for: 1)
        try #require(received.count == 1)
        #expect(received[0].object === watcher.persistentStoreCoordinator)
        #expect(received[0].userInfo[NSPersistentStoreURLKey] as? URL == database.url)
        #expect(received[0].userInfo[NSStoreUUIDKey] as? String
            == watcher.persistentStoreCoordinator.persistentStores.first?.identifier)

        try context.performAndWait {
            try context.existingObject(with: list).setValue("Tools", forKey: "title")
            try context.save()
        }
        _ = await recorder.wait(for: 2)
        // A context with nothing to save sends nothing.
        try context.performAndWait { try context.save() }
        try? await Task.sleep(nanoseconds: 300_000_000)
        #expect(recorder.all.count == 2)
    }

    @Test("a to-many member whose Z_ENT is another entity's is an error naming table, row and column, as on SQLite (one shared reader)")
    func toManyMemberOfAnotherEntity() throws {
        let database = try PostgreSQLTestDatabase()
        let writer = try makeContainer(database.url)
        let context = writer.viewContext
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
        list.setValue("Groceries", forKey: "title")
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue("Milk", forKey: "name")
        item.setValue(list, forKey: "list")
        try context.save()
        let tag = try #require(try PostgreSQLTestDatabase.run(
            "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'", on: database.url).first?.first ?? nil)
        let milk = try #require(try PostgreSQLTestDatabase.run(
            "SELECT Z_PK FROM ZSHOPPINGITEM", on: database.url).first?.first ?? nil)
        _ = try PostgreSQLTestDatabase.run("UPDATE ZSHOPPINGITEM SET Z_ENT = \(tag)", on: database.url)

        let reader = try makeContainer(database.url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")
        request.relationshipKeyPathsForPrefetching = ["items"]
        let error = #expect(throws: NSError.self) { try reader.viewContext.fetch(request) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreOperationError)
        let message = error?.localizedDescription ?? ""
        for part in ["PostgreSQL store", "table ZSHOPPINGITEM", "Z_PK = \(milk)", "column Z_ENT", "(Tag)",
                     "ShoppingList.items", "needs ShoppingItem"] {
            #expect(message.contains(part), "\(message) does not name \(part)")
        }
        #expect(error?.userInfo["table"] as? String == "ZSHOPPINGITEM")
        #expect(error?.userInfo[NSURLErrorKey] as? URL == database.url)
    }
}
