import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct RelationshipFaultTests {
    @Test("hasFault and objectIDs(forRelationshipNamed:) answer without loading anything", arguments: allStoreTypes)
    func idsWithoutLoading(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let folder = stack.insert("Folder", ["name": "F"]) as! Folder
        let notes = (0..<3).map { stack.insert("Note", ["title": "n\($0)"]) as! Note }
        for note in notes { note.folder = folder }
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: folder.objectID)
        #expect(copy.hasFault(forRelationshipNamed: "notes"))
        let ids = copy.objectIDs(forRelationshipNamed: "notes")
        #expect(Set(ids) == Set(notes.map(\.objectID)))
        #expect(copy.hasFault(forRelationshipNamed: "notes"))
        #expect(other.registeredObjects.count == 1)
        let third = stack.newContext()
        let note = try third.existingObject(with: notes[0].objectID)
        #expect(note.hasFault(forRelationshipNamed: "folder"))
        #expect(note.objectIDs(forRelationshipNamed: "folder") == [folder.objectID])
        #expect(note.hasFault(forRelationshipNamed: "folder"))
        _ = copy.value(forKey: "notes")
        #expect(!copy.hasFault(forRelationshipNamed: "notes"))
        #expect(Set(copy.objectIDs(forRelationshipNamed: "notes")) == Set(notes.map(\.objectID)))
    }

    @Test("a to-many fault gives the members the context holds as they are, and one registered fault for each other member",
          arguments: allStoreTypes)
    func membersRegisteredOnce(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let folder = stack.insert("Folder", ["name": "F"]) as! Folder
        let notes = (0..<5).map { stack.insert("Note", ["title": "n\($0)"]) as! Note }
        for note in notes { note.folder = folder }
        let tag = stack.insert("Tag", ["name": "t"]) as! GraphTag
        for note in notes.prefix(3) { note.addToTags(tag) }
        try stack.context.save()

        let other = stack.newContext()
        // One member is already in the context, with an unsaved change.
        let held = try other.existingObject(with: notes[2].objectID) as! Note
        held.title = "changed"
        let copy = try other.existingObject(with: folder.objectID) as! Folder
        let members = copy.notes
        #expect(members.count == 5)
        #expect(Set(members.map(\.objectID)) == Set(notes.map(\.objectID)))
        #expect(members.contains { $0 === held })
        #expect(held.title == "changed")
        for member in members {
            #expect(other.registeredObject(for: member.objectID) === member)
            if member !== held { #expect(member.isFault) }
        }
        // The same objects the next time, and through the many-to-many's other side.
        #expect(Set(copy.notes.map(ObjectIdentifier.init)) == Set(members.map(ObjectIdentifier.init)))
        let tagCopy = try other.existingObject(with: tag.objectID) as! GraphTag
        let tagged = tagCopy.notes.allObjects.map { $0 as! Note }
        #expect(tagged.count == 3)
        for note in tagged { #expect(members.contains { $0 === note }) }
        #expect(other.registeredObjects.count == 7)
    }
}
