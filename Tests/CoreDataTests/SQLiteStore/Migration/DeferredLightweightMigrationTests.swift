import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// NSPersistentStoreDeferredLightweightMigrationOptionKey: the migration opens the store at
// once and leaves index building for finishDeferredLightweightMigration().

private func bookModel(withYear: Bool) -> NSManagedObjectModel {
    var properties: [NSPropertyDescription] = [attribute("title", .stringAttributeType, indexed: true)]
    if withYear { properties.append(attribute("year", .integer32AttributeType)) }
    let model = NSManagedObjectModel()
    model.entities = [entity("Book", properties)]
    return model
}

private final class BookshelfContainer: NSPersistentContainer, @unchecked Sendable {}

@Suite("Deferred lightweight migration")
struct DeferredLightweightMigrationTests {
    private func load(_ model: NSManagedObjectModel, at url: URL, deferred: Bool) throws -> BookshelfContainer {
        let container = BookshelfContainer(name: "Shelf", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        if deferred {
            description.setOption(true as NSNumber, forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)
        }
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    private func indexes(_ url: URL) throws -> [String] {
        try RawDatabase(url).rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZBOOK'")
            .compactMap { $0[0] as? String }.filter { !$0.hasPrefix("sqlite_autoindex") }
    }

    @Test("the migrated store opens without its indexes until finishDeferredLightweightMigration() builds them")
    func deferredIndexes() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shelf.sqlite")
        let v1 = try load(bookModel(withYear: false), at: url, deferred: false)
        for title in ["Dune", "Emma"] {
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: v1.viewContext).setValue(title, forKey: "title")
        }
        try v1.viewContext.save()
        for store in v1.persistentStoreCoordinator.persistentStores { try v1.persistentStoreCoordinator.remove(store) }
        let indexed = try indexes(url)
        #expect(!indexed.isEmpty)

        let v2 = try load(bookModel(withYear: true), at: url, deferred: true)
        let coordinator = v2.persistentStoreCoordinator
        #expect(try indexes(url).isEmpty)
        let pending = coordinator.persistentStores[0].metadata?[NSPersistentStoreDeferredLightweightMigrationOptionKey]
        #expect((pending as? NSNumber)?.boolValue == true)
        #expect(try v2.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 2)

        try coordinator.finishDeferredLightweightMigration()
        #expect(try indexes(url) == indexed)
        #expect(coordinator.persistentStores[0].metadata?[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(stored[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        // Nothing left to do: a second call changes nothing.
        try coordinator.finishDeferredLightweightMigrationTask()
        #expect(try indexes(url) == indexed)
    }
}
