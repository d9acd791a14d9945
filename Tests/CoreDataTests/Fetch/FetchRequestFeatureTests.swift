import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

/// The rest of `NSFetchRequest` (issue 5, item 6): dictionary results with aggregates,
/// grouping, HAVING and DISTINCT, batches, key-only fetches, sub-entities, affected
/// stores, asynchronous fetches and templates; the same on both store types.
@Suite struct FetchRequestFeatureTests {
    /// Two lists: Groceries (Milk 2, Eggs 12, Bread 1) and Hardware (Nails 100, Glue 1),
    /// and an item without a list (Stray 5).
    static func shopping(_ storeType: String) throws -> TestStack {
        let stack = try TestStack(storeType: storeType)
        func list(_ title: String) -> NSManagedObject {
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
            list.setValue(title, forKey: "title")
            return list
        }
        let groceries = list("Groceries"), hardware = list("Hardware")
        for (name, quantity, owner) in [("Milk", 2, groceries), ("Eggs", 12, groceries), ("Bread", 1, groceries),
                                        ("Nails", 100, hardware), ("Glue", 1, hardware), ("Stray", 5, nil)] {
            let item = stack.insertItem(name)
            item.setValue(quantity, forKey: "quantity")
            item.setValue(Double(quantity) / 2, forKey: "price")
            item.setValue(owner, forKey: "list")
        }
        try stack.context.save()
        return stack
    }

