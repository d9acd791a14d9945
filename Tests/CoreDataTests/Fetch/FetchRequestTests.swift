import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Fetch requests behave the same on both store types.
@Suite struct FetchRequestTests {
    func stackWithItems(_ storeType: String) throws -> TestStack {
        let stack = try TestStack(storeType: storeType)
        for (name, quantity) in [("Milk", 2), ("bread", 1), ("Eggs", 12), ("Éclair", 3), ("apples", 6)] {
            let item = stack.insertItem(name)
            item.setValue(quantity, forKey: "quantity")
        }
        try stack.context.save()
        return stack
    }

    @Test("a predicate selects the matching objects", arguments: allStoreTypes)
    func predicate(_ storeType: String) throws {
        let stack = try stackWithItems(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "quantity > %d AND name BEGINSWITH[cd] %@", 1, "e")
        let names = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        #expect(Set(names) == ["Eggs", "Éclair"])
        #expect(try context.count(for: request) == 2)
    }

    @Test("sort descriptors order results, with limit and offset applied after sorting", arguments: allStoreTypes)
    func sorting(_ storeType: String) throws {
        let stack = try stackWithItems(storeType)
        let context = stack.newContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.sortDescriptors = [NSSortDescriptor(key: "quantity", ascending: false)]
        request.fetchLimit = 3
        request.fetchOffset = 1
        let quantities = try context.fetch(request).compactMap { $0.value(forKey: "quantity") as? Int }
        #expect(quantities == [6, 3, 2])
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: Selector("caseInsensitiveCompare:"))]
        request.fetchLimit = 0
        request.fetchOffset = 0
        let names = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["apples", "bread", "Eggs", "Milk", "Éclair"])
    }

    @Test("unsaved changes are matched by the predicate in memory", arguments: allStoreTypes)
    func pendingChangesWithPredicate(_ storeType: String) throws {
        let stack = try stackWithItems(storeType)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "quantity >= 10")
        let eggs = try #require(try stack.context.fetch(request).first)
        eggs.setValue(1, forKey: "quantity")
        let big = stack.insertItem("Flour")
        big.setValue(50, forKey: "quantity")
        #expect(try stack.context.fetch(request) == [big])
    }

    @Test("an unknown key in a predicate is a thrown error, not a trap", arguments: allStoreTypes)
    func unknownKeyInPredicate(_ storeType: String) throws {
        let stack = try stackWithItems(storeType)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "colour == 'red'")
        #expect(throws: NSError.self) { try stack.newContext().fetch(request) }
    }

    @Test("typed subclass fetch requests return the subclass", arguments: allStoreTypes)
    func typedFetch(_ storeType: String) throws {
        let stack = try stackWithItems(storeType)
        let context = stack.newContext()
        let request: NSFetchRequest<ShoppingItem> = NSFetchRequest(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "name == %@", "Milk")
        let milk = try #require(try context.fetch(request).first)
        #expect(milk.quantity == 2)
        let generic = ShoppingItem.fetchRequest()
        #expect(generic.entityName == "ShoppingItem")
    }
}
