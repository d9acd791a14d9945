import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Query generations: a context pinned with setQueryGenerationFrom(_:) reads one snapshot of
// the store (fetches, counts and faults) while another context, coordinator or process
// writes, until it saves, merges, resets or is moved on.

/// One model for every container of these tests.
private let shelfModel: NSManagedObjectModel = {
    let book = entity("Book", [attribute("title", .stringAttributeType), attribute("copies", .integer64AttributeType)])
    let model = NSManagedObjectModel()
    model.entities = [book]
    return model
}()

/// An app's container for the shelf store.
final class ShelfContainer: NSPersistentContainer, @unchecked Sendable {
    /// The container of the store at `url`; `pragmas`: `NSSQLitePragmasOption`.
    static func open(_ url: URL, type: String = NSSQLiteStoreType, pragmas: [String: String]? = nil) throws -> ShelfContainer {
        let container = ShelfContainer(name: "Shelf", managedObjectModel: shelfModel)
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        if let pragmas { description.setOption(pragmas as NSDictionary, forKey: NSSQLitePragmasOption) }
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Adds books and saves, in a context of its own.
    func add(_ titles: [String], copies: Int64 = 1) throws {
        let context = newBackgroundContext()
        try context.performAndWait {
            for title in titles {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(copies, forKey: "copies")
            }
            try context.save()
        }
    }

    /// Sets every book's copies and saves, in a context of its own.
    func setCopies(_ copies: Int64) throws {
        let context = newBackgroundContext()
        try context.performAndWait {
            for book in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")) {
                book.setValue(copies, forKey: "copies")
            }
            try context.save()
        }
    }
}

private func titles(_ context: NSManagedObjectContext) throws -> [String] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
    return try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }
}

private func count(_ context: NSManagedObjectContext) throws -> Int {
    try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
}

/// A value handed out of a closure the compiler cannot prove runs on this thread.
private final class Box<Value>: @unchecked Sendable {
    // @unchecked Sendable: written and read on one thread at a time (the test's).
    var value: Value?
}

@Suite struct QueryGenerationTests {
    @Test("a pinned context's fetches and counts keep seeing its generation while another context saves")
    func pinnedFetches() throws {
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A", "B"])
        let reader = container.viewContext
        #expect(reader.queryGenerationToken == nil)
        try reader.setQueryGenerationFrom(.current)
        #expect(try titles(reader) == ["A", "B"])
        #expect(reader.queryGenerationToken != nil)

        try container.add(["C"])
        try container.setCopies(5)
        #expect(try titles(reader) == ["A", "B"])
        #expect(try count(reader) == 2)
        // An unpinned context sees the newest data.
        #expect(try titles(container.newBackgroundContext()) == ["A", "B", "C"])

        // Unpinned again, the same context sees everything.
        try reader.setQueryGenerationFrom(nil)
        #expect(reader.queryGenerationToken == nil)
        #expect(try titles(reader) == ["A", "B", "C"])
    }

