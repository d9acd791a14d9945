import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The whole stack over a real SQLite file.
@Suite struct SQLiteStackTests {
    @Test("objects, to-one, to-many and many-to-many survive closing and reopening the store")
    func persistsAcrossCoordinators() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let list = ShoppingList(context: stack.context)
        list.title = "Weekly"
        let milk = ShoppingItem(context: stack.context)
        milk.name = "Milk"
        milk.list = list
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
        tag.setValue("dairy", forKey: "label")
        milk.setValue(Set([tag]), forKey: "tags")
        milk.setValue(Date(timeIntervalSinceReferenceDate: 86400), forKey: "addedAt")
        milk.setValue(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), forKey: "identifier")
        try stack.context.save()
        let url = stack.directory.appendingPathComponent("Test.sqlite")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let lists = try context.fetch(NSFetchRequest<ShoppingList>(entityName: "ShoppingList"))
        let reopened = try #require(lists.first)
        #expect(reopened.title == "Weekly")
        let item = try #require(reopened.items.first)
        #expect(item.name == "Milk")
        #expect(item.value(forKey: "addedAt") as? Date == Date(timeIntervalSinceReferenceDate: 86400))
        #expect(item.value(forKey: "identifier") as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let tags = try #require(item.value(forKey: "tags") as? Set<NSManagedObject>)
        #expect(tags.first?.value(forKey: "label") as? String == "dairy")
    }

    @Test("a string with NUL characters is saved and read back whole, through a fresh coordinator")
    func embeddedNULs() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("a\u{0}b\u{0}c")
        try stack.context.save()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try coordinator.addPersistentStore(type: .sqlite, at: stack.directory.appendingPathComponent("Test.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: item.objectID.uriRepresentation()))
        let reread = try context.existingObject(with: id)
        #expect(reread.value(forKey: "name") as? String == "a\u{0}b\u{0}c")
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "name == %@", "a\u{0}b\u{0}c")
        #expect(try context.fetch(request).count == 1)
    }

    @Test("the file has Core Data's layout: Z_ tables, Z_PK/Z_ENT/Z_OPT, dates in seconds since 2001")
    func fileLayout() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Milk")
        item.setValue(Date(timeIntervalSinceReferenceDate: 100), forKey: "addedAt")
        try stack.context.save()
        let url = stack.directory.appendingPathComponent("Test.sqlite")
        let tables = try sqlite(url, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        for table in ["ZSHOPPINGITEM", "ZSHOPPINGLIST", "ZTAG", "Z_PRIMARYKEY", "Z_METADATA"] {
            #expect(tables.contains(table))
        }
        #expect(tables.contains { $0.hasPrefix("Z_") && $0.hasSuffix("TAGS") || $0.hasSuffix("ITEMS") && $0.hasPrefix("Z_") })
        let rows = try sqlite(url, "SELECT Z_PK, Z_OPT, ZNAME, ZADDEDAT FROM ZSHOPPINGITEM")
        // TIMESTAMP has NUMERIC affinity: a whole number of seconds is stored as an integer.
        #expect(rows == ["1|1|Milk|100"])
        #expect(try sqlite(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME='ShoppingItem'") == ["ShoppingItem|1"])
        item.setValue("Oat milk", forKey: "name")
        try stack.context.save()
        #expect(try sqlite(url, "SELECT Z_OPT FROM ZSHOPPINGITEM") == ["2"])
    }

    @Test("store metadata carries the type, UUID and Apple's version hashes")
    func metadata() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let url = stack.directory.appendingPathComponent("Test.sqlite")
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(metadata[NSStoreUUIDKey] as? String == stack.coordinator.persistentStores.first?.identifier)
        #expect(stack.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    /// Runs SQL through the sqlite3 shell, one output line per row.
    func sqlite(_ url: URL, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [url.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }
}
