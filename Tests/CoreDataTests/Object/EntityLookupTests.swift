import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// Classes named by the model files and models below, and by no other test.
final class LedgerEntry: NSManagedObject {
    @Managed var title: String?
}
final class LedgerAccount: NSManagedObject {
    @Managed var title: String?
}
final class PantryShelf: NSManagedObject {}
final class PantryJar: NSManagedObject {}

@Suite struct EntityLookupTests {
    /// A model file whose entity names its class, as Xcode writes `representedClassName`.
    private func writeLedgerModel(in folder: TemporaryDirectory) throws -> URL {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Entry" representedClassName="LedgerEntry"><attribute name="title" optional="YES" attributeType="String"/></entity>
            </model>
            """
        return try ModelFiles.writeVersion("Ledger", in: folder.url, contents: xml)
    }

    @Test("Entity.entity() finds the entity of a model loaded from a file, before any coordinator or context exists")
    func loadedModel() throws {
        let folder = try TemporaryDirectory()
        let model = try #require(NSManagedObjectModel(contentsOf: try writeLedgerModel(in: folder)))
        let entity = LedgerEntry.entity()
        #expect(entity.name == "Entry")
        #expect(entity.managedObjectModel === model)
        #expect(LedgerEntry.fetchRequest().entityName == "Entry")
    }

    @Test("Entity.entity() finds the entity of a merged model")
    func mergedModel() throws {
        let account = NSEntityDescription()
        account.name = "Account"
        account.managedObjectClassName = String(reflecting: LedgerAccount.self)
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        account.properties = [title]
        let part = NSManagedObjectModel()
        part.entities = [account]
        let shelf = NSEntityDescription()
        shelf.name = "Shelf"
        shelf.managedObjectClassName = String(reflecting: PantryShelf.self)
        let other = NSManagedObjectModel()
        other.entities = [shelf]
        let merged = try #require(NSManagedObjectModel(byMerging: [part, other]))
        #expect(LedgerAccount.entity().managedObjectModel === merged)
        #expect(PantryShelf.entity().name == "Shelf")
    }

    @Test("Entity.entity() works right after a container is made, before its stores load")
    func containerBeforeLoading() throws {
        let jar = NSEntityDescription()
        jar.name = "Jar"
        jar.managedObjectClassName = String(reflecting: PantryJar.self)
        let model = NSManagedObjectModel()
        model.entities = [jar]
        let container = MembersContainer(name: "Pantry", managedObjectModel: model)
        #expect(PantryJar.entity().name == "Jar")
        #expect(PantryJar.entity().managedObjectModel === container.managedObjectModel)
    }
}
