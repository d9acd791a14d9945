import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct ModelCopyingTests {
    @Test("a copy of a model a coordinator froze is a deep, editable model that opens its own store")
    func copiedModelIsEditable() throws {
        let original = TestModel.make()
        let stack = try TestStack(model: original)
        #expect(!original.isEditable)

        let copy = try #require(original.copy() as? NSManagedObjectModel)
        #expect(copy.isEditable)
        #expect(copy.entityVersionHashesByName == original.entityVersionHashesByName)
        let list = try #require(copy.entitiesByName["ShoppingList"])
        let item = try #require(copy.entitiesByName["ShoppingItem"])
        #expect(list !== original.entitiesByName["ShoppingList"])
        #expect(list.managedObjectModel === copy)
        let items = try #require(list.relationshipsByName["items"])
        #expect(items.entity === list)
        #expect(items.destinationEntity === item)
        #expect(items.inverseRelationship === item.relationshipsByName["list"])
        #expect(items.deleteRule == .cascadeDeleteRule)
        #expect(item.attributesByName["quantity"]?.defaultValue as? Int == 1)

        // Editing the copy leaves the original (and its open store) alone.
        item.properties += [attribute("note", .stringAttributeType)]
        #expect(original.entitiesByName["ShoppingItem"]?.propertiesByName["note"] == nil)
        let edited = try TestStack(model: copy)
        let object = edited.insert("ShoppingItem", ["name": "Milk", "note": "skimmed"])
        object.setValue(edited.insert("ShoppingList", ["title": "Week"]), forKey: "list")
        try edited.context.save()
        #expect(object.value(forKey: "note") as? String == "skimmed")
        _ = stack.insertItem("Bread")
        try stack.context.save()
    }

    @Test("a copied entity carries copies of its properties, indexes and sub-entities, and belongs to no model")
    func copiedEntityIsDeep() throws {
        let model = Models.library().copy() as! NSManagedObjectModel  // library() is frozen; its copy is editable
        let message = try #require(model.entitiesByName["Message"])
        let sentAt = try #require(message.propertiesByName["sentAt"])
        message.indexes = [NSFetchIndexDescription(name: "bySentAt", elements: [
            NSFetchIndexElementDescription(property: sentAt, collationType: .binary),
        ])]
        message.uniquenessConstraints = [[sentAt]]
        freeze(model)

        let copy = try #require(message.copy() as? NSEntityDescription)
        #expect(copy.managedObjectModel == nil)
        #expect(copy.name == "Message")
        let copiedSentAt = try #require(copy.propertiesByName["sentAt"])
        #expect(copiedSentAt !== sentAt)
        #expect(copiedSentAt.entity === copy)
        #expect(copy.indexes.first?.entity === copy)
        #expect(copy.indexes.first?.elements.first?.property === copiedSentAt)
        #expect(copy.uniquenessConstraints.first?.first as? String == "sentAt")
        #expect(copy.subentities.compactMap(\.name).sorted() == ["SystemMessage", "TextMessage"])
        #expect(copy.subentities.allSatisfy { $0.superentity === copy })
        #expect(copy.subentitiesByName["TextMessage"]?.propertiesByName["sentAt"] === copiedSentAt)
        // The copy is editable although the original's model is frozen.
        copy.name = "Note"
        copiedSentAt.isOptional = false
        #expect(message.name == "Message")
        #expect(sentAt.isOptional)
    }

    @Test("property copies keep every setting, point a relationship at the same destination, and are editable")
    func copiedProperties() throws {
        let model = TestModel.make()
        freeze(model)
        let item = try #require(model.entitiesByName["ShoppingItem"])
        let quantity = try #require(item.attributesByName["quantity"])
        let copy = try #require(quantity.copy() as? NSAttributeDescription)
        #expect(copy.name == "quantity")
        #expect(copy.attributeType == .integer64AttributeType)
        #expect(copy.defaultValue as? Int == 1)
        #expect(copy.isOptional == false)
        #expect(copy.entity == nil)
        #expect(copy.versionHash == quantity.versionHash)
        copy.name = "amount"
        #expect(quantity.name == "quantity")

        let list = try #require(item.relationshipsByName["list"])
        let listCopy = try #require(list.copy() as? NSRelationshipDescription)
        #expect(listCopy.destinationEntity === list.destinationEntity)
        #expect(listCopy.inverseRelationship === list.inverseRelationship)
        #expect(listCopy.maxCount == 1 && listCopy.deleteRule == .nullifyDeleteRule)

        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "quantity")])
        total.resultType = .integer64
        #expect(total.expressionResultType == .integer64AttributeType)
        let totalCopy = try #require(total.copy() as? NSExpressionDescription)
        #expect(totalCopy.expression == total.expression)
        #expect(totalCopy.resultType == .integer64)

        let derived = NSDerivedAttributeDescription()
        derived.name = "count"
        derived.derivationExpression = NSExpression(format: "items.@count")
        let derivedCopy = try #require(derived.copy() as? NSDerivedAttributeDescription)
        #expect(derivedCopy.derivationExpression == derived.derivationExpression)
    }

    @Test("fetch index elements take Apple's NSFetchIndexElementType and copy independently")
    func fetchIndexElements() throws {
        let name = attribute("name", .stringAttributeType)
        let element = NSFetchIndexElementDescription(property: name, collationType: .rTree)
        #expect(element.collationType == NSFetchIndexElementType.rTree)
        #expect(element.propertyName == "name")
        element.collationType = .binary
        element.isAscending = false
        let index = NSFetchIndexDescription(name: "byName", elements: [element])
        #expect(element.indexDescription === index)
        let copy = try #require(index.copy() as? NSFetchIndexDescription)
        #expect(copy.name == "byName")
        let copiedElement = try #require(copy.elements.first)
        #expect(copiedElement !== element)
        #expect(copiedElement.indexDescription === copy)
        #expect(copiedElement.property === name)
        #expect(copiedElement.collationType == .binary && !copiedElement.isAscending)
        copy.name = "other"
        #expect(index.name == "byName")
    }

    @Test("attribute and store type raw values are settable, as Apple's are")
    func settableRawValues() {
        var type = NSAttributeDescription.AttributeType.string
        type.rawValue = .integer64AttributeType
        #expect(type == .integer64)
        var storeType = NSPersistentStore.StoreType.sqlite
        storeType.rawValue = NSInMemoryStoreType
        #expect(storeType == .inMemory)
    }
}
