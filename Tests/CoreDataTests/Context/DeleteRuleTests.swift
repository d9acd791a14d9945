import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct DeleteRuleTests {
    @Test("Cascade one-to-one reaches an inherited destination; Nullify one-to-one clears the owner", arguments: allStoreTypes)
    func oneToOne(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let note = stack.insert("Note") as! Note
        let image = stack.insert("ImageAttachment", ["fileName": "a.png", "width": 3])
        note.attachment = image
        #expect(image.value(forKey: "note") as? Note === note)
        try stack.context.save()
        stack.context.delete(note)
        stack.context.processPendingChanges()
        #expect(image.isDeleted)
        #expect(note.preparedForDeletion == 1)
        try stack.context.save()
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Attachment")) == 0)

        let second = stack.insert("Note") as! Note
        let file = stack.insert("FileAttachment", ["fileName": "b.txt"])
        second.attachment = file
        try stack.context.save()
        stack.context.delete(file)
        stack.context.processPendingChanges()
        #expect(second.attachment == nil)
        #expect(!second.isDeleted)
        try stack.context.save()
        #expect(second.attachment == nil)
    }

    @Test("Nullify one-to-many removes the deleted member from the owner; No Action leaves the owner alone", arguments: allStoreTypes)
    func oneToManyNullifyAndNoAction(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let folder = stack.insert("Folder") as! Folder
        let a = stack.insert("Note", ["title": "a"]) as! Note, b = stack.insert("Note", ["title": "b"]) as! Note
        a.folder = folder
        b.folder = folder
        try stack.context.save()
        // Note.folder is No Action: deleting a note does not touch folder.notes.
        stack.context.delete(a)
        stack.context.processPendingChanges()
        #expect(folder.notes.contains(a))
        try stack.context.save()
        // Folder.notes is Nullify: deleting the folder clears each note's folder.
        stack.context.delete(folder)
        stack.context.processPendingChanges()
        #expect(b.folder == nil && !b.isDeleted)
        try stack.context.save()
        let other = stack.newContext()
        let copy = try #require(try other.existingObject(with: b.objectID) as? Note)
        #expect(copy.folder == nil)
    }

    @Test("Cascade through an ordered reflexive relationship deletes the whole subtree, cycles included", arguments: allStoreTypes)
    func cascadeReflexiveOrdered(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let root = stack.insert("Folder", ["name": "root"]) as! Folder
        var parent = root
        var all = [root]
        for index in 0..<5 {
            let child = stack.insert("Folder", ["name": "f\(index)"]) as! Folder
            child.parent = parent
            all.append(child)
            parent = child
        }
        try stack.context.save()
        stack.context.delete(root)
        try stack.context.save()
        #expect(all.allSatisfy { $0.managedObjectContext == nil })
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Folder")) == 0)
    }

    @Test("Cascade terminates on a cycle of cascading relationships")
    func cascadeCycle() throws {
        let stack = try TestStack.graph(NSInMemoryStoreType)
        let note = stack.insert("Note") as! Note
        let attachment = stack.insert("ImageAttachment")
        note.attachment = attachment
        stack.context.delete(attachment)
        stack.context.delete(note)
        stack.context.processPendingChanges()
        #expect(stack.context.insertedObjects.isEmpty)
    }

    @Test("Deny on a many-to-many fails the save naming the object and the key; the context keeps its changes", arguments: allStoreTypes)
    func denyManyToMany(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let note = stack.insert("Note") as! Note
        let tag = stack.insert("Tag", ["name": "t"]) as! GraphTag
        note.addToTags(tag)
        try stack.context.save()
        stack.context.delete(tag)
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === tag)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "notes")
        #expect(tag.isDeleted)
        #expect(stack.context.hasChanges)
        // Nothing was written: another context still sees the tag.
        let other = stack.newContext()
        #expect(try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 1)
        // Once the note lets go, the delete goes through.
        note.removeFromTags(tag)
        try stack.context.save()
        #expect(try other.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 0)
    }

    @Test("Nullify on a reflexive many-to-many removes the deleted object from both sides", arguments: allStoreTypes)
    func reflexiveManyToMany(storeType: String) throws {
        let stack = try TestStack.graph(storeType)
        let animal = stack.insert("Tag", ["name": "animal"]), dog = stack.insert("Tag", ["name": "dog"])
        let cat = stack.insert("Tag", ["name": "cat"])
        animal.setValue(Set([dog, cat]), forKey: "narrower")
        #expect((dog.value(forKey: "broader") as? Set<NSManagedObject>) == [animal])
        try stack.context.save()
        let other = stack.newContext()
        let otherAnimal = try other.existingObject(with: animal.objectID)
        #expect((otherAnimal.value(forKey: "narrower") as? Set<NSManagedObject>)?.count == 2)
        stack.context.delete(animal)
        try stack.context.save()
        #expect((dog.value(forKey: "broader") as? Set<NSManagedObject>)?.isEmpty == true)
        let third = stack.newContext()
        let otherDog = try third.existingObject(with: dog.objectID)
        #expect((otherDog.value(forKey: "broader") as? Set<NSManagedObject>)?.isEmpty == true)
    }

    @Test("deleting an inserted, never-saved object drops it and nullifies its relationships")
    func deleteUnsaved() throws {
        let stack = try TestStack.graph(NSInMemoryStoreType)
        let folder = stack.insert("Folder") as! Folder
        let note = stack.insert("Note") as! Note
        note.folder = folder
        stack.context.delete(folder)
        stack.context.processPendingChanges()
        #expect(note.folder == nil)
        #expect(folder.managedObjectContext == nil)
        #expect(!stack.context.insertedObjects.contains(folder))
    }
}