    static func aggregate(_ name: String, _ function: String, _ key: String,
                          _ type: NSAttributeType = .integer64AttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: key)])
        description.expressionResultType = type
        return description
    }

    @Test("dictionary results hold the requested attributes, key paths and to-one IDs", arguments: allStoreTypes)
    func dictionaries(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "list", "list.title"]
        request.predicate = NSPredicate(format: "quantity < 10")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let rows = try context.fetch(request)
        #expect(rows.map { $0["name"] as? String } == ["Bread", "Glue", "Milk", "Stray"])
        #expect(rows[0]["list.title"] as? String == "Groceries")
        #expect(rows[0]["list"] is NSManagedObjectID)
        #expect(rows[3]["list"] == nil)
        #expect(rows[0]["quantity"] == nil)
    }

    @Test("dictionaries of plain attributes: filtered, sorted, paged; objects the context holds read from memory",
          arguments: allStoreTypes)
    func attributeDictionaries(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "quantity", "price", "purchased"]
        request.predicate = NSPredicate(format: "quantity > 1")
        request.sortDescriptors = [NSSortDescriptor(key: "quantity", ascending: false)]
        request.fetchOffset = 1
        request.fetchLimit = 2
        let rows = try context.fetch(request)
        #expect(rows.map { $0["name"] as? String } == ["Eggs", "Stray"])
        #expect(rows.map { $0["quantity"] as? Int } == [12, 5])
        #expect(rows.map { $0["price"] as? Double } == [6, 2.5])
        #expect(rows.map { ($0["purchased"] as? NSNumber)?.boolValue } == [false, false])
        #expect(rows[0].count == 4)
        if storeType != NSInMemoryStoreType { #expect(context.registeredObjects.isEmpty) }

        // Another context saves a change; this one still holds the old values in memory,
        // and reads them, as a fetch of objects would.
        let objects = NSFetchRequest<ShoppingItem>(entityName: "ShoppingItem")
        objects.predicate = NSPredicate(format: "name == 'Eggs'")
        let eggs = try #require(try context.fetch(objects).first)
        #expect(eggs.quantity == 12)
        let other = stack.newContext()
        let theirs = try #require(try other.fetch(objects).first)
        theirs.quantity = 13
        try other.save()
        request.fetchOffset = 0
        request.fetchLimit = 0
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let again = try context.fetch(request)
        #expect(again.map { $0["name"] as? String } == ["Eggs", "Milk", "Nails", "Stray"])
        #expect(again.map { $0["quantity"] as? Int } == [12, 2, 100, 5])
        #expect(try other.fetch(request).map { $0["quantity"] as? Int } == [13, 2, 100, 5])

        // Unsaved changes: the object path, as before.
        eggs.quantity = 0
        #expect(try context.fetch(request).map { $0["name"] as? String } == ["Milk", "Nails", "Stray"])
    }

    @Test("aggregates grouped by a to-one, filtered by HAVING, sorted by the group key", arguments: allStoreTypes)
    func grouping(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [
            "list.title", Self.aggregate("items", "count:", "name"), Self.aggregate("total", "sum:", "quantity"),
            Self.aggregate("least", "min:", "quantity"), Self.aggregate("most", "max:", "quantity"),
            Self.aggregate("mean", "average:", "price", .doubleAttributeType),
        ]
        request.propertiesToGroupBy = ["list.title"]
        request.havingPredicate = NSPredicate(format: "items > 1")
        request.sortDescriptors = [NSSortDescriptor(key: "list.title", ascending: false)]
        let rows = try context.fetch(request)
        #expect(rows.map { $0["list.title"] as? String } == ["Hardware", "Groceries"])
        #expect(rows[0]["items"] as? Int == 2)
        #expect(rows[0]["total"] as? Int == 101)
        #expect(rows[1]["least"] as? Int == 1)
        #expect(rows[1]["most"] as? Int == 12)
        #expect(rows[1]["mean"] as? Double == 2.5)
    }

    @Test("aggregates without GROUP BY give one row; a stray property is an error", arguments: allStoreTypes)
    func wholeTable(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [Self.aggregate("total", "sum:", "quantity")]
        #expect(try context.fetch(request).map { $0["total"] as? Int } == [121])
        request.propertiesToFetch = ["name", Self.aggregate("total", "sum:", "quantity")]
        request.propertiesToGroupBy = ["list"]
        let error = try #require(throws: NSError.self) { try context.fetch(request) }
        #expect(error.localizedDescription.contains("GROUP BY"))
        let objects = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        objects.propertiesToGroupBy = ["list"]
        let misuse = try #require(throws: NSError.self) { try context.fetch(objects) }
        #expect(misuse.localizedDescription.contains("NSDictionaryResultType"))
    }

    static let sqlStoreTypes = allStoreTypes.filter { $0 != NSInMemoryStoreType }

    @Test("a SQL store computes grouped aggregates itself: no object is fetched, and the rows equal memory's",
          arguments: sqlStoreTypes)
    func aggregatesInSQL(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.predicate = NSPredicate(format: "quantity > 1")
        request.propertiesToFetch = [
            "list.title", Self.aggregate("items", "count:", "name"), Self.aggregate("total", "sum:", "quantity"),
            Self.aggregate("least", "min:", "price", .doubleAttributeType),
            Self.aggregate("mean", "average:", "quantity", .doubleAttributeType),
        ]
        request.propertiesToGroupBy = ["list.title"]
        request.sortDescriptors = [NSSortDescriptor(key: "list.title", ascending: true)]
        let context = stack.newContext()
        context.retainsRegisteredObjects = true
        let rows = try context.fetch(request)
        // The in-memory path fetches (and registers) the matching objects; SQL fetches none.
        #expect(context.registeredObjects.isEmpty)
        #expect(rows.map { $0["list.title"] as? String } == [nil, "Groceries", "Hardware"])
        #expect(rows.map { $0["items"] as? Int } == [1, 2, 1])
        #expect(rows.map { $0["total"] as? Int } == [5, 14, 100])
        #expect(rows.map { $0["least"] as? Double } == [2.5, 1, 50])
        #expect(rows.map { $0["mean"] as? Double } == [5, 7, 100])

        // The same request over an in-memory store gives the same rows.
        let memory = try Self.shopping(NSInMemoryStoreType)
        #expect(try memory.newContext().fetch(request) == rows)

        // Over no rows: one row without GROUP BY, sum 0 and the rest absent (nil), as memory gives.
        request.predicate = NSPredicate(format: "quantity > 1000")
        request.propertiesToFetch = [Self.aggregate("total", "sum:", "quantity"), Self.aggregate("most", "max:", "quantity")]
        request.propertiesToGroupBy = nil
        let empty = try context.fetch(request)
        #expect(empty.count == 1 && empty.first?["total"] as? Int == 0 && empty.first?["most"] == nil)
        #expect(try memory.newContext().fetch(request) == empty)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test("returnsDistinctResults removes duplicate rows", arguments: allStoreTypes)
    func distinct(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["list.title"]
        request.sortDescriptors = [NSSortDescriptor(key: "list.title", ascending: true)]
        request.returnsDistinctResults = true
        let titles = try context.fetch(request).map { $0["list.title"] as? String }
        #expect(titles == [nil, "Groceries", "Hardware"])
    }

    @Test("fetchBatchSize returns every object and reads rows one batch at a time")
    func batches() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        for i in 0..<25 {
            stack.insertItem(String(format: "item %02d", i)).setValue(i, forKey: "quantity")
        }
        try stack.context.save()
        // A second coordinator: its row cache starts empty.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: stack.directory.appendingPathComponent("Test.sqlite"), options: nil)
        let log = try SQLiteQueryCompilationTests.StatementLog(coordinator)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.sortDescriptors = [NSSortDescriptor(key: "quantity", ascending: true)]
        request.predicate = NSPredicate(format: "quantity >= 0")
        request.fetchBatchSize = 10
        request.returnsObjectsAsFaults = false
        let items = try context.fetch(request)
        #expect(items.count == 25)
        #expect(log.statements.count == 1)
        #expect(items.allSatisfy { $0.isFault })
        #expect(items[0].value(forKey: "quantity") as? Int == 0)
        #expect(log.statements.count == 2)
        #expect(items[9].value(forKey: "name") as? String == "item 09")
        #expect(items[3].value(forKey: "quantity") as? Int == 3)
        #expect(log.statements.count == 2)
        #expect(items[10].value(forKey: "quantity") as? Int == 10)
        #expect(log.statements.count == 3)
        #expect(items.map { $0.value(forKey: "quantity") as? Int } == Array(0..<25))
        #expect(log.statements.count == 4)
    }

    @Test("includesPropertyValues = false and ID results read only keys", arguments: allStoreTypes)
    func keysOnly(_ storeType: String) throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.includesPropertyValues = false
        request.predicate = NSPredicate(format: "list.title == 'Groceries'")
        let items = try context.fetch(request)
        #expect(items.count == 3)
        // The in-memory store holds its rows in memory: only SQLite skips reading them.
        if storeType == NSSQLiteStoreType { #expect(items.allSatisfy { $0.isFault }) }
        #expect(Set(items.compactMap { $0.value(forKey: "name") as? String }) == ["Milk", "Eggs", "Bread"])
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "ShoppingItem")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = request.predicate
        #expect(Set(try context.fetch(ids)) == Set(items.map(\.objectID)))
    }

    @Test("A fetch without property values hands back the objects the context holds, in order, and faults of each row's own entity for the rest",
          arguments: allStoreTypes)
    func keysOnlyRegistered(_ storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: Models.library())
        for (i, name) in ["Message", "TextMessage", "SystemMessage", "TextMessage", "Message"].enumerated() {
            NSEntityDescription.insertNewObject(forEntityName: name, into: stack.context)
                .setValue(Date(timeIntervalSinceReferenceDate: Double(i)), forKey: "sentAt")
        }
        try stack.context.save()
        let context = stack.newContext()
        let sorted = NSFetchRequest<NSManagedObject>(entityName: "Message")
        sorted.sortDescriptors = [NSSortDescriptor(key: "sentAt", ascending: true)]
        let third = try context.performAndWait {
            let request = sorted.copy() as! NSFetchRequest<NSManagedObject>
            request.fetchOffset = 2
            request.fetchLimit = 1
            return try context.fetch(request)[0]
        }
        try context.performAndWait {
            let request = sorted.copy() as! NSFetchRequest<NSManagedObject>
            request.includesPropertyValues = false
            let objects = try context.fetch(request)
            #expect(objects.map { $0.entity.name } == ["Message", "TextMessage", "SystemMessage", "TextMessage", "Message"])
            #expect(objects[2] === third)
            #expect(Set(objects.map(ObjectIdentifier.init)).count == 5)
            #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
            #expect(objects.map { ($0.value(forKey: "sentAt") as? Date)?.timeIntervalSinceReferenceDate } == [0, 1, 2, 3, 4])
            // Fetched again: the same objects.
            let again = try context.fetch(request)
            #expect(zip(objects, again).allSatisfy { $0 === $1 })
        }
    }

    @Test("includesSubentities decides whether sub-entities' objects are fetched", arguments: allStoreTypes)
    func subentities(_ storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: Models.library())
        for name in ["Message", "TextMessage", "TextMessage", "SystemMessage"] {
            NSEntityDescription.insertNewObject(forEntityName: name, into: stack.context)
                .setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "sentAt")
        }
        try stack.context.save()
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Message")
        request.predicate = NSPredicate(format: "sentAt != nil")
        #expect(try context.fetch(request).count == 4)
        #expect(try context.count(for: request) == 4)
        request.includesSubentities = false
        #expect(try context.fetch(request).count == 1)
        #expect(try context.count(for: request) == 1)
    }

    @Test("affectedStores limits a fetch to the named stores")
    func affectedStores() throws {
        let stack = try Self.shopping(NSSQLiteStoreType)
        let other = try stack.coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil,
                                                             at: nil, options: nil)
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "quantity > 1")
        #expect(try context.fetch(request).count == 4)
        request.affectedStores = [other]
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.count(for: request) == 0)
    }

    @Test("an asynchronous fetch completes on the context's queue, and can be cancelled", arguments: allStoreTypes)
    func asynchronous(_ storeType: String) async throws {
        let stack = try Self.shopping(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "quantity > 1")
        let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
                continuation.resume(returning: result.finalResult?.count ?? -1)
            }
            _ = try? context.execute(asynchronous)
        }
        #expect(finished == 4)

        let parent = Progress(totalUnitCount: 1)
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<NSError?, Never>) in
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
                #expect(result.finalResult == nil)
                continuation.resume(returning: result.operationError as NSError?)
            }
            context.performAndWait {
                parent.becomeCurrent(withPendingUnitCount: 1)
                _ = try? context.execute(asynchronous)
                parent.resignCurrent()
                parent.cancel()
            }
        }
        #expect(error?.code == NSUserCancelledError)
    }

    @Test("a fetch request template from a model file fetches with its variables substituted", arguments: allStoreTypes)
    func template(_ storeType: String) throws {
        let temporary = try TemporaryDirectory()
        let folder = temporary.file("T.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" userDefinedModelVersionIdentifier="">
            <entity name="Item">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="quantity" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            </entity>
            <fetchRequest name="Plenty" entity="Item" predicateString="quantity &gt;= $MIN AND name BEGINSWITH[c] $PREFIX"/>
        </model>
        """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try NSManagedObjectModel.load(contentsOf: folder)
        let stack = try TestStack(storeType: storeType, model: model)
        for (name, quantity) in [("apple", 5), ("Avocado", 1), ("banana", 9), ("Apricot", 7)] {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: stack.context)
            item.setValue(name, forKey: "name")
            item.setValue(quantity, forKey: "quantity")
        }
        try stack.context.save()
        let request = try #require(model.fetchRequestFromTemplate(withName: "Plenty", substitutionVariables: ["MIN": 5, "PREFIX": "a"]))
        let context = stack.newContext()
        let names = try context.fetch(request).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
        #expect(Set(names) == ["apple", "Apricot"])
    }
}

/// `NSSortDescriptor(keyPath:ascending:)` on `@Managed` properties (issue 5, item 5).
@Suite struct KeyPathSortDescriptorTests {
    @Test("a Swift key path to a @Managed property sorts by its key, in SQL and in memory",
          arguments: allStoreTypes)
    func keyPaths(_ storeType: String) throws {
        let stack = try FetchRequestFeatureTests.shopping(storeType)
        let context = stack.newContext()
        #expect(NSSortDescriptor(keyPath: \ShoppingItem.quantity, ascending: false).key == "quantity")
        #expect(NSSortDescriptor(keyPath: \ShoppingItem.name, ascending: true).key == "name")
        #expect(NSSortDescriptor(keyPath: \ShoppingItem.purchased, ascending: true).key == "purchased")
        #expect(NSSortDescriptor(keyPath: \ShoppingItem.price, ascending: true).key == "price")
        let request = NSFetchRequest<ShoppingItem>(entityName: "ShoppingItem")
        request.sortDescriptors = [NSSortDescriptor(keyPath: \ShoppingItem.quantity, ascending: false),
                                   NSSortDescriptor(keyPath: \ShoppingItem.name, ascending: true)]
        request.fetchLimit = 4
        #expect(try context.fetch(request).map(\.name) == ["Nails", "Eggs", "Stray", "Milk"])
    }
}
