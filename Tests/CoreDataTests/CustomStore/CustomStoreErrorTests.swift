import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Store classes that get Apple's contract wrong, each under a type string of its own.

private final class NotAStore: NSObject {}

/// A direct subclass of `NSPersistentStore`, which Apple does not support.
private final class DirectStore: NSPersistentStore, @unchecked Sendable {}

private final class FailingMetadataStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "FailingMetadataStore" }
    override func loadMetadata() throws {
        throw NSError(domain: "LibraryTests", code: 7, userInfo: [NSLocalizedDescriptionKey: "the file is locked"])
    }
}

private final class NoUUIDStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "NoUUIDStore" }
    override func loadMetadata() throws { metadata = [NSStoreTypeKey: Self.storeType] }
}

private final class WrongTypeStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "WrongTypeStore" }
    override func loadMetadata() throws { metadata = [NSStoreTypeKey: "SomethingElse", NSStoreUUIDKey: UUID().uuidString] }
}

private final class NonsenseFetchStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "NonsenseFetchStore" }
    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        if request.requestType == .fetchRequestType { return "not an array" }
        return try super.execute(request, with: context)
    }
}

private final class ForeignIDStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "ForeignIDStore" }
    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        array.map(\.objectID)
    }
}

/// Overrides the designated initializer the way Linux requires (`required`), and the
/// life-cycle hooks.
private final class HookedStore: JSONIncrementalStore, @unchecked Sendable {
    override class var storeType: String { "HookedStore" }
    let createdWithOptions: [AnyHashable: Any]?
    private(set) var events: [String] = []

    required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
                  at url: URL, options: [AnyHashable: Any]? = nil) {
        createdWithOptions = options
        super.init(persistentStoreCoordinator: root, configurationName: name, at: url, options: options)
    }

    override func didAdd(to coordinator: NSPersistentStoreCoordinator) { events.append("didAdd") }
    override func willRemove(from coordinator: NSPersistentStoreCoordinator?) { events.append("willRemove") }
}

@Suite struct CustomStoreErrorTests {
    let folder: TemporaryDirectory
    let model = LibraryModel.make()

    init() throws { folder = try TemporaryDirectory() }

    func add(_ type: String, _ name: String = "Store.json") throws -> (NSPersistentStoreCoordinator, NSPersistentStore) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: folder.file(name), options: nil)
        return (coordinator, store)
    }

    @Test("a type nobody registered, and a registered class that is no store class, fail with 134000")
    func notAStoreClass() throws {
        let unknown = #expect(throws: NSError.self) { try add("NobodyRegisteredThis") }
        #expect(unknown?.domain == NSCocoaErrorDomain)
        #expect(unknown?.code == NSPersistentStoreInvalidTypeError)

        NSPersistentStoreCoordinator.registerStoreClass(NotAStore.self, forStoreType: "NotAStore")
        let notStore = #expect(throws: NSError.self) { try add("NotAStore") }
        #expect(notStore?.code == NSPersistentStoreInvalidTypeError)

        NSPersistentStoreCoordinator.registerStoreClass(DirectStore.self, forStoreType: "DirectStore")
        let direct = #expect(throws: NSError.self) { try add("DirectStore") }
        #expect(direct?.code == NSPersistentStoreInvalidTypeError)

        NSPersistentStoreCoordinator.registerStoreClass(nil, forStoreType: "NotAStore")
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["NotAStore"] == nil)
    }

    @Test("loadMetadata() throwing stops the store from being added, with the store's own error")
    func metadataThrows() throws {
        NSPersistentStoreCoordinator.registerStoreClass(FailingMetadataStore.self, forStoreType: FailingMetadataStore.storeType)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: FailingMetadataStore.storeType, configurationName: nil,
                                               at: folder.file("Locked.json"), options: nil)
        }
        #expect(error?.domain == "LibraryTests")
        #expect(error?.code == 7)
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test("metadata without a UUID fails with 134000, metadata of another type with 134010")
    func badMetadata() throws {
        NSPersistentStoreCoordinator.registerStoreClass(NoUUIDStore.self, forStoreType: NoUUIDStore.storeType)
        NSPersistentStoreCoordinator.registerStoreClass(WrongTypeStore.self, forStoreType: WrongTypeStore.storeType)
        let noUUID = #expect(throws: NSError.self) { try add(NoUUIDStore.storeType) }
        #expect(noUUID?.code == NSPersistentStoreInvalidTypeError)
        let mismatch = #expect(throws: NSError.self) { try add(WrongTypeStore.storeType) }
        #expect(mismatch?.code == NSPersistentStoreTypeMismatchError)
    }

    @Test("execute(_:with:) answering something other than an array makes the fetch fail with 134060")
    func wrongResultType() throws {
        NSPersistentStoreCoordinator.registerStoreClass(NonsenseFetchStore.self, forStoreType: NonsenseFetchStore.storeType)
        let (coordinator, _) = try add(NonsenseFetchStore.storeType)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let error = #expect(throws: NSError.self) { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(error?.code == NSCoreDataError)
    }

    @Test("obtainPermanentIDs(for:) answering temporary IDs makes the save fail with 134060, writing nothing")
    func foreignIDs() throws {
        NSPersistentStoreCoordinator.registerStoreClass(ForeignIDStore.self, forStoreType: ForeignIDStore.storeType)
        let (coordinator, store) = try add(ForeignIDStore.storeType)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue("Ursula", forKey: "name")
        let error = #expect(throws: NSError.self) { try context.save() }
        #expect(error?.code == NSCoreDataError)
        #expect(author.objectID.isTemporaryID)
        #expect(!(store as! JSONIncrementalStore).calls.contains("save"))
    }

    @Test("a store class overrides the initializer as required init, and hears didAdd(to:) and willRemove(from:)")
    func hooks() throws {
        NSPersistentStoreCoordinator.registerStoreClass(HookedStore.self, forStoreType: HookedStore.storeType)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: HookedStore.storeType, configurationName: nil,
                                                       at: folder.file("Hooked.json"), options: ["answer": 42])
        let hooked = try #require(store as? HookedStore)
        #expect(hooked.createdWithOptions?["answer"] as? Int == 42)
        #expect(hooked.persistentStoreCoordinator === coordinator)
        #expect(hooked.events == ["didAdd"])
        try coordinator.remove(store)
        #expect(hooked.events == ["didAdd", "willRemove"])
        #expect(hooked.persistentStoreCoordinator == nil)
    }
}
