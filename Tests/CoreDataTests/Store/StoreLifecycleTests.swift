import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// What test suites written for Apple rely on: destroying a store in tear-down, stores at
/// `/dev/null`, and store metadata written by the next save.
@Suite struct StoreLifecycleTests {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory() }

    func addSQLite(_ coordinator: NSPersistentStoreCoordinator, _ url: URL) throws -> NSPersistentStore {
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
    }

    func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    func insertList(_ title: String, into context: NSManagedObjectContext) throws {
        NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context).setValue(title, forKey: "title")
        try context.save()
    }

    func lists(_ context: NSManagedObjectContext) throws -> [String] {
        try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")).compactMap { $0.value(forKey: "title") as? String }
    }

    // MARK: - destroyPersistentStore

    @Test("destroyPersistentStore empties a SQLite store in place: the file stays, without tables, and can be added again")
    func destroyLeavesEmptyFile() throws {
        let url = folder.file("Shop.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        _ = try addSQLite(coordinator, url)
        try insertList("Weekly", into: context(coordinator))

        try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-journal"))
        #expect(try RawDatabase(url).scalar("SELECT COUNT(*) FROM sqlite_master") as? Int64 == 0)
        let noMetadata = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        }
        #expect(noMetadata?.domain == NSCocoaErrorDomain)

        // The usual tear-down then set-up: the same URL gives a new, empty store.
        let store = try addSQLite(coordinator, url)
        #expect(try lists(context(coordinator)).isEmpty)
        #expect(store.identifier?.isEmpty == false)
    }

    @Test("a coordinator that still has a destroyed store open sees an empty database, not a vanished file")
    func destroyUnderAnotherCoordinator() throws {
        let url = folder.file("Shared.sqlite")
        let keeper = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        _ = try addSQLite(keeper, url)
        let keeperContext = context(keeper)
        try insertList("Weekly", into: keeperContext)

        let destroyer = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        try destroyer.destroyPersistentStore(at: url, type: .sqlite)
        let error = #expect(throws: NSError.self) { try lists(context(keeper)) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test("destroying an in-memory store, a store never added or a missing file is not an error; an unknown type is")
    func destroyOtherCases() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        try coordinator.destroyPersistentStore(at: folder.file("Never.sqlite"), ofType: NSSQLiteStoreType, options: nil)
        #expect(!FileManager.default.fileExists(atPath: folder.file("Never.sqlite").path))
        let memory = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: folder.file("Memory"))
        try coordinator.destroyPersistentStore(at: folder.file("Memory"), ofType: NSInMemoryStoreType, options: nil)
        #expect(memory.persistentStoreCoordinator == nil)
        let unknown = #expect(throws: NSError.self) {
            try coordinator.destroyPersistentStore(at: folder.file("X"), ofType: "NoSuchType", options: nil)
        }
        #expect(unknown?.code == NSPersistentStoreInvalidTypeError)
    }

    // MARK: - /dev/null

    @Test("SQLite stores at /dev/null are in-memory databases: two coordinators share nothing")
    func devNull() throws {
        let devNull = URL(fileURLWithPath: "/dev/null")
        let first = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let second = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try addSQLite(first, devNull)
        _ = try addSQLite(second, devNull)
        #expect(store.type == NSSQLiteStoreType)
        #expect(store.url == devNull)

        try insertList("Weekly", into: context(first))
        #expect(try lists(context(first)) == ["Weekly"])
        #expect(try lists(context(second)).isEmpty)
        try insertList("Party", into: context(second))
        #expect(try lists(context(first)) == ["Weekly"])

        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: "/dev/null", isDirectory: &isDirectory))
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType) == .typeCharacterSpecial)
    }

    @Test("a container whose description points at /dev/null, Apple's idiom for tests, works in memory")
    func containerAtDevNull() throws {
        func makeContainer() -> NSPersistentContainer {
            let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
            container.persistentStoreDescriptions.first!.url = URL(fileURLWithPath: "/dev/null")
            var failure: Error?
            container.loadPersistentStores { _, error in failure = error }
            #expect(failure == nil)
            return container
        }
        let container = makeContainer()
        let context = container.newBackgroundContext()
        try context.performAndWait { try insertList("Weekly", into: context) }
        #expect(try context.performAndWait { try lists(context) } == ["Weekly"])
        let fresh = makeContainer().newBackgroundContext()
        #expect(try fresh.performAndWait { try lists(fresh) }.isEmpty)
    }

    // MARK: - Metadata written by the next save

    @Test("store.metadata set by the app is written by the next save, and read back after reopening")
    func metadataWithNextSave() throws {
        let url = folder.file("Meta.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try addSQLite(coordinator, url)
        let uuid = store.identifier

        var metadata = store.metadata!
        metadata["lastSync"] = "2024-05-01"
        store.metadata = metadata
        #expect(coordinator.metadata(for: store)["lastSync"] as? String == "2024-05-01")
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["lastSync"] == nil)

        try insertList("Weekly", into: context(coordinator))
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["lastSync"] as? String == "2024-05-01")

        coordinator.setMetadata(["schemaTag": 3], for: store)
        #expect(store.identifier == uuid)
        #expect(store.metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        try insertList("Party", into: context(coordinator))
        try coordinator.remove(store)

        let reopened = try addSQLite(NSPersistentStoreCoordinator(managedObjectModel: TestModel.make()), url)
        #expect(reopened.identifier == uuid)
        #expect(reopened.metadata["schemaTag"] as? Int == 3)
        #expect(reopened.metadata["lastSync"] == nil)
    }
}
