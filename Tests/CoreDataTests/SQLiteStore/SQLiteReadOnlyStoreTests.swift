import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// `NSReadOnlyPersistentStoreOption` (`NSPersistentStoreDescription.isReadOnly`, and the C
/// API's `CD_OPEN_READ_ONLY`, which sets it): the store is read, WAL content included, and
/// nothing is created, changed or touched in its folder.
///
/// The tests run as root, which ignores permission bits, so "writes nothing" is proved by
/// the folder's file list and every file's bytes and modification date, before and after.
/// `CoreDataCLITests` runs the same opening as another user in a folder it cannot write.
@Suite struct SQLiteReadOnlyStoreTests {
    /// The files a shipped store may come with.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        /// The database and a `-wal` holding the last saves (no `-shm`).
        case databaseAndWAL
        /// The database, a `-wal` holding the last saves, and the `-shm` beside them.
        case databaseWALAndIndex
        /// The database alone, in WAL mode (its WAL checkpointed and removed).
        case walModeDatabaseOnly
        /// The database alone, in rollback-journal mode.
        case rollbackJournalDatabase

        var testDescription: String { rawValue }
    }

    /// A folder's files: their names, bytes and modification dates.
    struct FolderState: Equatable {
        var files: [String: Data] = [:]
        var dates: [String: Date] = [:]

        init(_ folder: URL) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let path = folder.appendingPathComponent(name).path
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
                dates[name] = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            }
        }
    }

    /// Writes a shopping list with three items into `folder/Shop.sqlite`, shaped as asked,
    /// then makes the folder and its files read-only (mode 0555 and 0444).
    static func makeShippedStore(_ shape: Shape, in folder: URL) throws -> URL {
        let model = TestModel.make()
        let work = folder.appendingPathComponent("work")
        let shipped = folder.appendingPathComponent("shipped")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let source = work.appendingPathComponent("Shop.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let options: [AnyHashable: Any] = shape == .rollbackJournalDatabase
            ? [NSSQLitePragmasOption: ["journal_mode": "DELETE"]] : [:]
        let store = try coordinator.addPersistentStore(type: .sqlite, at: source, options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
        list.setValue("Groceries", forKey: "title")
        for (name, quantity) in [("Milk", Int64(2)), ("Bread", 1), ("Eggs", 12)] {
            let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
            item.setValue(name, forKey: "name")
            item.setValue(quantity, forKey: "quantity")
            item.setValue(list, forKey: "list")
        }
        try context.save()

        // Copy while the writer is open: its WAL still holds the saves.
        let suffixes: [String] = switch shape {
        case .databaseAndWAL: ["", "-wal"]
        case .databaseWALAndIndex: ["", "-wal", "-shm"]
        case .walModeDatabaseOnly, .rollbackJournalDatabase: []
        }
        for suffix in suffixes {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: shipped.path + "/Shop.sqlite" + suffix)
        }
        if suffixes.contains("-wal") {
            let size = try FileManager.default.attributesOfItem(atPath: shipped.path + "/Shop.sqlite-wal")[.size] as? Int
            try #require((size ?? 0) > 0, "the copied WAL must hold the saves for this test to mean anything")
        }
        try coordinator.remove(store)
        if suffixes.isEmpty {
            // Closed cleanly: the WAL was checkpointed into the database and removed.
            try FileManager.default.copyItem(atPath: source.path, toPath: shipped.path + "/Shop.sqlite")
            #expect(!FileManager.default.fileExists(atPath: shipped.path + "/Shop.sqlite-wal"))
        }
        try FileManager.default.removeItem(at: work)
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped.path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: shipped.path + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: shipped.path)
        return shipped.appendingPathComponent("Shop.sqlite")
    }

    @Test("a read-only store reads everything, its WAL included, and creates, changes and touches no file",
          arguments: Shape.allCases)
    func writesNothing(_ shape: Shape) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = try Self.makeShippedStore(shape, in: folder.url)
        let before = try FolderState(url.deletingLastPathComponent())

        // The container path: what the C API's CD_OPEN_READ_ONLY sets up.
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        let description = NSPersistentStoreDescription(url: url)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil, "\(loadError.map { ($0 as NSError).localizedDescription } ?? "")")
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.isReadOnly)

        let context = container.newBackgroundContext()
        let lists = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList"))
        #expect(lists.map { $0.value(forKey: "title") as? String } == ["Groceries"])
        let items = try #require(lists.first?.value(forKey: "items") as? Set<NSManagedObject>)
        #expect(Set(items.compactMap { $0.value(forKey: "name") as? String }) == ["Milk", "Bread", "Eggs"])
        let eggs = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
            .first { $0.value(forKey: "name") as? String == "Eggs" }
        #expect(eggs?.value(forKey: "quantity") as? Int64 == 12)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreUUIDKey] as? String == store.identifier)

        // Saving into it fails with Apple's error, naming the store.
        let extra = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        extra.setValue("Cheese", forKey: "name")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(error.localizedDescription.contains(url.path))
        context.rollback()

        try container.persistentStoreCoordinator.remove(store)
        #expect(try FolderState(url.deletingLastPathComponent()) == before)
    }

    @Test("reading a store's metadata writes nothing beside it")
    func metadataWritesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = try Self.makeShippedStore(.walModeDatabaseOnly, in: folder.url)
        let before = try FolderState(url.deletingLastPathComponent())
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(try FolderState(url.deletingLastPathComponent()) == before)
    }

    @Test("a read-only store that does not exist is an error, and nothing is created for it")
    func missingStore() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("not/there/Shop.sqlite")
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        let description = NSPersistentStoreDescription(url: url)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        let error = try #require(loadError as NSError?)
        #expect(error.code == CocoaError.Code.fileReadNoSuchFile.rawValue)
        #expect(error.localizedDescription.contains(url.path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("not").path))
    }
}
