import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// Computes a transient value when fetched and stamps new objects, with primitive setters,
/// as Apple's documentation shows.
final class StampedItem: NSManagedObject {
    @Managed var name: String?
    @Managed var scratch: String?

    override func awakeFromFetch() {
        super.awakeFromFetch()
        setPrimitiveValue("computed from \(primitiveValue(forKey: "name") ?? "")", forKey: "scratch")
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue(Int64(12), forKey: "quantity")
    }

    /// A custom accessor written the pre-@NSManaged way.
    var customName: String? {
        get {
            willAccessValue(forKey: "name")
            defer { didAccessValue(forKey: "name") }
            return primitiveValue(forKey: "name") as? String
        }
        set {
            willChangeValue(forKey: "name")
            defer { didChangeValue(forKey: "name") }
            setPrimitiveValue(newValue, forKey: "name")
        }
    }
}

/// A list whose generated-style accessor announces set mutations, and records them.
final class AnnouncingList: NSManagedObject {
    var mutations: [(String, NSKeyValueSetMutationKind, Int)] = []

    func addToItems(_ value: NSManagedObject) {
        let changed: Set<AnyHashable> = [value]
        willChangeValue(forKey: "items", withSetMutation: .union, using: changed)
        mutableSetValue(forKey: "items").add(value)
        didChangeValue(forKey: "items", withSetMutation: .union, using: changed)
    }

    override func willChangeValue(forKey inKey: String, withSetMutation inMutationKind: NSKeyValueSetMutationKind,
                                  using inObjects: Set<AnyHashable>) {
        super.willChangeValue(forKey: inKey, withSetMutation: inMutationKind, using: inObjects)
        mutations.append((inKey, inMutationKind, inObjects.count))
    }
}

/// A container whose model maps ShoppingItem and ShoppingList to the classes above.
private func stampedContainer(onDisk: Bool) throws -> MembersContainer {
    let model = TestModel.make()
    model.entitiesByName["ShoppingItem"]?.managedObjectClassName = String(reflecting: StampedItem.self)
    model.entitiesByName["ShoppingList"]?.managedObjectClassName = String(reflecting: AnnouncingList.self)
    if onDisk {
        let folder = try TemporaryDirectory()
        let container = try MembersContainer.make(at: folder.file("Shop.sqlite"), model: model)
        container.folder = folder
        return container
    }
    return try MembersContainer.make(at: URL(fileURLWithPath: "/dev/null"), model: model)
}

@Suite struct ObjectMembersTests {
    @Test("setPrimitiveValue(_:forKey:) alone records no change; inside will/didChangeValue it is a change",
          arguments: [false, true])
    func primitiveSetter(onDisk: Bool) throws {
        let container = try stampedContainer(onDisk: onDisk)
        let context = container.viewContext
        let item = StampedItem(context: context)
        item.name = "Milk"
        try context.save()

        item.setPrimitiveValue("Oat milk", forKey: "name")
        #expect(item.value(forKey: "name") as? String == "Oat milk")
        #expect(item.changedValues().isEmpty)
        #expect(!item.hasChanges)
        #expect(!item.isUpdated)
        #expect(!context.hasChanges)

        item.customName = "Soy milk"
        #expect(item.changedValues()["name"] as? String == "Soy milk")
        #expect(item.isUpdated)
        try context.save()
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try reader.existingObject(with: item.objectID).value(forKey: "name") as? String }
        #expect(stored == "Soy milk")
    }

    @Test("primitive values set in awakeFromFetch leave the object unchanged; those set in awakeFromInsert are saved")
    func awakeIdioms() throws {
        let container = try stampedContainer(onDisk: true)
        let writer = container.viewContext
        let item = StampedItem(context: writer)
        item.name = "Tea"
        try writer.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fetched = try #require(try reader.fetch(NSFetchRequest<StampedItem>(entityName: "ShoppingItem")).first)
            #expect(fetched.scratch == "computed from Tea")
            #expect(!fetched.hasChanges)
            #expect(!reader.hasChanges)
            #expect(fetched.value(forKey: "quantity") as? Int == 12)
        }
    }

    @Test("subscript(key:) reads and writes as value(forKey:) and setValue(_:forKey:)")
    func keySubscript() throws {
        let container = try stampedContainer(onDisk: false)
        let item = StampedItem(context: container.viewContext)
        item["name"] = "Bread"
        #expect(item["name"] as? String == "Bread")
        #expect(item.name == "Bread")
        item["name"] = nil
        #expect(item["name"] == nil)
        #expect(item.changedValues()["name"] == nil)
    }

    @Test("faultingState is 0 for a fault and for a realized object")
    func faultingState() throws {
        let container = try stampedContainer(onDisk: true)
        let item = StampedItem(context: container.viewContext)
        item.name = "Jam"
        try container.viewContext.save()
        let reader = container.newBackgroundContext()
        reader.performAndWait {
            let fault = reader.object(with: item.objectID)
            #expect(fault.isFault)
            #expect(fault.faultingState == 0)
            _ = fault.value(forKey: "name")
            #expect(!fault.isFault)
            #expect(fault.faultingState == 0)
        }
    }

    @Test("willChangeValue(forKey:withSetMutation:using:) brackets a to-many change an accessor announces")
    func setMutationNotifications() throws {
        let container = try stampedContainer(onDisk: false)
        let context = container.viewContext
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context) as! AnnouncingList
        list.setValue("Weekly", forKey: "title")
        let item = StampedItem(context: context)
        item.name = "Milk"
        list.addToItems(item)
        #expect(list.mutations.count == 1)
        #expect(list.mutations.first?.0 == "items")
        #expect(list.mutations.first?.1 == .union)
        #expect(list.mutations.first?.2 == 1)
        #expect((list.value(forKey: "items") as? Set<NSManagedObject>)?.count == 1)
        #expect(item.value(forKey: "list") as? AnnouncingList === list)
        try context.save()
        #expect(NSKeyValueSetMutationKind.set.rawValue == 4)
        #expect(StampedItem.contextShouldIgnoreUnmodeledPropertyChanges)
    }
}
