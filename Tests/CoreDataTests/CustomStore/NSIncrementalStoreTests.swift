import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// An `NSIncrementalStore` over a JSON file, driven as Apple's users drive one: register the
/// class, add a store of its type, then insert, save, fetch, fault and delete through contexts.
@Suite struct NSIncrementalStoreTests {
    let folder: TemporaryDirectory
    let model = LibraryModel.make()

    init() throws {
        folder = try TemporaryDirectory()
        NSPersistentStoreCoordinator.registerStoreClass(JSONIncrementalStore.self, forStoreType: JSONIncrementalStore.storeType)
    }

    func stack(_ name: String = "Library.json") throws -> CustomStack {
        try CustomStack(type: JSONIncrementalStore.storeType, url: folder.file(name), model: model)
    }

    @Test("two contexts that change the same object: the stale one's save is in conflict (the coordinator checks the versions it cached), and a merge policy settles it")
    func optimisticLocking() throws {
        let stack = try stack()
        let author = try stack.saveAuthor("Ursula", books: [])
        let other = stack.newContext()
        let copy = try other.existingObject(with: author.objectID)
        _ = copy.value(forKey: "name")
        author.setValue("First", forKey: "name")
        try stack.context.save()
        copy.setValue("Second", forKey: "name")
        let error = #expect(throws: NSError.self) { try other.save() }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first
        #expect(conflict?.sourceObject === copy)
        #expect(conflict?.oldVersionNumber == 1 && conflict?.newVersionNumber == 2)
        // Object trump settles it: the stale context's change is written over the newer node.
        other.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        try other.save()
        let check = try self.stack()
        let names = try check.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).map { $0.value(forKey: "name") as? String }
        #expect(names == ["Second"])
    }

    @Test("registerStoreClass(_:forStoreType:) lists the type in registeredStoreTypes, with the built-in ones")
    func registration() throws {
        let types = NSPersistentStoreCoordinator.registeredStoreTypes
        #expect(types[JSONIncrementalStore.storeType] != nil)
        #expect(types[NSSQLiteStoreType] != nil)
        #expect(types[NSInMemoryStoreType] != nil)
        let stack = try stack()
        #expect(stack.store is JSONIncrementalStore)
        #expect(stack.store.type == JSONIncrementalStore.storeType)
        #expect(stack.store.identifier?.isEmpty == false)
        #expect(stack.coordinator.persistentStores.first === stack.store)
    }

    @Test("saves reach the store through obtainPermanentIDs(for:) and a save request; the JSON file holds them")
    func saveWritesFile() throws {
        let stack = try stack()
        let json = stack.store as! JSONIncrementalStore
        let author = try stack.saveAuthor("Ursula", books: [("Earthsea", 200), ("Dispossessed", 380)])
        #expect(!author.objectID.isTemporaryID)
        #expect(json.calls.contains("obtainPermanentIDs 3"))
        #expect(json.calls.contains("save"))
        let reference = json.referenceObject(for: author.objectID) as? String
        #expect(reference != nil)

        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("Library.json"))) as? [String: Any]
        let records = file?["records"] as? [String: [String: [String: Any]]]
        #expect(records?["Author"]?[reference!]?["name"] as? String == "Ursula")
        #expect(records?["Book"]?.count == 2)
        #expect(records?["Book"]?.values.allSatisfy { $0["author"] as? String == reference } == true)
    }

    @Test("a reopened store answers fetches with predicates and sort descriptors, and faults fill through it")
    func reopenFetchAndFault() throws {
        do {
            let stack = try stack()
            try stack.saveAuthor("Ursula", books: [("Earthsea", 200), ("Dispossessed", 380), ("Lathe", 180)])
            try stack.saveAuthor("Iain", books: [("Excession", 450)])
        }
        let stack = try stack()
        let json = stack.store as! JSONIncrementalStore
        json.resetCalls()

        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "pages >= %d AND author.name == %@", 190, "Ursula")
        request.sortDescriptors = [NSSortDescriptor(key: "pages", ascending: false)]
        let books = try stack.context.fetch(request)
        #expect(books.map { $0.value(forKey: "title") as? String } == ["Dispossessed", "Earthsea"])
        #expect(json.calls.contains("fetch Book"))
        #expect(json.calls.contains { $0.hasPrefix("values Book") })

        // The to-one relationship and the inverse to-many come from the store too.
        let author = try #require(books.first?.value(forKey: "author") as? NSManagedObject)
        #expect(author.value(forKey: "name") as? String == "Ursula")
        let titles = (author.value(forKey: "books") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "title") as? String }
        #expect(Set(titles ?? []) == ["Earthsea", "Dispossessed", "Lathe"])
        #expect(json.calls.contains { $0.hasPrefix("relationship books") })

        // Limits, offsets, counts and IDs.
        let page = NSFetchRequest<NSManagedObject>(entityName: "Book")
        page.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        page.fetchOffset = 1
        page.fetchLimit = 2
        #expect(try stack.context.fetch(page).map { $0.value(forKey: "title") as? String } == ["Earthsea", "Excession"])
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 4)
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Author")
        ids.resultType = .managedObjectIDResultType
        #expect(try stack.context.fetch(ids).count == 2)
    }

    @Test("a fault made from an object ID fills through newValuesForObject(with:with:) when first read")
    func faultFromObjectID() throws {
        let first = try stack()
        let saved = try first.saveAuthor("Ursula", books: []).objectID
        let uri = saved.uriRepresentation()

        let stack = try stack()
        let json = stack.store as! JSONIncrementalStore
        json.resetCalls()
        let objectID = try #require(stack.coordinator.managedObjectID(forURIRepresentation: uri))
        let author = stack.context.object(with: objectID)
        #expect(author.isFault)
        #expect(!json.calls.contains { $0.hasPrefix("values") })
        #expect(author.value(forKey: "name") as? String == "Ursula")
        #expect(json.calls.contains { $0.hasPrefix("values Author") })
        #expect(!author.isFault)
    }

    @Test("object IDs round-trip through uriRepresentation(), in the same coordinator and after reopening")
    func uriRoundTrip() throws {
        let stack = try stack()
        let author = try stack.saveAuthor("Ursula", books: [("Earthsea", 200)])
        let json = stack.store as! JSONIncrementalStore
        let reference = try #require(json.referenceObject(for: author.objectID) as? String)
        let uri = author.objectID.uriRepresentation()
        #expect(uri.scheme == "x-coredata")
        #expect(uri.host == stack.store.identifier)
        #expect(uri.lastPathComponent == "p\(reference)")
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: uri) == author.objectID)
        #expect(stack.coordinator.managedObjectID(for: uri.absoluteString) == author.objectID)
        #expect(json.newObjectID(for: author.entity, referenceObject: reference) == author.objectID)

        let reopened = try CustomStack(type: JSONIncrementalStore.storeType, url: folder.file("Library.json"), model: model)
        let again = try #require(reopened.coordinator.managedObjectID(forURIRepresentation: uri))
        #expect((reopened.store as! JSONIncrementalStore).referenceObject(for: again) as? String == reference)
        #expect(try reopened.context.existingObject(with: again).value(forKey: "name") as? String == "Ursula")
    }

    @Test("updates and deletes (with cascades) reach the store and survive reopening")
    func updateAndDelete() throws {
        do {
            let stack = try stack()
            let ursula = try stack.saveAuthor("Ursula", books: [("Earthsea", 200), ("Lathe", 180)])
            try stack.saveAuthor("Iain", books: [("Excession", 450)])
            ursula.setValue("Ursula K.", forKey: "name")
            try stack.context.save()
            let iain = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
                .first { $0.value(forKey: "name") as? String == "Iain" }!
            stack.context.delete(iain)
            try stack.context.save()
        }
        let stack = try stack()
        let authors = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
        #expect(authors.map { $0.value(forKey: "name") as? String } == ["Ursula K."])
        let titles = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).compactMap { $0.value(forKey: "title") as? String }
        #expect(Set(titles) == ["Earthsea", "Lathe"])
    }

    @Test("many-to-many relationships are saved through the objects and read back through newValue(forRelationship:)")
    func manyToMany() throws {
        do {
            let stack = try stack()
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stack.context)
            book.setValue("Earthsea", forKey: "title")
            for label in ["fantasy", "classic"] {
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
                tag.setValue(label, forKey: "label")
                book.mutableSetValue(forKey: "tags").add(tag)
            }
            try stack.context.save()
        }
        let stack = try stack()
        let tag = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))
            .first { $0.value(forKey: "label") as? String == "classic" })
        let books = tag.value(forKey: "books") as? Set<NSManagedObject>
        #expect(books?.compactMap { $0.value(forKey: "title") as? String } == ["Earthsea"])
        let labels = (books?.first?.value(forKey: "tags") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "label") as? String }
        #expect(Set(labels ?? []) == ["fantasy", "classic"])
    }

    @Test("contexts tell the store which of its objects they register and let go")
    func registrationCallbacks() throws {
        let stack = try stack()
        try stack.saveAuthor("Ursula", books: [("Earthsea", 200)])
        let json = stack.store as! JSONIncrementalStore
        #expect(json.registeredCount == 2)
        let other = stack.newContext()
        _ = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(json.registeredCount == 3)
        other.reset()
        stack.context.reset()
        #expect(json.registeredCount == 0)
    }

    @Test("a container loads a store of the registered type from its description")
    func throughContainer() throws {
        let container = NSPersistentContainer(name: "Library", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: folder.file("Container.json"))
        description.type = JSONIncrementalStore.storeType
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue("Octavia", forKey: "name")
            try context.save()
        }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            ofType: JSONIncrementalStore.storeType, at: folder.file("Container.json"))
        #expect(metadata[NSStoreUUIDKey] as? String == container.persistentStoreCoordinator.persistentStores.first?.identifier)
    }
}
