import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct FetchedPropertyTests {
    /// The test model plus `ShoppingList.expensiveItems`: items of this list over 5.
    func model() -> NSManagedObjectModel {
        let model = TestModel.make()
        let list = model.entitiesByName["ShoppingList"]!
        let fetched = NSFetchedPropertyDescription()
        fetched.name = "expensiveItems"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "list == $FETCH_SOURCE AND price > 5")
        request.sortDescriptors = [NSSortDescriptor(key: "price", ascending: true)]
        fetched.fetchRequest = request
        list.properties += [fetched]
        return model
    }

    @Test("a fetched property runs its request with $FETCH_SOURCE bound, once, until refreshed", arguments: [NSInMemoryStoreType, NSSQLiteStoreType])
    func evaluatesLazily(_ storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: model())
        let list = ShoppingList(context: stack.context)
        list.title = "L"
        let other = ShoppingList(context: stack.context)
        other.title = "O"
        for (name, price, owner) in [("a", 1.0, list), ("b", 9.0, list), ("c", 7.0, list), ("d", 8.0, other)] {
            let item = ShoppingItem(context: stack.context)
            item.name = name
            item.price = price
            item.list = owner
        }
        try stack.context.save()
        let context = stack.newContext()
        let copy = try context.existingObject(with: list.objectID)
        let names = (copy.value(forKey: "expensiveItems") as? [NSManagedObject])?.compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["c", "b"])

        let cheap = try #require(try context.fetch(NSFetchRequest<ShoppingItem>(entityName: "ShoppingItem")).first { $0.name == "a" })
        cheap.price = 20
        try context.save()
        #expect((copy.value(forKey: "expensiveItems") as? [Any])?.count == 2)
        context.refresh(copy, mergeChanges: false)
        #expect((copy.value(forKey: "expensiveItems") as? [Any])?.count == 3)
    }
}
