import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Rows no save through the model can write, made with raw SQL on a store's copy: each
/// read of them throws `NSPersistentStoreOperationError` naming the file, the table, the
/// row's `Z_PK` and the column, instead of wrapping, skipping or trapping.
@Suite struct SQLiteCorruptStoreTests {
    /// A store holding the list "Weekly" with the items Milk (count16 = 5) and Bread, and
    /// a tag; `corrupt` is run on it with raw SQL once it is closed.
    static func makeStore(in folder: TemporaryDirectory, corrupt sql: (RawDatabase) throws -> Void) throws -> URL {
        let url = folder.file("Shop.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
        list.setValue("Weekly", forKey: "title")
        for name in ["Milk", "Bread"] {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
            item.setValue(name, forKey: "name")
            item.setValue(list, forKey: "list")
            if name == "Milk" { item.setValue(Int16(5), forKey: "count16") }
        }
        NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue("dairy", forKey: "label")
        try context.save()
        try coordinator.remove(store)
        try sql(RawDatabase(url, readOnly: false))
        return url
    }

    /// A new context on a new coordinator over `url`.
    static func open(_ url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func pk(_ database: RawDatabase, item name: String) throws -> Int64 {
        try #require(try database.scalar("SELECT Z_PK FROM ZSHOPPINGITEM WHERE ZNAME = '\(name)'") as? Int64)
    }

    static func entityID(_ database: RawDatabase, _ name: String) throws -> Int64 {
        try #require(try database.scalar("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'") as? Int64)
    }

    /// Checks the error names the store, the table, the row and the column.
    static func expectNames(
        _ error: NSError?, _ url: URL, table: String, pk: Int64, column: String, _ more: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == NSPersistentStoreOperationError, sourceLocation: sourceLocation)
        let message = error.localizedDescription
        for part in [url.path, "table \(table)", "Z_PK = \(pk)", "column \(column)"] + more {
            #expect(message.contains(part), "\(message) does not name \(part)", sourceLocation: sourceLocation)
        }
        #expect(error.userInfo["table"] as? String == table, sourceLocation: sourceLocation)
        #expect(error.userInfo["Z_PK"] as? Int64 == pk, sourceLocation: sourceLocation)
        #expect(error.userInfo["column"] as? String == column, sourceLocation: sourceLocation)
        #expect(error.userInfo[NSFilePathErrorKey] as? String == url.path, sourceLocation: sourceLocation)
    }

    // MARK: - Integers wider than their attribute

    @Test("an Integer 16 column holding 70000 is an error naming table, row and column, not a wrapped number")
    func integer16Overflow() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var milk: Int64 = 0
        let url = try Self.makeStore(in: folder) { database in
            milk = try Self.pk(database, item: "Milk")
            try database.execute("UPDATE ZSHOPPINGITEM SET ZCOUNT16 = 70000 WHERE Z_PK = \(milk)")
        }
        let context = try Self.open(url)
        let error = #expect(throws: NSError.self) {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        }
        Self.expectNames(error, url, table: "ZSHOPPINGITEM", pk: milk, column: "ZCOUNT16",
                         ["70000", "ShoppingItem.count16 (Integer 16)"])

        // Dictionary results read the column through their own path.
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "count16"]
        let dictionaryError = #expect(throws: NSError.self) { try context.fetch(request) }
        Self.expectNames(dictionaryError, url, table: "ZSHOPPINGITEM", pk: milk, column: "ZCOUNT16")
    }

    @Test("Integer 16 and Integer 32 columns: the largest value that fits reads back, one more is an error",
          arguments: [("int16", Int64(Int16.max), Int64(Int16.min)), ("int32", Int64(Int32.max), Int64(Int32.min))])
    func integerBounds(_ key: String, _ largest: Int64, _ smallest: Int64) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Library.sqlite")
        let model = Models.library()
        let item = model.entitiesByName["Item"]!
        let backend = try openBackend(url, model)
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(item, pk: 1, [key: .int(largest)])),
                           insert(makeRow(item, pk: 2, [key: .int(smallest)]))]
        try backend.save(changes)
        let rows = try backend.fetch(FetchPlan(entity: item)).sorted { $0.pk < $1.pk }
        #expect(rows.map { get($0, key) } == [.int(largest), .int(smallest)])

        let column = "Z" + key.uppercased()
        let database = try RawDatabase(url, readOnly: false)
        try database.execute("UPDATE ZITEM SET \(column) = \(column) - 1 WHERE Z_PK = 2")
        let error = #expect(throws: NSError.self) { try backend.fetch(FetchPlan(entity: item)) }
        Self.expectNames(error, url, table: "ZITEM", pk: 2, column: column, ["\(smallest - 1)"])
        let fault = #expect(throws: NSError.self) { try backend.row(entity: item, pk: 2) }
        Self.expectNames(fault, url, table: "ZITEM", pk: 2, column: column)
    }

    // MARK: - Z_ENT values

    @Test("a row whose Z_ENT is no entity is an error naming it, not a row silently skipped")
    func unknownEntity() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var bread: Int64 = 0
        let url = try Self.makeStore(in: folder) { database in
            bread = try Self.pk(database, item: "Bread")
            try database.execute("UPDATE ZSHOPPINGITEM SET Z_ENT = 42 WHERE Z_PK = \(bread)")
        }
        let context = try Self.open(url)
        let error = #expect(throws: NSError.self) {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        }
        Self.expectNames(error, url, table: "ZSHOPPINGITEM", pk: bread, column: "Z_ENT", ["42"])

        let keys = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        keys.includesPropertyValues = false
        let keysError = #expect(throws: NSError.self) { try context.fetch(keys) }
        Self.expectNames(keysError, url, table: "ZSHOPPINGITEM", pk: bread, column: "Z_ENT")
    }

    @Test("a to-many member whose Z_ENT is another entity's is an error from prefetching and from the throwing read")
    func toManyMemberOfAnotherEntity() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var milk: Int64 = 0
        let url = try Self.makeStore(in: folder) { database in
            milk = try Self.pk(database, item: "Milk")
            try database.execute("UPDATE ZSHOPPINGITEM SET Z_ENT = \(try Self.entityID(database, "Tag")) WHERE Z_PK = \(milk)")
        }
        let context = try Self.open(url)
        let prefetching = NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")
        prefetching.relationshipKeyPathsForPrefetching = ["items"]
        let prefetchError = #expect(throws: NSError.self) { try context.fetch(prefetching) }
        Self.expectNames(prefetchError, url, table: "ZSHOPPINGITEM", pk: milk, column: "Z_ENT",
                         ["(Tag)", "ShoppingList.items", "needs ShoppingItem"])

        let plain = try Self.open(url)
        let list = try #require(try plain.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")).first)
        // The KVC read the C API makes (cd_object_get_*): it throws instead of trapping.
        let readError = #expect(throws: NSError.self) { try list.checkedValue(forKey: "items") }
        Self.expectNames(readError, url, table: "ZSHOPPINGITEM", pk: milk, column: "Z_ENT")
    }

    @Test("a typed to-many read of such a member stops with Apple's fault message naming the row, not a failed cast")
    func typedToManyRead() async throws {
        // The store is made here, not in the child process, which stops before it could
        // remove a folder of its own.
        let folder = try TemporaryDirectory()
        let url = try Self.makeStore(in: folder) { database in
            let tag = try Self.entityID(database, "Tag")
            try database.execute("UPDATE ZSHOPPINGITEM SET Z_ENT = \(tag) WHERE ZNAME = 'Milk'")
        }
        let path = url.path
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let context = try SQLiteCorruptStoreTests.open(URL(fileURLWithPath: path))
            let list = try #require(try context.fetch(NSFetchRequest<ShoppingList>(entityName: "ShoppingList")).first)
            _ = list.items.count
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("CoreData could not fulfill a fault"), "\(output)")
        #expect(output.contains("table ZSHOPPINGITEM"), "\(output)")
        #expect(output.contains("column Z_ENT"), "\(output)")
    }

    @Test("a to-one whose entity column names an entity outside the destination's hierarchy is an error")
    func toOneOfAnotherEntity() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Library.sqlite")
        let model = Models.library()
        let book = model.entitiesByName["Book"]!
        let text = model.entitiesByName["TextMessage"]!
        let backend = try openBackend(url, model)
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(text, pk: 1, ["text": .text("hi")])),
                           insert(makeRow(book, pk: 7, ["title": .text("Dune"), "lastMessage": .ref(1, text.runtime.entityID)]))]
        try backend.save(changes)
        #expect(try backend.fetch(FetchPlan(entity: book)).map { get($0, "lastMessage") } == [.ref(1, text.runtime.entityID)])

        let relationship = try #require(book.relationshipsByName["lastMessage"])
        let entityColumn = try #require(backend.schema.toOneColumns[ObjectIdentifier(relationship)]?.entity)
        let author = model.entitiesByName["Author"]!.runtime.entityID
        try RawDatabase(url, readOnly: false).execute("UPDATE ZBOOK SET \(entityColumn) = \(author) WHERE Z_PK = 7")
        let error = #expect(throws: NSError.self) { try backend.fetch(FetchPlan(entity: book)) }
        Self.expectNames(error, url, table: "ZBOOK", pk: 7, column: entityColumn, ["(Author)", "Book.lastMessage"])
    }
}
