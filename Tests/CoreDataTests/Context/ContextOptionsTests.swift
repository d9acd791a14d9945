import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The context properties that change how it reads and merges.
@Suite struct ContextOptionsTests {
    @Test("automaticallyMergesChangesFromParent merges other contexts' saves on the same coordinator")
    func automaticMerging() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Tea")
        try stack.context.save()
        let watcher = stack.newContext()
        watcher.automaticallyMergesChangesFromParent = true
        let copy = try watcher.performAndWait { try watcher.existingObject(with: item.objectID) }
        try stack.context.performAndWait {
            item.setValue("Green tea", forKey: "name")
            try stack.context.save()
        }
        // The merge was queued on the watcher's queue before this block.
        let name = watcher.performAndWait { copy.value(forKey: "name") as? String }
        #expect(name == "Green tea")

        let manual = stack.newContext()
        let unmerged = try manual.performAndWait { try manual.existingObject(with: item.objectID) }
        try stack.context.performAndWait {
            item.setValue("Black tea", forKey: "name")
            try stack.context.save()
        }
        #expect(manual.performAndWait { unmerged.value(forKey: "name") as? String } == "Green tea")
    }

    @Test("a fault whose row is gone reads as deleted with nil values; with shouldDeleteInaccessibleFaults off it throws")
    func inaccessibleFaults() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Gone")
        try stack.context.save()
        let lenient = stack.newContext()
        let strict = stack.newContext()
        strict.shouldDeleteInaccessibleFaults = false
        let a = lenient.object(with: item.objectID), b = strict.object(with: item.objectID)
        stack.context.delete(item)
        try stack.context.save()
        #expect(a.value(forKey: "name") == nil)
        #expect(a.isDeleted)
        #expect(!a.isFault)
        #expect(throws: NSError.self) { try b.checkedValue(forKey: "name") }
    }

    @Test("stalenessInterval 0 reads a fault's row from the store, not the cache")
    func staleness() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Old")
        try stack.context.save()
        let url = stack.directory.appendingPathComponent("Test.sqlite")
        // Another coordinator (another process, in effect) changes the row.
        let outside = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try outside.addPersistentStore(type: .sqlite, at: url)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = outside
        try writer.performAndWait {
            try writer.existingObject(with: outside.managedObjectID(forURIRepresentation: item.objectID.uriRepresentation())!)
                .setValue("New", forKey: "name")
            try writer.save()
        }
        let cached = stack.newContext()
        #expect(cached.object(with: item.objectID).value(forKey: "name") as? String == "Old")
        let fresh = stack.newContext()
        fresh.stalenessInterval = 0
        #expect(fresh.object(with: item.objectID).value(forKey: "name") as? String == "New")
    }
}
