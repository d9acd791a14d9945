import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct RefreshTests {
    /// Saves an item named `name` and returns it with its container.
    private func savedItem(_ name: String, onDisk: Bool) throws -> (MembersContainer, ShoppingItem) {
        let container = try MembersContainer.make(onDisk: onDisk)
        let item = ShoppingItem(context: container.viewContext)
        item.name = name
        try container.viewContext.save()
        return (container, item)
    }

    /// Renames the stored item from another context.
    private func renameInStore(_ item: ShoppingItem, to name: String, in container: MembersContainer) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.object(with: item.objectID).setValue(name, forKey: "name")
            try other.save()
        }
    }

    @Test("refresh(_:mergeChanges: false) turns an unchanged object into a fault that reads the store again",
          arguments: [false, true])
    func unchangedObject(onDisk: Bool) throws {
        let (container, item) = try savedItem("Milk", onDisk: onDisk)
        let context = container.viewContext
        #expect(!item.isFault)
        try renameInStore(item, to: "Oat milk", in: container)
        context.refresh(item, mergeChanges: false)
        #expect(item.isFault)
        #expect(item.name == "Oat milk")
        #expect(!context.hasChanges)
    }

    @Test("refresh(_:mergeChanges: false) discards unsaved changes and transient values, leaving a fault",
          arguments: [false, true])
    func changedObject(onDisk: Bool) throws {
        let (container, item) = try savedItem("Milk", onDisk: onDisk)
        let context = container.viewContext
        item.name = "Cream"
        item.setValue("note", forKey: "scratch")
        #expect(context.updatedObjects.contains(item))
        context.refresh(item, mergeChanges: false)
        #expect(item.isFault)
        #expect(!item.hasChanges)
        #expect(!context.hasChanges)
        #expect(context.updatedObjects.isEmpty)
        #expect(item.name == "Milk")
        #expect(item.value(forKey: "scratch") == nil)
    }

    @Test("refresh(_:mergeChanges: true) keeps unsaved changes and transient values over the store's new values")
    func mergingRefresh() throws {
        let (container, item) = try savedItem("Milk", onDisk: true)
        let context = container.viewContext
        item.price = 2.5
        item.setValue("note", forKey: "scratch")
        try renameInStore(item, to: "Oat milk", in: container)
        context.refresh(item, mergeChanges: true)
        #expect(!item.isFault)
        #expect(item.name == "Oat milk")
        #expect(item.price == 2.5)
        #expect(item.value(forKey: "scratch") as? String == "note")
        #expect(item.isUpdated)
    }

    @Test("refresh(_:mergeChanges: false) on a deleted object undoes the delete and leaves a fault",
          arguments: [false, true])
    func deletedObject(onDisk: Bool) throws {
        let (container, item) = try savedItem("Milk", onDisk: onDisk)
        let context = container.viewContext
        context.delete(item)
        context.processPendingChanges()
        #expect(item.isDeleted)
        context.refresh(item, mergeChanges: false)
        #expect(item.isFault)
        #expect(!item.isDeleted)
        #expect(context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try container.newBackgroundContext().count(for: ShoppingItem.fetchRequest()) == 1)
    }

    @Test("refresh(_:mergeChanges:) leaves an inserted object as it is: it has nothing in the store to reload")
    func insertedObject() throws {
        let container = try MembersContainer.make()
        let context = container.viewContext
        let item = ShoppingItem(context: context)
        item.name = "Bread"
        context.refresh(item, mergeChanges: false)
        #expect(!item.isFault)
        #expect(item.isInserted)
        #expect(item.name == "Bread")
        try context.save()
        #expect(try context.count(for: ShoppingItem.fetchRequest()) == 1)
    }

    @Test("refresh(_:mergeChanges: false) on a fault or a related object releases the graph it held")
    func faultsAndRelationships() throws {
        let container = try MembersContainer.make(onDisk: true)
        let context = container.viewContext
        let list = ShoppingList(context: context)
        list.title = "Weekly"
        let item = ShoppingItem(context: context)
        item.name = "Milk"
        item.list = list
        try context.save()
        #expect(list.items.count == 1)
        context.refresh(list, mergeChanges: false)
        #expect(list.isFault)
        #expect(list.hasFault(forRelationshipNamed: "items"))
        context.refresh(list, mergeChanges: false) // already a fault: stays one
        #expect(list.isFault)
        #expect(list.items.map(\.name) == ["Milk"])
    }
}
