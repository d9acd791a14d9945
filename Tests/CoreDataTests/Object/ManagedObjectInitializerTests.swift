import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A subclass that overrides the designated initializer (as `required`, which the framework
/// needs to make fetched objects of the class) and adds a convenience initializer of its own.
final class Memo: NSManagedObject {
    @Managed var text: String?
    /// Set by every path that makes a Memo: inserts and the faults fetches make.
    private(set) var madeByOverride = false

    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        madeByOverride = true
    }

    convenience init(text: String, context: NSManagedObjectContext) {
        self.init(context: context)
        self.text = text
    }
}

@Suite struct ManagedObjectInitializerTests {
    func model() -> NSManagedObjectModel {
        let note = entity("Memo", [attribute("text", .stringAttributeType)])
        note.managedObjectClassName = String(reflecting: Memo.self)
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    @Test("a subclass's required init(entity:insertInto:) and its convenience initializers make inserts and fetched objects")
    func overriddenInitializer() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: model())
        let note = Memo(text: "first", context: stack.context)
        #expect(note.madeByOverride)
        #expect(note.isInserted)
        try stack.context.save()

        let other = stack.newContext()
        let fetched = try other.fetch(NSFetchRequest<Memo>(entityName: "Memo"))
        #expect(fetched.count == 1)
        #expect(fetched.first?.madeByOverride == true)
        #expect(fetched.first?.text == "first")
        let viaInit = Memo(entity: stack.model.entitiesByName["Memo"]!, insertInto: nil)
        #expect(viaInit.madeByOverride && viaInit.managedObjectContext == nil)
    }
}
