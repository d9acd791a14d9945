import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct RelationshipMutationTests {
    @Test("mutableSetValue(forKey:) is live: add and remove change the relationship and its inverse", arguments: allStoreTypes)
    func mutableSetIsLive(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let folder = stack.insert("Folder", ["name": "F"]) as! Folder
        let note = stack.insert("Note", ["title": "N"]) as! Note
        let proxy = folder.mutableSetValue(forKey: "notes")
        #expect(proxy.count == 0)
        proxy.add(note)
        #expect(note.folder === folder)
        #expect(folder.notes == [note])
        #expect(proxy.count == 1 && proxy.contains(note))
        try stack.context.save()
        proxy.remove(note)
        #expect(note.folder == nil)
        #expect(folder.notes.isEmpty)
        proxy.addObjects(from: [note])
        #expect(note.folder === folder)
        proxy.removeAllObjects()
        #expect(note.folder == nil)
    }

    @Test("a member added to another owner's set leaves its previous owner", arguments: allStoreTypes)
    func reassignThroughProxy(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let a = stack.insert("Folder") as! Folder, b = stack.insert("Folder") as! Folder
        let note = stack.insert("Note") as! Note
        a.mutableSetValue(forKey: "notes").add(note)
        b.mutableSetValue(forKey: "notes").add(note)
        #expect(a.notes.isEmpty)
        #expect(b.notes == [note])
        #expect(note.folder === b)
    }

    @Test("mutableOrderedSetValue(forKey:) inserts at an index and keeps many-to-many inverses", arguments: allStoreTypes)
    func mutableOrderedSet(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let note = stack.insert("Note") as! Note
        let x = stack.insert("Tag", ["name": "x"]) as! GraphTag
        let y = stack.insert("Tag", ["name": "y"]) as! GraphTag
        let z = stack.insert("Tag", ["name": "z"]) as! GraphTag
        note.addToTags(x)
        note.addToTags(y)
        note.insertIntoTags(z, at: 0)
        #expect(note.tags.map(\.name) == ["z", "x", "y"])
        #expect(z.notes.contains(note) && x.notes.contains(note))
        let proxy = note.mutableOrderedSetValue(forKey: "tags")
        #expect(proxy.object(at: 1) as? GraphTag === x)
        #expect(proxy.index(of: y) == 2)
        proxy.removeObject(at: 0)
        #expect(z.notes.count == 0)
        proxy.replaceObject(at: 0, with: z)
        #expect(note.tags.map(\.name) == ["z", "y"])
        #expect(x.notes.count == 0 && z.notes.count == 1)
        proxy.exchangeObject(at: 0, withObjectAt: 1)
        #expect(note.tags.map(\.name) == ["y", "z"])
        x.addToNotes(note)
        #expect(note.tags.map(\.name) == ["y", "z", "x"])
        x.removeFromNotes(note)
        #expect(note.tags.map(\.name) == ["y", "z"])
    }

    @Test("value(forKey:) gives NSOrderedSet for ordered and a set for unordered to-many")
    func appleTypesThroughKVC() throws {
        let stack = try TestStack.graph(NSInMemoryStoreType)
        let note = stack.insert("Note") as! Note
        let tag = stack.insert("Tag") as! GraphTag
        note.addToTags(tag)
        #expect(note.value(forKey: "tags") is NSOrderedSet)
        #expect(tag.value(forKey: "notes") is Set<NSManagedObject>)
        #expect(tag.notes.count == 1)
        let folder = stack.insert("Folder") as! Folder
        let child = stack.insert("Folder") as! Folder
        child.parent = folder
        #expect(folder.children.array as? [Folder] == [child])
    }

    @Test("ordered one-to-many (Z_FOK_) and ordered many-to-many orders survive a save and a new context", arguments: allStoreTypes)
    func orderingsRoundTrip(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let root = stack.insert("Folder", ["name": "root"]) as! Folder
        let names = ["c", "a", "d", "b"]
        let children = names.map { stack.insert("Folder", ["name": $0]) }
        root.setValue(NSOrderedSet(array: children), forKey: "children")
        let note = stack.insert("Note") as! Note
        let tags = names.map { stack.insert("Tag", ["name": $0]) as! GraphTag }
        for tag in tags { note.addToTags(tag) }
        try stack.context.save()
        // Reorder after the first save, then save again.
        root.mutableOrderedSetValue(forKey: "children").moveObjects(at: IndexSet(integer: 3), to: 0)
        note.mutableOrderedSetValue(forKey: "tags").exchangeObject(at: 0, withObjectAt: 3)
        try stack.context.save()
        let other = stack.newContext()
        let copy = try #require(try other.existingObject(with: root.objectID) as? Folder)
        #expect(copy.children.array.map { ($0 as! Folder).name } == ["b", "c", "a", "d"])
        let noteCopy = try #require(try other.existingObject(with: note.objectID) as? Note)
        #expect(noteCopy.tags.map(\.name) == ["b", "a", "d", "c"])
    }

    @Test("mutableSetValue on an ordered relationship traps with Apple's wording")
    func wrongProxyKind() async throws {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack.graph(NSInMemoryStoreType)
            let note = stack.insert("Note")
            _ = note.mutableSetValue(forKey: "tags")
        }
    }
}
