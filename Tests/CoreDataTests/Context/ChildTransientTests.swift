import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct ChildTransientTests {
    @Test("a child context's save carries transient attribute values to its parent", arguments: [false, true])
    func transientValuesReachParent(onDisk: Bool) throws {
        let container = try MembersContainer.make(onDisk: onDisk)
        let parent = container.viewContext
        let item = ShoppingItem(context: parent)
        item.name = "Milk"
        try parent.save()

        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let newID = try child.performAndWait {
            let copy = child.object(with: item.objectID)
            copy.setValue("check the date", forKey: "scratch")
            let added = ShoppingItem(context: child)
            added.name = "Bread"
            added.setValue("fresh", forKey: "scratch")
            try child.save()
            return added.objectID
        }
        #expect(item.value(forKey: "scratch") as? String == "check the date")
        #expect(parent.object(with: newID).value(forKey: "scratch") as? String == "fresh")
        // Transient values never reach the store.
        try parent.save()
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try reader.existingObject(with: item.objectID).value(forKey: "scratch") }
        #expect(stored == nil)
    }
}
