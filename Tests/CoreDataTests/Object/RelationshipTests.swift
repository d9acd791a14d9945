import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct RelationshipTests {
    @Test("setting a to-one sets the inverse to-many at once, before any save")
    func toOneMaintainsInverse() throws {
        let stack = try TestStack()
        let list = ShoppingList(context: stack.context)
        list.title = "Weekly"
        let item = ShoppingItem(context: stack.context)
        item.name = "Milk"
        item.list = list
        #expect(list.items == [item])
        let other = ShoppingList(context: stack.context)
        other.title = "Other"
        item.list = other
        #expect(list.items.isEmpty)
        #expect(other.items == [item])
        item.list = nil
        #expect(other.items.isEmpty)
    }

    @Test("setting a to-many sets each member's inverse to-one, taking it from its old owner")
    func toManyMaintainsInverse() throws {
        let stack = try TestStack()
        let a = ShoppingList(context: stack.context), b = ShoppingList(context: stack.context)
        let milk = ShoppingItem(context: stack.context), eggs = ShoppingItem(context: stack.context)
        a.setValue(Set([milk, eggs]), forKey: "items")
        #expect(milk.list === a && eggs.list === a)
        b.setValue(Set([milk]), forKey: "items")
        #expect(milk.list === b)
        #expect(a.items == [eggs])
    }

    @Test("many-to-many relationships keep both sides and persist")
    func manyToMany() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Apple")
        let fruit = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
        let red = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
        item.setValue(Set([fruit, red]), forKey: "tags")
        #expect((fruit.value(forKey: "items") as? Set<NSManagedObject>) == [item])
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: item.objectID)
        let tags = try #require(copy.value(forKey: "tags") as? Set<NSManagedObject>)
        #expect(Set(tags.map(\.objectID)) == [fruit.objectID, red.objectID])
        let otherRed = other.object(with: red.objectID)
        #expect((otherRed.value(forKey: "items") as? Set<NSManagedObject>)?.map(\.objectID) == [item.objectID])
    }

    @Test("relationships persist: a new context reads the to-one and the to-many back")
    func persistence() throws {
        let stack = try TestStack()
        let list = ShoppingList(context: stack.context)
        list.title = "Weekly"
        for name in ["a", "b", "c"] {
            let item = ShoppingItem(context: stack.context)
            item.name = name
            item.list = list
        }
        try stack.context.save()
        let other = stack.newContext()
        let copy = try #require(try other.existingObject(with: list.objectID) as? ShoppingList)
        #expect(Set(copy.items.compactMap(\.name)) == ["a", "b", "c"])
        #expect(copy.items.allSatisfy { $0.list === copy })
    }

    @Test("deleting with Cascade deletes the members; Nullify clears the inverse")
    func deleteRules() throws {
        let stack = try TestStack()
        let list = ShoppingList(context: stack.context)
        list.title = "L"
        let item = ShoppingItem(context: stack.context)
        item.name = "I"
        item.list = list
        try stack.context.save()
        let lone = ShoppingItem(context: stack.context)
        lone.name = "Lone"
        let other = ShoppingList(context: stack.context)
        other.title = "O"
        lone.list = other
        try stack.context.save()
        stack.context.delete(lone)
        stack.context.processPendingChanges()
        #expect(other.items.isEmpty)
        stack.context.delete(list)
        try stack.context.save()
        #expect(item.managedObjectContext == nil)
        #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) == 0)
    }
}
