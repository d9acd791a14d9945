import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct ContextUndoTests {
    private func stack(_ storeType: String) throws -> TestStack {
        let stack = try TestStack.graph(storeType)
        stack.context.undoManager = UndoManager()
        return stack
    }

    @Test("a context has no undo manager by default")
    func noneByDefault() throws {
        #expect(try TestStack().context.undoManager == nil)
    }

    @Test("attribute changes undo and redo by event", arguments: allStoreTypes)
    func attributes(storeType: String) throws {
        let stack = try stack(storeType)
        let note = stack.insert("Note", ["title": "one"]) as! Note
        try stack.context.save()
        note.title = "two"
        stack.context.processPendingChanges()
        note.title = "three"
        stack.context.undo()
        #expect(note.title == "two")
        stack.context.undo()
        #expect(note.title == "one")
        stack.context.redo()
        #expect(note.title == "two")
        stack.context.redo()
        #expect(note.title == "three")
    }

    @Test("undoing an insertion removes the object; redo brings it back", arguments: allStoreTypes)
    func insertion(storeType: String) throws {
        let stack = try stack(storeType)
        let folder = stack.insert("Folder", ["name": "F"]) as! Folder
        stack.context.processPendingChanges()
        let note = stack.insert("Note", ["title": "n"]) as! Note
        note.folder = folder
        stack.context.undo()
        #expect(!stack.context.insertedObjects.contains(note))
        #expect(folder.notes.isEmpty)
        stack.context.redo()
        #expect(stack.context.insertedObjects.contains(note))
        #expect(folder.notes == [note] && note.folder === folder)
        try stack.context.save()
        #expect(try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) == 1)
    }

    @Test("relationship changes undo with their inverses, including a reassignment", arguments: allStoreTypes)
    func relationships(storeType: String) throws {
        let stack = try stack(storeType)
        let a = stack.insert("Folder") as! Folder, b = stack.insert("Folder") as! Folder
        let note = stack.insert("Note") as! Note
        note.folder = a
        let tag = stack.insert("Tag") as! GraphTag
        try stack.context.save()
        stack.context.undoManager?.removeAllActions()
        b.mutableSetValue(forKey: "notes").add(note)
        note.addToTags(tag)
        stack.context.undo()
        #expect(note.folder === a)
        #expect(a.notes == [note] && b.notes.isEmpty)
        #expect(note.tags.isEmpty && tag.notes.count == 0)
        stack.context.redo()
        #expect(note.folder === b && a.notes.isEmpty && b.notes == [note])
        #expect(note.tags == [tag] && tag.notes.count == 1)
    }

    @Test("undoing a delete brings the object and what the delete rules changed back", arguments: allStoreTypes)
    func deletion(storeType: String) throws {
        let stack = try stack(storeType)
        let folder = stack.insert("Folder") as! Folder
        let child = stack.insert("Folder") as! Folder
        child.parent = folder
        let note = stack.insert("Note") as! Note
        note.folder = folder
        try stack.context.save()
        stack.context.undoManager?.removeAllActions()
        stack.context.delete(folder)
        stack.context.processPendingChanges()
        #expect(child.isDeleted && note.folder == nil)
        stack.context.undo()
        #expect(!folder.isDeleted && !child.isDeleted)
        #expect(note.folder === folder)
        #expect(child.parent === folder)
        #expect(stack.context.deletedObjects.isEmpty)
        stack.context.redo()
        #expect(folder.isDeleted && child.isDeleted && note.folder == nil)
        try stack.context.save()
        #expect(try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "Folder")) == 0)
    }

    @Test("rollback discards changes and empties the undo stack")
    func rollback() throws {
        let stack = try stack(NSInMemoryStoreType)
        let note = stack.insert("Note", ["title": "a"]) as! Note
        try stack.context.save()
        note.title = "b"
        stack.context.rollback()
        #expect(note.title == "a")
        #expect(stack.context.undoManager?.canUndo == false)
    }
}
