import Foundation
import CoreData

/// A shopping list, items and tags: to-one, to-many with inverse, many-to-many,
/// required and optional attributes of most types.
public enum TestModel {
    public static func make() -> NSManagedObjectModel {
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

public final class ShoppingList: NSManagedObject {
    @Managed public var title: String?
    @Managed public var items: Set<ShoppingItem>
}

public final class ShoppingItem: NSManagedObject {
    @Managed public var name: String?
    @Managed public var quantity: Int64
    @Managed public var price: Double
    @Managed public var purchased: Bool
    @Managed public var list: ShoppingList?
    public var willSaveCalls = 0
    public override func willSave() { willSaveCalls += 1 }
}
