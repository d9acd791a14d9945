import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// An `NSAtomicStore` over a property list, driven as Apple's users drive one.
@Suite struct NSAtomicStoreTests {
    let folder: TemporaryDirectory
    let model = LibraryModel.make()

    init() throws {
        folder = try TemporaryDirectory()
        NSPersistentStoreCoordinator.registerStoreClass(PlistAtomicStore.self, forStoreType: PlistAtomicStore.storeType)
    }

    func stack(_ name: String = "Library.plist") throws -> CustomStack {
        try CustomStack(type: PlistAtomicStore.storeType, url: folder.file(name), model: model)
    }

    @Test("a new store is empty and writes nothing until a save; a save writes the whole file")
    func newStoreAndSave() throws {
        let stack = try stack()
        #expect(!FileManager.default.fileExists(atPath: folder.file("Library.plist").path))
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 0)
        let author = try stack.saveAuthor("Ursula", books: [("Earthsea", 200), ("Lathe", 180)])
        #expect(!author.objectID.isTemporaryID)
        let atomic = stack.store as! PlistAtomicStore
        #expect(atomic.saves == 1)
        #expect(atomic.cacheNodes().count == 3)
        let node = try #require(atomic.cacheNode(for: author.objectID))
        #expect(node.value(forKey: "name") as? String == "Ursula")
        #expect((node.value(forKey: "books") as? Set<NSAtomicStoreCacheNode>)?.count == 2)

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: PlistAtomicStore.storeType,
                                                                                  at: folder.file("Library.plist"))
        #expect(metadata[NSStoreUUIDKey] as? String == stack.store.identifier)
    }

    @Test("a reopened store keeps its UUID and objects; fetches with predicates and sorts run in memory")
    func reopenAndFetch() throws {
        let uri: URL
        let uuid: String?
        do {
            let stack = try stack()
            uuid = stack.store.identifier
            uri = try stack.saveAuthor("Ursula", books: [("Earthsea", 200), ("Dispossessed", 380)]).objectID.uriRepresentation()
            try stack.saveAuthor("Iain", books: [("Excession", 450), ("Player", 300)])
        }
        let stack = try stack()
        #expect(stack.store.identifier == uuid)

        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "pages > 250")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        #expect(try stack.context.fetch(request).map { $0.value(forKey: "title") as? String }
                == ["Dispossessed", "Excession", "Player"])

        let byAuthor = NSFetchRequest<NSManagedObject>(entityName: "Book")
        byAuthor.predicate = NSPredicate(format: "author.name == %@", "Iain")
        #expect(try stack.context.count(for: byAuthor) == 2)

        let objectID = try #require(stack.coordinator.managedObjectID(forURIRepresentation: uri))
        let ursula = try stack.context.existingObject(with: objectID)
        #expect(ursula.value(forKey: "name") as? String == "Ursula")
        #expect(ursula.value(forKey: "born") as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        let titles = (ursula.value(forKey: "books") as? Set<NSManagedObject>)?.compactMap { $0.value(forKey: "title") as? String }
        #expect(Set(titles ?? []) == ["Earthsea", "Dispossessed"])
    }

    @Test("updates and deletes update the cache nodes, tell willRemoveCacheNodes(_:) and reach the file")
    func updateAndDelete() throws {
        do {
            let stack = try stack()
            let ursula = try stack.saveAuthor("Ursula", books: [("Earthsea", 200)])
            let iain = try stack.saveAuthor("Iain", books: [("Excession", 450)])
            let atomic = stack.store as! PlistAtomicStore
            let doomed = try #require(atomic.referenceObject(for: iain.objectID) as? String)
            ursula.setValue("Ursula K.", forKey: "name")
            stack.context.delete(iain)
            try stack.context.save()
            #expect(atomic.removedReferences.contains(doomed))
            #expect(atomic.removedReferences.count == 2)
            #expect(atomic.cacheNodes().count == 2)
        }
        let stack = try stack()
        let names = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).map { $0.value(forKey: "name") as? String }
        #expect(names == ["Ursula K."])
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 1)
    }

    @Test("two contexts that change the same object conflict, as with the built-in stores")
    func optimisticLocking() throws {
        let stack = try stack()
        let author = try stack.saveAuthor("Ursula", books: [])
        let other = stack.newContext()
        let copy = try other.existingObject(with: author.objectID)
        author.setValue("First", forKey: "name")
        try stack.context.save()
        copy.setValue("Second", forKey: "name")
        let error = #expect(throws: NSError.self) { try other.save() }
        #expect(error?.code == NSManagedObjectMergeError)
    }

    @Test("deleting an object another context changed since it was read is a conflict, as with the built-in stores")
    func staleDeletion() throws {
        let stack = try stack()
        let author = try stack.saveAuthor("Ursula", books: [])
        let other = stack.newContext()
        let copy = try other.existingObject(with: author.objectID)
        _ = copy.value(forKey: "name")
        author.setValue("Ursula K.", forKey: "name")
        try stack.context.save()
        other.delete(copy)
        let error = #expect(throws: NSError.self) { try other.save() }
        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = (error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first
        #expect(conflict?.sourceObject === copy)
        #expect(conflict?.oldVersionNumber == 1 && conflict?.newVersionNumber == 2)
        // The row is still there, with the first context's change.
        let check = stack.newContext()
        let names = try check.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).map { $0.value(forKey: "name") as? String }
        #expect(names == ["Ursula K."])
    }

    @Test("many-to-many relationships between objects inserted in one save resolve to each other's nodes")
    func manyToManyInOneSave() throws {
        do {
            let stack = try stack()
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stack.context)
            book.setValue("Earthsea", forKey: "title")
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            tag.setValue("fantasy", forKey: "label")
            book.mutableSetValue(forKey: "tags").add(tag)
            try stack.context.save()
        }
        let stack = try stack()
        let tag = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first)
        let books = tag.value(forKey: "books") as? Set<NSManagedObject>
        #expect(books?.compactMap { $0.value(forKey: "title") as? String } == ["Earthsea"])
    }
}
