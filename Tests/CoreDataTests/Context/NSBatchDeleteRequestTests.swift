import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct NSBatchDeleteRequestTests {
    private func count(_ stack: TestStack, _ entity: String, _ format: String? = nil) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = format.map { NSPredicate(format: $0) }
        return try stack.newContext().count(for: request)
    }

    private func failure(_ stack: TestStack, _ request: NSPersistentStoreRequest) -> NSError? {
        do {
            _ = try stack.context.execute(request)
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test("A fetch request selects what is deleted; every result type answers", arguments: allStoreTypes)
    func resultTypes(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        for i in 0..<6 { stack.insert("Quake", ["code": "q\(i)", "magnitude": Double(i)]) }
        try stack.context.save()

        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
        fetch.predicate = NSPredicate(format: "magnitude < 1")
        let status = try #require(try stack.context.execute(NSBatchDeleteRequest(fetchRequest: fetch)) as? NSBatchDeleteResult)
        #expect(status.resultType == .resultTypeStatusOnly && (status.result as? NSNumber)?.boolValue == true)

        let counted = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Quake"))
        counted.fetchRequest.predicate = NSPredicate(format: "magnitude < 3")
        counted.resultType = .resultTypeCount
        #expect((try stack.context.execute(counted) as? NSBatchDeleteResult)?.result as? Int == 2)

        let sorted = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
        sorted.sortDescriptors = [NSSortDescriptor(key: "magnitude", ascending: false)]
        sorted.fetchLimit = 2
        let ids = NSBatchDeleteRequest(fetchRequest: sorted)
        ids.resultType = .resultTypeObjectIDs
        let deleted = try #require((try stack.context.execute(ids) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        #expect(deleted.count == 2)
        #expect(try count(stack, "Quake") == 1)
        #expect(try count(stack, "Quake", "code == 'q3'") == 1)
        #expect(ids.requestType == .batchDeleteRequestType)
    }

    @Test("Object IDs name what is deleted; IDs of two entities or unsaved objects throw", arguments: allStoreTypes)
    func objectIDs(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let a = stack.insert("Quake", ["code": "a"]), b = stack.insert("Quake", ["code": "b"]), c = stack.insert("Quake", ["code": "c"])
        let author = stack.insert("Author", ["name": "Le Guin"])
        try stack.context.save()
        let request = NSBatchDeleteRequest(objectIDs: [a.objectID, c.objectID])
        request.resultType = .resultTypeCount
        #expect((try stack.context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 2)
        #expect(try count(stack, "Quake") == 1)
        #expect(failure(stack, NSBatchDeleteRequest(objectIDs: [b.objectID, author.objectID]))?.code == NSCoreDataError)
        let unsaved = stack.insert("Quake", ["code": "z"])
        #expect(failure(stack, NSBatchDeleteRequest(objectIDs: [unsaved.objectID]))?.code == NSCoreDataError)
        #expect(try count(stack, "Quake") == 1 && count(stack, "Author") == 1)
    }

    @Test("Delete rules: cascade deletes books, nullify clears a shelf's books and tags' links", arguments: allStoreTypes)
    func rules(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let author = stack.insert("Author", ["name": "A"]), other = stack.insert("Author", ["name": "B"])
        let shelf = stack.insert("Shelf", ["name": "S"])
        let tag = stack.insert("Tag", ["label": "sf"])
        let books = (0..<3).map { stack.insert("Book", ["title": "b\($0)"]) }
        books[0].setValue(author, forKey: "author")
        books[1].setValue(author, forKey: "author")
        books[2].setValue(other, forKey: "author")
        for book in books {
            book.setValue(shelf, forKey: "shelf")
            book.mutableSetValue(forKey: "tags").add(tag)
        }
        try stack.context.save()

        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Author")
        fetch.predicate = NSPredicate(format: "name == 'A'")
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        let deleted = try #require((try stack.context.execute(request) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        #expect(deleted == [author.objectID])
        #expect(try count(stack, "Book") == 1)

        let reader = stack.newContext()
        let remaining = try reader.existingObject(with: books[2].objectID)
        #expect((remaining.value(forKey: "tags") as? Set<NSManagedObject>)?.count == 1)
        let readTag = try reader.existingObject(with: tag.objectID)
        #expect((readTag.value(forKey: "books") as? Set<NSManagedObject>)?.count == 1)

        // Deleting the shelf clears the remaining book's shelf (nullify) and bumps its version.
        _ = try stack.context.execute(NSBatchDeleteRequest(objectIDs: [shelf.objectID]))
        let fresh = stack.newContext()
        let book = try fresh.existingObject(with: books[2].objectID)
        #expect(book.value(forKey: "shelf") == nil)
        if storeType == NSSQLiteStoreType {
            let raw = try RawDatabase(stack.storeURL)
            #expect(try raw.scalar("SELECT Z_OPT FROM ZBOOK") as? Int64 == 2)
            #expect(try raw.scalar("SELECT COUNT(*) FROM Z_2TAGS") as? Int64 == 1)
        }
    }

    @Test("A deny rule or a mandatory to-one inverse refuses the delete, and nothing is deleted", arguments: allStoreTypes)
    func refusals(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let library = stack.insert("Library", ["name": "L"])
        stack.insert("Library", ["name": "Empty"])
        stack.insert("Member", ["name": "m"]).setValue(library, forKey: "library")
        let owner = stack.insert("Owner", ["name": "o"])
        stack.insert("Pet", ["name": "p"]).setValue(owner, forKey: "owner")
        try stack.context.save()

        let denied = failure(stack, NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Library")))
        #expect(denied?.code == NSPersistentStoreSaveError)
        #expect(try count(stack, "Library") == 2)
        let mandatory = failure(stack, NSBatchDeleteRequest(objectIDs: [owner.objectID]))
        #expect(mandatory?.code == NSPersistentStoreSaveError)
        #expect((mandatory?.userInfo[NSLocalizedFailureReasonErrorKey] as? String)?.contains("Pet/owner") == true)
        #expect(try count(stack, "Owner") == 1)

        // A library without members goes.
        let empty = NSFetchRequest<NSFetchRequestResult>(entityName: "Library")
        empty.predicate = NSPredicate(format: "members.@count == 0")
        _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: empty))
        #expect(try count(stack, "Library") == 1)
    }

    @Test("Contexts drop deleted objects when they merge the result; fetches never return them", arguments: allStoreTypes)
    func contextsAfterMerge(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let a = stack.insert("Quake", ["code": "a"])
        stack.insert("Quake", ["code": "b"])
        try stack.context.save()
        let request = NSBatchDeleteRequest(objectIDs: [a.objectID])
        request.resultType = .resultTypeObjectIDs
        let ids = try #require((try stack.context.execute(request) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])
        #expect(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).count == 1)
        #expect(stack.context.registeredObject(for: a.objectID) != nil)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [stack.context])
        #expect(stack.context.registeredObject(for: a.objectID) == nil)
        #expect(throws: (any Error).self) { try stack.newContext().existingObject(with: a.objectID) }
    }
}
