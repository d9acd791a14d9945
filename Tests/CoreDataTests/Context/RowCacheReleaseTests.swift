import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// What `reset()` lets go of: the coordinator's cached rows of the objects the context
/// dropped, so that their faults read the store again, as Apple's do.
@Suite struct RowCacheReleaseTests {
    /// Saves an item named "Milk" through the stack's context and reads it once (which
    /// leaves its row in the coordinator's cache); returns its ID.
    private func savedAndRead(_ stack: TestStack) throws -> NSManagedObjectID {
        let context = stack.context
        return try context.performAndWait {
            let item = stack.insertItem("Milk")
            try context.save()
            context.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "name") as? String == "Milk")
            return item.objectID
        }
    }

    /// Renames every item in the file through a coordinator of its own (as another
    /// process would).
    private func renameBehindTheBack(_ stack: TestStack, to name: String) throws {
        let other = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try other.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: stack.storeURL, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = other
        try context.performAndWait {
            for item in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) {
                item.setValue(name, forKey: "name")
            }
            try context.save()
        }
    }

    @Test("after reset(), a fault of an object nobody held reads the store again")
    func resetRereadsReleasedRows() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let id = try savedAndRead(stack)
        try renameBehindTheBack(stack, to: "Oat milk")
        let context = stack.context
        let name = try context.performAndWait {
            context.reset()
            return try context.existingObject(with: id).value(forKey: "name") as? String
        }
        #expect(name == "Oat milk")
    }

    @Test("reset() keeps the rows another context's objects still hold")
    func resetKeepsHeldRows() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let id = try savedAndRead(stack)
        let holder = stack.newContext()
        let held = try holder.performAndWait { try holder.existingObject(with: id) }
        #expect(holder.performAndWait { held.value(forKey: "name") as? String } == "Milk")
        try renameBehindTheBack(stack, to: "Oat milk")
        // The other context still holds its object (and its snapshot): the shared row stays,
        // so a new fault for it in a reset context fires from the cache without a store read.
        let context = stack.context
        let name = try context.performAndWait {
            context.reset()
            return try context.existingObject(with: id).value(forKey: "name") as? String
        }
        #expect(name == "Milk")
        withExtendedLifetime(held) {}
    }
}
