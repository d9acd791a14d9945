import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct InheritanceTests {
    @Test("fetching a parent entity returns the concrete sub-entities, unless includesSubentities is false", arguments: allStoreTypes)
    func fetchParent(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        _ = stack.insert("ImageAttachment", ["fileName": "a.png", "width": 10])
        _ = stack.insert("FileAttachment", ["fileName": "b.txt", "size": 99])
        try stack.context.save()
        let other = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Attachment")
        request.sortDescriptors = [NSSortDescriptor(key: "fileName", ascending: true)]
        let all = try other.fetch(request)
        #expect(all.map { $0.entity.name } == ["ImageAttachment", "FileAttachment"])
        #expect((all[0].value(forKey: "width") as? NSNumber)?.intValue == 10)
        #expect((all[1].value(forKey: "size") as? NSNumber)?.intValue == 99)
        let images = NSFetchRequest<NSManagedObject>(entityName: "ImageAttachment")
        #expect(try other.fetch(images).count == 1)
        request.includesSubentities = false
        #expect(try other.fetch(request).isEmpty)
    }

    @Test("a to-one to a hierarchy reads back the concrete destination", arguments: allStoreTypes)
    func toOneIntoHierarchy(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let note = stack.insert("Note") as! Note
        note.attachment = stack.insert("FileAttachment", ["fileName": "f"])
        try stack.context.save()
        let other = stack.newContext()
        let copy = try #require(try other.existingObject(with: note.objectID) as? Note)
        #expect(copy.attachment?.entity.name == "FileAttachment")
        #expect(copy.attachment?.value(forKey: "note") as? Note === copy)
    }

    @Test("an abstract entity cannot be instantiated")
    func abstractEntity() async throws {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack.graph(NSInMemoryStoreType)
            _ = NSEntityDescription.insertNewObject(forEntityName: "Attachment", into: stack.context)
        }
    }
}
