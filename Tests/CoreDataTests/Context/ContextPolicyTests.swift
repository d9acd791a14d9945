import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A context that decides per entity what happens to faults whose rows are gone, and
/// remembers what it was asked, as apps override the hook.
final class ForgivingContext: NSManagedObjectContext, @unchecked Sendable {
    var asked: [(NSManagedObject, NSManagedObjectID, NSPropertyDescription?)] = []

    override func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID,
                                                triggeredByProperty property: NSPropertyDescription?) -> Bool {
        asked.append((fault, oid, property))
        return fault.entity.name == "ShoppingItem" || super.shouldHandleInaccessibleFault(fault, for: oid, triggeredByProperty: property)
    }
}

@Suite struct ContextPolicyTests {
    @Test("assign(_:to:) puts an inserted object in the store chosen among several that hold its entity")
    func assignToStore() throws {
        let folder = try TemporaryDirectory()
        let container = MembersContainer(name: "Shop", managedObjectModel: TestModel.make())
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: folder.file("Main.sqlite")),
            NSPersistentStoreDescription(url: folder.file("Archive.sqlite")),
        ]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let stores = container.persistentStoreCoordinator.persistentStores
        #expect(stores.count == 2)
        let context = container.viewContext
        let current = ShoppingItem(context: context), archived = ShoppingItem(context: context)
        current.name = "Milk"
        archived.name = "Gramophone"
        context.assign(archived, to: stores[1])
        try context.save()
        #expect(current.objectID.persistentStore === stores[0])
        #expect(archived.objectID.persistentStore === stores[1])

        let request = ShoppingItem.fetchRequest()
        request.affectedStores = [stores[1]]
        let reader = container.newBackgroundContext()
        let inArchive = try reader.fetch(request) as? [ShoppingItem]
        #expect(inArchive?.map(\.name) == ["Gramophone"])
    }

    @Test("detectConflicts(for:) fails the save with 133020 when an unchanged object changed in the store",
          arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func detectConflicts(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let rate = stack.insertItem("Rate")
        try stack.context.save()
        let reader = stack.newContext()
        let readRate = try reader.existingObject(with: rate.objectID) as! ShoppingItem
        // Someone else changes the rate after `reader` read it.
        rate.setValue(Int64(9), forKey: "quantity")
        try stack.context.save()

        reader.detectConflicts(for: readRate)
        let invoice = stack.insertItem("Invoice", in: reader)
        invoice.setValue(readRate.quantity * 2, forKey: "quantity")
        let error = try #require(throws: NSError.self) { try reader.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectMergeError)
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
        #expect(conflicts.first?.sourceObject === readRate)
        let count = try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        #expect(count == 1) // the invoice was not written

        // Reading the rate again ends the conflict; without the mark a save goes through.
        reader.refresh(readRate, mergeChanges: true)
        reader.detectConflicts(for: readRate)
        try reader.save()
        #expect(try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) == 2)
    }

    @Test("shouldHandleInaccessibleFault(_:for:triggeredByProperty:) decides for a fault whose row is gone")
    func inaccessibleFaultHook() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Gone")
        try stack.context.save()
        let context = ForgivingContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = stack.coordinator
        context.shouldDeleteInaccessibleFaults = false
        let fault = context.object(with: item.objectID)
        stack.context.delete(item)
        try stack.context.save()

        // existingObject(with:) reports the failure as an error without asking.
        #expect(throws: NSError.self) { try context.existingObject(with: item.objectID) }
        #expect(context.asked.isEmpty)
        #expect(fault.value(forKey: "name") == nil) // the hook said yes: nil values, deleted
        #expect(fault.isDeleted)
        #expect(context.asked.count == 1)
        #expect(context.asked.first?.0 === fault)
        #expect(context.asked.first?.1 == item.objectID)
    }

    @Test("propagatesDeletesAtEndOfEvent = false leaves delete rules for the save")
    func deletesAtSave() throws {
        let stack = try TestStack()
        let list = stack.insert("ShoppingList", ["title": "Weekly"])
        let item = stack.insertItem("Milk")
        item.setValue(list, forKey: "list")
        try stack.context.save()
        stack.context.propagatesDeletesAtEndOfEvent = false
        stack.context.delete(list)
        stack.context.processPendingChanges()
        #expect(!item.isDeleted) // the cascade has not run yet
        try stack.context.save()
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) == 0)
    }
}
