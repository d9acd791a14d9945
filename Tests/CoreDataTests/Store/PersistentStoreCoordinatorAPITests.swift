import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The coordinator members Apple code calls: store URLs, migrating a store, adding from a
/// description, executing requests, object IDs from URI strings, metadata without adding.
@Suite struct PersistentStoreCoordinatorAPITests {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory() }

    /// A SQLite stack with a list of two items, two tags on the first item.
    func filledStack(_ name: String = "Shop.sqlite") throws -> (NSPersistentStoreCoordinator, NSPersistentStore, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: folder.file(name))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
        list.setValue("Weekly", forKey: "title")
        for name in ["Milk", "Bread"] {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
            item.setValue(name, forKey: "name")
            item.setValue(list, forKey: "list")
            if name == "Milk" {
                for label in ["dairy", "fresh"] {
                    let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                    tag.setValue(label, forKey: "label")
                    item.mutableSetValue(forKey: "tags").add(tag)
                }
            }
        }
        try context.save()
        return (coordinator, store, context)
    }

    func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test("url(for:) names where a store lives; setURL(_:for:) reopens it on a store copied elsewhere")
    func storeURLs() throws {
        let (coordinator, store, _) = try filledStack()
        #expect(coordinator.url(for: store) == folder.file("Shop.sqlite"))

        let copy = folder.file("Copy.sqlite")
        try coordinator.replacePersistentStore(at: copy, destinationOptions: nil,
                                               withPersistentStoreFrom: folder.file("Shop.sqlite"), sourceOptions: nil,
                                               ofType: NSSQLiteStoreType)
        #expect(coordinator.setURL(copy, for: store))
        #expect(coordinator.url(for: store) == copy)
        #expect(store.url == copy)
        let context = context(coordinator)
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue("Eggs", forKey: "name")
        try context.save()
        #expect(try RawDatabase(copy).scalar("SELECT COUNT(*) FROM ZSHOPPINGITEM") as? Int64 == 3)
        #expect(try RawDatabase(folder.file("Shop.sqlite")).scalar("SELECT COUNT(*) FROM ZSHOPPINGITEM") as? Int64 == 2)

        #expect(!coordinator.setURL(folder.file("Nothing.sqlite"), for: store))
        #expect(coordinator.url(for: store) == copy)
    }

    @Test("migratePersistentStore copies a store's objects and relationships to a new URL and type, and replaces it")
    func migrate() throws {
        let (coordinator, store, _) = try filledStack()
        let uuid = store.identifier
        store.metadata["appVersion"] = "2.1"

        let memory = try coordinator.migratePersistentStore(store, to: folder.file("Memory"), options: nil, withType: NSInMemoryStoreType)
        #expect(memory.type == NSInMemoryStoreType)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores[0] === memory)
        #expect(store.persistentStoreCoordinator == nil)
        #expect(memory.identifier == uuid)
        #expect(memory.metadata["appVersion"] as? String == "2.1")

        let moved = folder.file("Moved/Shop.sqlite")
        let sqlite = try coordinator.migratePersistentStore(memory, to: moved, type: .sqlite)
        #expect(sqlite.url == moved)
        #expect(coordinator.persistentStores.map(\.type) == [NSSQLiteStoreType])

        let context = context(coordinator)
        let milk = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
            .first { $0.value(forKey: "name") as? String == "Milk" })
        #expect((milk.value(forKey: "list") as? NSManagedObject)?.value(forKey: "title") as? String == "Weekly")
        let labels = (milk.value(forKey: "tags") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "label") as? String }
        #expect(Set(labels ?? []) == ["dairy", "fresh"])
        let list = try #require(milk.value(forKey: "list") as? NSManagedObject)
        #expect((list.value(forKey: "items") as? Set<NSManagedObject>)?.count == 2)

        // New objects get new keys, and everything is in the new file once saved.
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue("Eggs", forKey: "name")
        try context.save()
        #expect(try RawDatabase(moved).scalar("SELECT COUNT(*) FROM ZSHOPPINGITEM") as? Int64 == 3)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: moved)["appVersion"] as? String == "2.1")

        // A store cannot be migrated onto one that exists; nothing changes then.
        let error = #expect(throws: NSError.self) {
            try coordinator.migratePersistentStore(sqlite, to: folder.file("Shop.sqlite"), options: nil, withType: NSSQLiteStoreType)
        }
        #expect(error?.code == NSPersistentStoreOperationError)
        #expect(coordinator.persistentStores.first === sqlite)
    }

    @Test("addPersistentStore(with:completionHandler:) adds a described store, at once or in the background")
    func addWithDescription() async throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let description = NSPersistentStoreDescription(url: folder.file("Described.sqlite"))
        var reported: (NSPersistentStoreDescription, Error?)?
        coordinator.addPersistentStore(with: description) { reported = ($0, $1) }
        #expect(reported?.0 === description)
        #expect(reported?.1 == nil)
        #expect(coordinator.persistentStores.first?.url == folder.file("Described.sqlite"))

        let background = NSPersistentStoreDescription()
        background.type = NSInMemoryStoreType
        background.shouldAddStoreAsynchronously = true
        let error: Error? = await withCheckedContinuation { continuation in
            coordinator.addPersistentStore(with: background) { _, error in
                continuation.resume(returning: error)
            }
        }
        #expect(error == nil)
        #expect(coordinator.persistentStores.count == 2)

        let broken = NSPersistentStoreDescription(url: folder.file("Broken.sqlite"))
        broken.type = "NoSuchStoreType"
        var failure: NSError?
        coordinator.addPersistentStore(with: broken) { failure = $1 as NSError? }
        #expect(failure?.code == NSPersistentStoreInvalidTypeError)
    }

    @Test("execute(_:with:) runs fetch requests of every result type for a context, and saves")
    func execute() throws {
        let (coordinator, _, context) = try filledStack()
        let items = try coordinator.execute(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"), with: context) as? [NSManagedObject]
        #expect(items?.count == 2)
        #expect(items?.allSatisfy { $0.managedObjectContext === context } == true)
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "ShoppingItem")
        ids.resultType = .managedObjectIDResultType
        #expect((try coordinator.execute(ids, with: context) as? [NSManagedObjectID])?.count == 2)
        let count = NSFetchRequest<NSNumber>(entityName: "Tag")
        count.resultType = .countResultType
        #expect((try coordinator.execute(count, with: context) as? [NSNumber])?.first?.intValue == 2)

        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue("Eggs", forKey: "name")
        let save = NSSaveChangesRequest(inserted: context.insertedObjects, updated: nil, deleted: nil, locked: nil)
        #expect((try coordinator.execute(save, with: context) as? [Any])?.isEmpty == true)
        #expect(!context.hasChanges)
        #expect(!item.objectID.isTemporaryID)
    }

    @Test("managedObjectID(for:) reads a URI string; nonsense gives nil")
    func objectIDFromString() throws {
        let (coordinator, _, context) = try filledStack()
        let item = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")).first)
        let string = item.objectID.uriRepresentation().absoluteString
        #expect(coordinator.managedObjectID(for: string) == item.objectID)
        #expect(coordinator.managedObjectID(for: "not a uri") == nil)
        #expect(coordinator.managedObjectID(for: "x-coredata://NOSUCHSTORE/ShoppingItem/p1") == nil)
    }

    @Test("setMetadata(_:forPersistentStoreOfType:at:options:) writes a closed store's metadata, keeping its UUID")
    func classLevelMetadata() throws {
        let url: URL
        let uuid: String?
        do {
            let (coordinator, store, _) = try filledStack()
            url = store.url!
            uuid = store.identifier
            try coordinator.remove(store)
        }
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        metadata["syncToken"] = "abc"
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)
        try NSPersistentStoreCoordinator.setMetadata(["onlyThis": 1], type: .sqlite, at: url)
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(read["onlyThis"] as? Int == 1)
        #expect(read["syncToken"] == nil)
        #expect(read[NSStoreUUIDKey] as? String == uuid)
        #expect(read[NSStoreTypeKey] as? String == NSSQLiteStoreType)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        #expect(store.identifier == uuid)
        #expect(store.metadata["onlyThis"] as? Int == 1)

        let missing = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.setMetadata([:], forPersistentStoreOfType: NSSQLiteStoreType, at: folder.file("None.sqlite"))
        }
        #expect(missing?.code == NSFileReadNoSuchFileError)
        #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSInMemoryStoreType, at: url)
        }
    }

    @Test("performAndWait returns its block's value; perform runs asynchronously and can be awaited")
    func perform() async throws {
        let (coordinator, _, _) = try filledStack()
        let count = coordinator.performAndWait { coordinator.persistentStores.count }
        #expect(count == 1)
        #expect(throws: CocoaError.self) { try coordinator.performAndWait { throw CocoaError(.fileNoSuchFile) } }
        let type = await coordinator.perform { coordinator.persistentStores.first?.type }
        #expect(type == NSSQLiteStoreType)
        await withCheckedContinuation { continuation in
            coordinator.perform { continuation.resume() }
        }
    }
}
