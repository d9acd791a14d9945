import Foundation
import CoreData

/// A fresh stack: in memory by default, or SQLite (`Test.sqlite`) in its own
/// ``TemporaryDirectory``, removed with the stack.
public struct TestStack: Sendable {
    public let model: NSManagedObjectModel
    public let coordinator: NSPersistentStoreCoordinator
    public let context: NSManagedObjectContext
    /// The store's URL. An in-memory store writes nothing: its URL names a folder that is
    /// never created, so a stack made where `deinit` never runs (the child process of an
    /// exit test) leaves nothing behind either.
    public let storeURL: URL
    /// Owns the SQLite store's folder; nil for an in-memory stack.
    public let temporaryDirectory: TemporaryDirectory?
    /// Owns the PostgreSQL store's database; nil unless the store type is `NSPostgreSQLStoreType`.
    public let postgreSQLDatabase: PostgreSQLTestDatabase?

    /// The folder of the store file.
    public var directory: URL { storeURL.deletingLastPathComponent() }

    public init(storeType: String = NSInMemoryStoreType, model: NSManagedObjectModel = TestModel.make()) throws {
        self.model = model
        postgreSQLDatabase = storeType == NSPostgreSQLStoreType ? try PostgreSQLTestDatabase() : nil
        if let postgreSQLDatabase {
            temporaryDirectory = nil
            storeURL = postgreSQLDatabase.url
        } else if storeType == NSInMemoryStoreType {
            temporaryDirectory = nil
            storeURL = FileManager.default.temporaryDirectory
                .appendingPathComponent("coredata-tests-in-memory-\(UUID().uuidString)/Test.sqlite")
        } else {
            let folder = try TemporaryDirectory()
            temporaryDirectory = folder
            storeURL = folder.file("Test.sqlite")
        }
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: storeURL, options: nil)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// Another private-queue context on the same coordinator.
    public func newContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Inserts a `ShoppingItem` named `name` (into ``context`` unless told).
    @discardableResult
    public func insertItem(_ name: String, in context: NSManagedObjectContext? = nil) -> NSManagedObject {
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context ?? self.context)
        item.setValue(name, forKey: "name")
        return item
    }

    /// Inserts an object of `entityName` with `values` (into ``context`` unless told).
    @discardableResult
    public func insert(_ entityName: String, _ values: [String: Any] = [:], in context: NSManagedObjectContext? = nil) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entityName, into: context ?? self.context)
        object.setValuesForKeys(values)
        return object
    }
}

/// Both store types, for `@Test(arguments:)`.
public let bothStoreTypes = [NSInMemoryStoreType, NSSQLiteStoreType]

/// The in-memory and SQLite stores, and the PostgreSQL store when a test cluster is given
/// (`COREDATA_TEST_POSTGRES_URL`; without one, a note says once that it is left out).
public let allStoreTypes: [String] = {
    guard PostgreSQLTestDatabase.isAvailable else {
        print("note: store tests run without the PostgreSQL store: \(PostgreSQLTestDatabase.skipReason)")
        return bothStoreTypes
    }
    return bothStoreTypes + [NSPostgreSQLStoreType]
}()
