import CoreData

// The benchmark's model, built in code: one wide entity for the bulk workloads, and a
// parent/child pair for the to-many traversal.

/// The wide entity: Int64 ×4, Double ×2, String ×3, Date. `ident` is indexed (the
/// `ident == %@` lookups), `name` is not (the `BEGINSWITH[c]` scan).
final class Record: NSManagedObject {
    @Managed var ident: Int64
    @Managed var quantity: Int64
    @Managed var rank: Int64
    @Managed var flags: Int64
    @Managed var price: Double
    @Managed var weight: Double
    @Managed var name: String?
    @Managed var city: String?
    @Managed var notes: String?
    @Managed var created: Date?
}

final class Parent: NSManagedObject {
    @Managed var name: String?
    @Managed var children: Set<Child>
}

final class Child: NSManagedObject {
    @Managed var name: String?
    @Managed var parent: Parent?
}

enum BenchModel {
    /// The table and column names our SQLite store gives this model (Core Data's
    /// scheme: `Z<ENTITY>`, `Z<ATTRIBUTE>`); the raw side copies the schema from our
    /// store file, so a wrong name here fails loudly when a statement is prepared.
    static let recordColumns = "ZIDENT, ZQUANTITY, ZRANK, ZFLAGS, ZPRICE, ZWEIGHT, ZNAME, ZCITY, ZNOTES, ZCREATED"

    static func register() {
        Record.registerSubclass()
        Parent.registerSubclass()
        Child.registerSubclass()
    }

    static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, indexed: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            attribute.isIndexed = indexed
            return attribute
        }
        let record = NSEntityDescription()
        record.name = "Record"
        record.managedObjectClassName = String(reflecting: Record.self)
        record.properties = [
            attribute("ident", .integer64AttributeType, indexed: true),
            attribute("quantity", .integer64AttributeType),
            attribute("rank", .integer64AttributeType),
            attribute("flags", .integer64AttributeType),
            attribute("price", .doubleAttributeType),
            attribute("weight", .doubleAttributeType),
            attribute("name", .stringAttributeType),
            attribute("city", .stringAttributeType),
            attribute("notes", .stringAttributeType),
            attribute("created", .dateAttributeType),
        ]

        let parent = NSEntityDescription()
        parent.name = "Parent"
        parent.managedObjectClassName = String(reflecting: Parent.self)
        let child = NSEntityDescription()
        child.name = "Child"
        child.managedObjectClassName = String(reflecting: Child.self)
        let children = NSRelationshipDescription()
        children.name = "children"
        children.maxCount = 0
        children.deleteRule = .cascadeDeleteRule
        let owner = NSRelationshipDescription()
        owner.name = "parent"
        owner.maxCount = 1
        owner.deleteRule = .nullifyDeleteRule
        children.destinationEntity = child
        children.inverseRelationship = owner
        owner.destinationEntity = parent
        owner.inverseRelationship = children
        parent.properties = [attribute("name", .stringAttributeType), children]
        child.properties = [attribute("name", .stringAttributeType), owner]

        let model = NSManagedObjectModel()
        model.entities = [record, parent, child]
        return model
    }
}

extension Dataset {
    /// Inserts the records at `indexes` into `context` through their `@Managed` properties,
    /// without saving: the insert work of the SQLite and the PostgreSQL rows alike.
    func insertRecords(_ indexes: Range<Int>, into context: NSManagedObjectContext) {
        for i in indexes {
            let record = Record(context: context)
            record.ident = ident[i]
            record.quantity = quantity[i]
            record.rank = rank[i]
            record.flags = flags[i]
            record.price = price[i]
            record.weight = weight[i]
            record.name = name[i]
            record.city = city[i]
            record.notes = notes[i]
            record.created = Date(timeIntervalSinceReferenceDate: created[i])
        }
    }
}