    @Test("faults of a pinned context fire with the values of its generation")
    func pinnedFaults() throws {
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A"], copies: 1)
        let reader = container.newBackgroundContext()
        let idBox = Box<NSManagedObjectID>()
        let tokenBox = Box<NSQueryGenerationToken>()
        try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.returnsObjectsAsFaults = true
            request.includesPropertyValues = false
            let book = try #require(try reader.fetch(request).first)
            #expect(book.isFault)

            try container.setCopies(9)
            #expect(book.value(forKey: "copies") as? Int64 == 1)
            // A new object for the same ID reads the generation too.
            idBox.value = book.objectID
            tokenBox.value = reader.queryGenerationToken
        }
        let id = try #require(idBox.value)
        let other = container.newBackgroundContext()
        try other.setQueryGenerationFrom(tokenBox.value)
        let copies = other.performAndWait { other.object(with: id).value(forKey: "copies") as? Int64 }
        #expect(copies == 1)
        // The coordinator's own cache holds the newest row, for unpinned contexts.
        let fresh = container.newBackgroundContext()
        let newest = try fresh.performAndWait { try fresh.existingObject(with: id).value(forKey: "copies") as? Int64 }
        #expect(newest == 9)
    }

    @Test("save, merge and reset move a pinned context to the newest generation")
    func advancing() throws {
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A"])
        let reader = container.viewContext

        // reset()
        try reader.setQueryGenerationFrom(.current)
        #expect(try titles(reader) == ["A"])
        let first = try #require(reader.queryGenerationToken)
        try container.add(["B"])
        #expect(try titles(reader) == ["A"])
        reader.reset()
        #expect(try titles(reader) == ["A", "B"])
        let second = try #require(reader.queryGenerationToken)
        #expect(first != second)

        // save(): the context's own save, then it reads the newest generation.
        try container.add(["C"])
        #expect(try titles(reader) == ["A", "B"])
        NSEntityDescription.insertNewObject(forEntityName: "Book", into: reader).setValue("D", forKey: "title")
        try reader.save()
        #expect(try titles(reader) == ["A", "B", "C", "D"])

        // mergeChanges(fromContextDidSave:)
        let writer = container.newBackgroundContext()
        let saved = Box<Notification>()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { saved.value = $0 }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer).setValue("E", forKey: "title")
            try writer.save()
        }
        #expect(try titles(reader) == ["A", "B", "C", "D"])
        reader.mergeChanges(fromContextDidSave: try #require(saved.value))
        #expect(try titles(reader) == ["A", "B", "C", "D", "E"])

        // mergeChanges(fromRemoteContextSave:into:)
        try container.add(["F"])
        #expect(try titles(reader).count == 5)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: []], into: [reader])
        #expect(try titles(reader).count == 6)

        // setQueryGenerationFrom(.current) again
        try container.add(["G"])
        #expect(try titles(reader).count == 6)
        try reader.setQueryGenerationFrom(.current)
        #expect(try titles(reader).count == 7)
        #expect(reader.queryGenerationToken != nil)
    }

    @Test("a pinned context's save checks the newest rows: a conflict with a later save is found")
    func savingIsNotPinned() throws {
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A"], copies: 1)
        let reader = container.viewContext
        try reader.setQueryGenerationFrom(.current)
        let book = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).first)
        #expect(book.value(forKey: "copies") as? Int64 == 1)
        try container.setCopies(7)
        book.setValue("A2", forKey: "title")
        let error = try #require(throws: NSError.self) { try reader.save() }
        #expect(error.code == NSManagedObjectMergeError)
        let conflict = try #require((error.userInfo["conflictList"] as? [NSMergeConflict])?.first)
        // Saved through the same coordinator: the newer row is its cached one.
        #expect(conflict.newVersionNumber == 2)
        #expect((conflict.persistedSnapshot ?? conflict.cachedSnapshot)?["copies"] as? Int64 == 7)
    }

    @Test("a child context reads through its parent's generation and has no token of its own")
    func childContexts() throws {
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A"])
        let parent = container.viewContext
        try parent.setQueryGenerationFrom(.current)
        #expect(try titles(parent) == ["A"])
        try container.add(["B"])
        let child = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        child.parent = parent
        #expect(try titles(child) == ["A"])
        #expect(child.queryGenerationToken == nil)
        try child.setQueryGenerationFrom(nil)
    }

    @Test("setting a token on a child context stops the program, as Apple raises")
    func childContextMisuse() async {
        await #expect(processExitsWith: .failure) {
            let folder = try TemporaryDirectory()
            let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
            let child = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            child.parent = container.viewContext
            try child.setQueryGenerationFrom(.current)
        }
    }

    @Test("a generation holds while another process writes and checkpoints")
    func anotherProcessWrites() async throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shelf.sqlite")
        let container = try ShelfContainer.open(url)
        try container.add(["A"], copies: 1)
        let reader = container.viewContext
        try reader.setQueryGenerationFrom(.current)
        #expect(try titles(reader) == ["A"])
        await #expect(processExitsWith: .success) { [path = url.path as String] in
            let container = try ShelfContainer.open(URL(fileURLWithPath: path))
            for round in 0..<20 { try container.add(["child \(round)"]) }
            try container.setCopies(3)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                _ = try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Book")))
            }
            // A checkpoint copies what it may into the database: never past a reader's snapshot.
            let raw = try RawDatabase(URL(fileURLWithPath: path), readOnly: false)
            _ = try raw.rows("PRAGMA wal_checkpoint(PASSIVE)")
        }
        #expect(try titles(reader) == ["A"])
        let book = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).first)
        #expect(book.value(forKey: "copies") as? Int64 == 1)
        try reader.setQueryGenerationFrom(.current)
        #expect(try titles(reader).isEmpty)
    }

    @Test("stores without WAL, and stores in memory, read unpinned without an error")
    func unsupportedStores() throws {
        let folder = try TemporaryDirectory()
        let journal = try ShelfContainer.open(folder.file("Journal.sqlite"), pragmas: ["journal_mode": "DELETE"])
        try journal.add(["A"])
        try journal.viewContext.setQueryGenerationFrom(.current)
        #expect(try titles(journal.viewContext) == ["A"])
        try journal.add(["B"])
        #expect(try titles(journal.viewContext) == ["A", "B"])
        #expect(journal.viewContext.queryGenerationToken == nil)

        let memory = try ShelfContainer.open(URL(fileURLWithPath: "/dev/null"), type: NSInMemoryStoreType)
        try memory.add(["A"])
        try memory.viewContext.setQueryGenerationFrom(.current)
        try memory.add(["B"])
        #expect(try titles(memory.viewContext) == ["A", "B"])
    }

    @Test("tokens: current, equality, archiving, and tokens of another coordinator")
    func tokens() throws {
        #expect(NSQueryGenerationToken.current == NSQueryGenerationToken.current)
        let folder = try TemporaryDirectory()
        let container = try ShelfContainer.open(folder.file("Shelf.sqlite"))
        try container.add(["A"])
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        try a.setQueryGenerationFrom(.current)
        let token = try #require(a.queryGenerationToken)
        try b.setQueryGenerationFrom(token)
        #expect(b.queryGenerationToken == token)
        #expect(token != NSQueryGenerationToken.current)
        #expect(token.copy() as? NSQueryGenerationToken == token)

        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSQueryGenerationToken.self, from: data))
        #expect(decoded == token)
        let c = container.newBackgroundContext()
        try c.setQueryGenerationFrom(decoded)
        #expect(c.queryGenerationToken == token)

        let other = try ShelfContainer.open(folder.file("Other.sqlite"))
        let error = try #require(throws: NSError.self) { try other.viewContext.setQueryGenerationFrom(token) }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreOperationError)
    }
}
