import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A container whose store already holds two saved shopping items.
private func containerWithSavedItems() throws -> MembersContainer {
    let container = try MembersContainer.make(onDisk: true)
    let writer = container.newBackgroundContext()
    try writer.performAndWait {
        for name in ["Milk", "Bread"] {
            let item = ShoppingItem(context: writer)
            item.name = name
        }
        try writer.save()
    }
    return container
}

private func itemsRequest() -> NSFetchRequest<ShoppingItem> {
    let request = NSFetchRequest<ShoppingItem>(entityName: "ShoppingItem")
    request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    return request
}

@Suite struct RetainsRegisteredObjectsTests {
    @Test("by default a context lets go of an unchanged fetched object the app no longer holds")
    func unchangedObjectsAreReleased() throws {
        let container = try containerWithSavedItems()
        let context = container.newBackgroundContext()
        #expect(!context.retainsRegisteredObjects)
        let (registeredWhileHeld, registeredAfter, released, refetched) = try context.performAndWait {
            weak var dropped: ShoppingItem?
            var registeredWhileHeld = 0
            var objectID: NSManagedObjectID?
            do {
                let items = try context.fetch(itemsRequest())
                dropped = items.first
                objectID = items.first?.objectID
                registeredWhileHeld = context.registeredObjects.count
            }
            let released = dropped == nil
            let registeredAfter = context.registeredObjects.count
            let again = try context.existingObject(with: try #require(objectID)) as? ShoppingItem
            return (registeredWhileHeld, registeredAfter, released, again?.name)
        }
        #expect(registeredWhileHeld == 2)
        #expect(released)
        #expect(registeredAfter == 0)
        #expect(refetched == "Bread")
    }

    @Test("a fault from object(with:) that nobody keeps leaves the context")
    func unusedFaultsAreReleased() throws {
        let container = try containerWithSavedItems()
        let reader = container.newBackgroundContext()
        let objectID = try reader.performAndWait { try reader.fetch(itemsRequest())[0].objectID }
        let context = container.newBackgroundContext()
        let (registered, registeredAfter, name) = context.performAndWait {
            let registered: Int
            do {
                let fault = context.object(with: objectID)
                registered = context.registeredObjects.count
                _ = fault.isFault
            }
            let registeredAfter = context.registeredObjects.count
            return (registered, registeredAfter, context.object(with: objectID).value(forKey: "name") as? String)
        }
        #expect(registered == 1)
        #expect(registeredAfter == 0)
        #expect(name == "Bread")
    }

    @Test("retainsRegisteredObjects = true keeps every registered object until reset()")
    func retainedUntilReset() throws {
        let container = try containerWithSavedItems()
        let context = container.newBackgroundContext()
        context.retainsRegisteredObjects = true
        let (alive, registered, aliveAfterReset, registeredAfterReset) = try context.performAndWait {
            weak var kept: ShoppingItem?
            do { kept = try context.fetch(itemsRequest()).first }
            let alive = kept?.name
            let registered = context.registeredObjects.count
            context.reset()
            return (alive, registered, kept != nil, context.registeredObjects.count)
        }
        #expect(alive == "Bread")
        #expect(registered == 2)
        #expect(!aliveAfterReset)
        #expect(registeredAfterReset == 0)
    }

    @Test("inserted, updated and deleted objects stay alive until saved, even when the app drops them")
    func changedObjectsAreKeptUntilSaved() throws {
        let container = try containerWithSavedItems()
        let context = container.newBackgroundContext()
        let (counts, aliveBeforeSave, aliveAfterSave) = try context.performAndWait {
            weak var updated: ShoppingItem?
            weak var deleted: ShoppingItem?
            weak var inserted: ShoppingItem?
            do {
                let items = try context.fetch(itemsRequest())
                items[0].name = "Rye bread"
                context.delete(items[1])
                let new = ShoppingItem(context: context)
                new.name = "Tea"
                (updated, deleted, inserted) = (items[0], items[1], new)
            }
            let counts = (context.insertedObjects.count, context.updatedObjects.count,
                          context.deletedObjects.count, context.registeredObjects.count)
            let aliveBeforeSave = updated != nil && deleted != nil && inserted != nil
            try context.save()
            return (counts, aliveBeforeSave, updated != nil || deleted != nil || inserted != nil)
        }
        #expect(counts == (1, 1, 1, 3))
        #expect(aliveBeforeSave)
        #expect(!aliveAfterSave)

        let reader = container.newBackgroundContext()
        let names = try reader.performAndWait { try reader.fetch(itemsRequest()).map(\.name) }
        #expect(names == ["Rye bread", "Tea"])
    }

    @Test("turning retainsRegisteredObjects off releases the unchanged objects it was keeping")
    func turningRetentionOff() throws {
        let container = try containerWithSavedItems()
        let context = container.newBackgroundContext()
        context.retainsRegisteredObjects = true
        let (keptWhileOn, registeredAfterOff) = try context.performAndWait {
            weak var kept: ShoppingItem?
            do { kept = try context.fetch(itemsRequest()).first }
            let keptWhileOn = kept != nil
            context.retainsRegisteredObjects = false
            return (keptWhileOn, context.registeredObjects.count)
        }
        #expect(keptWhileOn)
        #expect(registeredAfterOff == 0)
    }
}
