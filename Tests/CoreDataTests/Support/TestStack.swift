import Foundation
@testable import CoreData

/// A shopping list, items and tags: to-one, to-many with inverse, many-to-many,
/// required and optional attributes of most types.
enum TestModel {
    static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil, transient: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            attribute.defaultValue = defaultValue
            attribute.isTransient = transient
            return attribute
        }
        func relationship(_ name: String, toMany: Bool, rule: NSDeleteRule = .nullifyDeleteRule) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription()
            relationship.name = name
            relationship.maxCount = toMany ? 0 : 1
            relationship.deleteRule = rule
            return relationship
        }
        let list = NSEntityDescription()
        list.name = "ShoppingList"
        list.managedObjectClassName = String(reflecting: ShoppingList.self)
        let item = NSEntityDescription()
        item.name = "ShoppingItem"
        item.managedObjectClassName = String(reflecting: ShoppingItem.self)
        let tag = NSEntityDescription()
        tag.name = "Tag"

        let items = relationship("items", toMany: true, rule: .cascadeDeleteRule)
        let owner = relationship("list", toMany: false)
        let tags = relationship("tags", toMany: true)
        let tagged = relationship("items", toMany: true)
        items.destinationEntity = item; items.inverseRelationship = owner
        owner.destinationEntity = list; owner.inverseRelationship = items
        tags.destinationEntity = tag; tags.inverseRelationship = tagged
        tagged.destinationEntity = item; tagged.inverseRelationship = tags

        list.properties = [attribute("title", .stringAttributeType, optional: false), items]
        item.properties = [
            attribute("name", .stringAttributeType, optional: false),
            attribute("quantity", .integer64AttributeType, optional: false, defaultValue: 1),
            attribute("count16", .integer16AttributeType),
            attribute("price", .doubleAttributeType),
            attribute("purchased", .booleanAttributeType, optional: false, defaultValue: false),
            attribute("addedAt", .dateAttributeType),
            attribute("identifier", .UUIDAttributeType),
            attribute("photo", .binaryDataAttributeType),
            attribute("link", .URIAttributeType),
            attribute("cost", .decimalAttributeType),
            attribute("scratch", .stringAttributeType, transient: true),
            owner, tags,
        ]
        tag.properties = [attribute("label", .stringAttributeType), tagged]
        let model = NSManagedObjectModel()
        model.entities = [list, item, tag]
        return model
    }
}

final class ShoppingList: NSManagedObject {
    @Managed var title: String?
    @Managed var items: Set<ShoppingItem>
}

final class ShoppingItem: NSManagedObject {
    @Managed var name: String?
    @Managed var quantity: Int64
    @Managed var price: Double
    @Managed var purchased: Bool
    @Managed var list: ShoppingList?
    var willSaveCalls = 0
    override func willSave() { willSaveCalls += 1 }
}

/// A fresh stack: in memory by default, or SQLite in a temporary folder.
struct TestStack {
    let model: NSManagedObjectModel
    let coordinator: NSPersistentStoreCoordinator
    let context: NSManagedObjectContext
    let directory: URL

    init(storeType: String = NSInMemoryStoreType, model: NSManagedObjectModel = TestModel.make()) throws {
        self.model = model
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil,
                                           at: directory.appendingPathComponent("Test.sqlite"), options: nil)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    func newContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @discardableResult
    func insertItem(_ name: String, in context: NSManagedObjectContext? = nil) -> NSManagedObject {
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context ?? self.context)
        item.setValue(name, forKey: "name")
        return item
    }
}
