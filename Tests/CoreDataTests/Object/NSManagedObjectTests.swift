import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct NSManagedObjectTests {
    @Test("value(forKey:) returns what setValue(_:forKey:) stored, for every attribute type")
    func roundTripsEveryAttributeType() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Milk")
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        let uuid = UUID()
        item.setValue(3, forKey: "quantity")
        item.setValue(Int16(7), forKey: "count16")
        item.setValue(2.5, forKey: "price")
        item.setValue(true, forKey: "purchased")
        item.setValue(date, forKey: "addedAt")
        item.setValue(uuid, forKey: "identifier")
        item.setValue(Data([0, 1, 2, 0]), forKey: "photo")
        item.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "link")
        item.setValue(Decimal(string: "10.11")!, forKey: "cost")
        #expect(item.value(forKey: "name") as? String == "Milk")
        #expect(item.value(forKey: "quantity") as? Int == 3)
        #expect(item.value(forKey: "count16") as? Int16 == 7)
        #expect(item.value(forKey: "price") as? Double == 2.5)
        #expect(item.value(forKey: "purchased") as? Bool == true)
        #expect(item.value(forKey: "addedAt") as? Date == date)
        #expect(item.value(forKey: "identifier") as? UUID == uuid)
        #expect(item.value(forKey: "photo") as? Data == Data([0, 1, 2, 0]))
        #expect(item.value(forKey: "link") as? URL == URL(string: "https://example.com/a?b=c"))
        #expect(item.value(forKey: "cost") as? Decimal == Decimal(string: "10.11"))
        item.setValue(nil, forKey: "price")
        #expect(item.value(forKey: "price") == nil)
    }

    @Test("default values from the model are set on insert")
    func appliesDefaults() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Eggs")
        #expect(item.value(forKey: "quantity") as? Int64 == 1)
        #expect(item.value(forKey: "purchased") as? Bool == false)
        #expect(item.isInserted)
        #expect(item.objectID.isTemporaryID)
    }

    @Test("@Managed properties read and write the same slots as key-value coding")
    func managedPropertyWrapper() throws {
        let stack = try TestStack()
        let item = ShoppingItem(context: stack.context)
        item.name = "Bread"
        item.quantity = 4
        #expect(item.value(forKey: "name") as? String == "Bread")
        #expect(item.value(forKey: "quantity") as? Int64 == 4)
        item.setValue(9.5, forKey: "price")
        #expect(item.price == 9.5)
        #expect(item.purchased == false)
        #expect(item.entity.name == "ShoppingItem")
    }

    @Test("changedValues and committedValues compare with the saved snapshot")
    func changeTracking() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Tea")
        #expect(item.changedValues()["name"] as? String == "Tea")
        #expect(item.committedValues(forKeys: nil).isEmpty)
        try stack.context.save()
        #expect(item.changedValues().isEmpty)
        #expect(!item.hasChanges)
        item.setValue("Green tea", forKey: "name")
        #expect(item.isUpdated)
        #expect(item.hasPersistentChangedValues)
        #expect(item.changedValues().keys.sorted() == ["name"])
        #expect(item.committedValues(forKeys: ["name"])["name"] as? String == "Tea")
        item.setValue("Tea", forKey: "name")
        #expect(!item.hasPersistentChangedValues)
    }

    @Test("changedValuesForCurrentEvent resets at processPendingChanges")
    func currentEvent() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Jam")
        try stack.context.save()
        item.setValue(5, forKey: "quantity")
        #expect(item.changedValuesForCurrentEvent().keys.sorted() == ["quantity"])
        stack.context.processPendingChanges()
        #expect(item.changedValuesForCurrentEvent().isEmpty)
        #expect(item.changedValues().keys.sorted() == ["quantity"])
    }

    @Test("value(forKeyPath:) follows to-one relationships")
    func keyPaths() throws {
        let stack = try TestStack()
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        list.setValue("Weekly", forKey: "title")
        let item = stack.insertItem("Rice")
        item.setValue(list, forKey: "list")
        #expect(item.value(forKeyPath: "list.title") as? String == "Weekly")
        item.setValue("Monthly", forKeyPath: "list.title")
        #expect(list.value(forKey: "title") as? String == "Monthly")
    }

    @Test("a value of the wrong type stored with setPrimitiveValue is reported at save, naming object and key")
    func wrongTypeFailsValidation() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Oil")
        item.setPrimitiveValue("many", forKey: "quantity")
        #expect(item.value(forKey: "quantity") as? String == "many")
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "quantity")
    }

    @Test("the throwing twin rejects unknown keys and wrong types without trapping")
    func checkedAccess() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Salt")
        #expect(throws: NSError.self) { try item.checkedValue(forKey: "nope") }
        #expect(throws: NSError.self) { try item.checkedSetValue("x", forKey: "quantity") }
        #expect(throws: NSError.self) { try item.checkedSetValue(1, forKey: "nope") }
        try item.checkedSetValue(2, forKey: "quantity")
        #expect(try item.checkedValue(forKey: "quantity") as? Int == 2)
    }

    @Test("lifecycle hooks run: awakeFromInsert on insert, willSave and didSave on save")
    func lifecycleHooks() throws {
        let stack = try TestStack()
        let item = ShoppingItem(context: stack.context)
        item.name = "Flour"
        try stack.context.save()
        #expect(item.willSaveCalls == 1)
    }
}

/// `@Managed(key:)`: a Swift name other than the model's key, beside a plain one.
final class RenamedItem: NSManagedObject {
    @Managed(key: "name") var title: String?
    @Managed var quantity: Int64
}

@Suite struct ManagedKeyTests {
    @Test("@Managed(key:) reads and writes the named key; plain properties find their own names")
    func explicitKeys() throws {
        let entity = NSEntityDescription()
        entity.name = "Renamed"
        entity.managedObjectClassName = String(reflecting: RenamedItem.self)
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let quantity = NSAttributeDescription()
        quantity.name = "quantity"
        quantity.attributeType = .integer64AttributeType
        entity.properties = [name, quantity]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let stack = try TestStack(model: model)
        let item = RenamedItem(context: stack.context)
        item.title = "Milk"
        item.quantity = 3
        #expect(item.value(forKey: "name") as? String == "Milk")
        #expect(item.value(forKey: "quantity") as? Int == 3)
        item.setValue("Eggs", forKey: "name")
        #expect(item.title == "Eggs")
        let other = RenamedItem(context: stack.context)
        #expect(other.title == nil && other.quantity == 0)
        try stack.context.save()
    }
}
