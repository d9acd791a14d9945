import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// A subclass that records which lifecycle hooks ran.
final class HookedItem: NSManagedObject {
    @Managed var name: String?
    var calls: [String] = []
    override func awakeFromInsert() { calls.append("awakeFromInsert") }
    override func awakeFromFetch() { calls.append("awakeFromFetch") }
    override func willSave() { calls.append("willSave") }
    override func didSave() { calls.append("didSave") }
    override func willTurnIntoFault() { calls.append("willTurnIntoFault") }
    override func didTurnIntoFault() { calls.append("didTurnIntoFault") }
    override func prepareForDeletion() { calls.append("prepareForDeletion") }
}

@Suite struct LifecycleHookTests {
    func model() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Hooked"
        entity.managedObjectClassName = String(reflecting: HookedItem.self)
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        entity.properties = [name]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    @Test("insert, save, fetch, refresh and delete call the hooks Apple calls, in order")
    func hooksRunInOrder() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: model())
        let item = HookedItem(context: stack.context)
        item.name = "x"
        #expect(item.calls == ["awakeFromInsert"])
        try stack.context.save()
        #expect(item.calls == ["awakeFromInsert", "willSave", "didSave"])

        let other = stack.newContext()
        let fetched = try #require(try other.fetch(NSFetchRequest<HookedItem>(entityName: "Hooked")).first)
        #expect(fetched.calls.isEmpty)
        #expect(fetched.name == "x")
        #expect(fetched.calls == ["awakeFromFetch"])
        other.refresh(fetched, mergeChanges: false)
        #expect(fetched.calls == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault"])
        #expect(fetched.isFault)

        other.delete(fetched)
        try other.save()
        #expect(fetched.calls.contains("prepareForDeletion"))
        #expect(fetched.calls.suffix(2) == ["willSave", "didSave"])
    }

    @Test("a model is editable until a coordinator uses it")
    func modelFreezes() {
        let model = model()
        #expect(model.isEditable)
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(!model.isEditable)
    }
}
