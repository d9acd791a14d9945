import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// `NSPersistentStoreTimeoutOption` (`NSPersistentStoreDescription.timeout`, 240 s unless
/// set): how long the SQLite store waits for another connection's lock, when it opens and
/// on every statement afterwards.
@Suite struct SQLiteStoreTimeoutTests {
    /// Holds SQLite's write lock on `url` from a connection of its own, and releases it
    /// after `seconds` from another thread.
    final class LockHolder: @unchecked Sendable {
        // @unchecked Sendable: `database` is used by the creating thread until `release`
        // hands it to one background thread; nothing touches it afterwards.
        let database: RawDatabase

        init(_ url: URL, exclusive: Bool = false) throws {
            database = try RawDatabase(url, readOnly: false)
            try database.execute(exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
        }

        func release(after seconds: TimeInterval) {
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: seconds)
                try? database.execute("ROLLBACK")
            }
        }
    }

    func save(_ context: NSManagedObjectContext, item name: String) throws {
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        item.setValue(name, forKey: "name")
        try context.save()
    }

    @Test("without a timeout option the store waits 240 s, the timeout its description reports")
    func defaultTimeout() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let description = NSPersistentStoreDescription(url: folder.file("Shop.sqlite"))
        #expect(description.timeout == 240)
        #expect(description.options[NSPersistentStoreTimeoutOption] == nil)
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let backend = try #require(store.backend as? SQLiteStoreBackend)
        // SQLite's own record of the wait, in milliseconds.
        #expect(try backend.requireConnection().scalarString("PRAGMA busy_timeout") == "240000")

        // A writer that keeps its lock for 1.5 s (more than the 1 s the store used to
        // wait): the save waits for it and succeeds.
        let context = container.newBackgroundContext()
        let writer = try LockHolder(folder.file("Shop.sqlite"))
        let start = Date()
        writer.release(after: 1.5)
        try save(context, item: "Milk")
        #expect(Date().timeIntervalSince(start) >= 1.4)
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) == 1)
    }

    @Test("a save waits the description's timeout for a writer's lock, then fails with NSPersistentStoreTimeoutError")
    func saveTimesOut() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let description = NSPersistentStoreDescription(url: folder.file("Shop.sqlite"))
        description.timeout = 0.3
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.newBackgroundContext()
        let writer = try LockHolder(folder.file("Shop.sqlite"))
        let start = Date()
        let error = try #require(throws: NSError.self) { try save(context, item: "Milk") }
        let waited = Date().timeIntervalSince(start)
        #expect(error.code == NSPersistentStoreTimeoutError)
        #expect(error.localizedDescription.contains(folder.file("Shop.sqlite").path))
        #expect(waited >= 0.25 && waited < 0.9, "waited \(waited) s")
        writer.release(after: 0)
    }

    @Test("opening waits the timeout for a writer that holds the whole file locked")
    func openWaits() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Shop.sqlite")
        let model = TestModel.make()
        let options: [AnyHashable: Any] = [NSSQLitePragmasOption: ["journal_mode": "DELETE"]]
        let first = NSPersistentStoreCoordinator(managedObjectModel: model)
        try first.remove(try first.addPersistentStore(type: .sqlite, at: url, options: options))

        let writer = try LockHolder(url, exclusive: true)
        writer.release(after: 1.5)
        let start = Date()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        var timed = options
        timed[NSPersistentStoreTimeoutOption] = 10
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: timed)
        #expect(Date().timeIntervalSince(start) >= 1.4)
    }

    @Test("reading a store's metadata honours the timeout option")
    func metadataWaits() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Shop.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        try coordinator.remove(try coordinator.addPersistentStore(
            type: .sqlite, at: url, options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]]))

        let writer = try LockHolder(url, exclusive: true)
        let start = Date()
        let error = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(
                type: .sqlite, at: url, options: [NSPersistentStoreTimeoutOption: 0.2])
        }
        #expect(error.code == NSPersistentStoreTimeoutError)
        #expect(Date().timeIntervalSince(start) < 0.9)

        writer.release(after: 1.5)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            type: .sqlite, at: url, options: [NSPersistentStoreTimeoutOption: 10])
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(Date().timeIntervalSince(start) >= 1.4)
    }
}
