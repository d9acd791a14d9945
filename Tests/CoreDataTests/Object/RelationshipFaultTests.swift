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
}
