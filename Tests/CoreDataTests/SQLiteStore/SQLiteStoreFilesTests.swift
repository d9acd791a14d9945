import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The SQLite store through the coordinator, and the file helpers it uses.
@Suite struct SQLiteStoreFilesTests {
    let folder: TemporaryDirectory
    init() throws { folder = try TemporaryDirectory() }

    @Test("addPersistentStore(type: .sqlite) creates the store; metadata reads back without adding it")
    func throughCoordinator() throws {
        let model = Models.library()
        let url = folder.file("Store.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        #expect(store.type == NSSQLiteStoreType)
        let uuid = try #require(store.identifier)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(metadata[NSStoreModelVersionHashesKey] is [String: Data])
        try coordinator.remove(store)

        let again = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(try again.addPersistentStore(type: .sqlite, at: url).identifier == uuid)
    }

    @Test("reading an open store's metadata keeps this process's locks: another process closing the store leaves the WAL in place")
    func metadataOfAnOpenStoreKeepsLocks() async throws {
        let url = folder.file("Shared.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Models.library())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)

        // Another process opens the store, saves a book and closes the store. Had this
        // process's locks been dropped, that process would take itself for the last
        // connection and checkpoint and delete the -wal and -shm this process reads.
        await #expect(processExitsWith: .success) { [path = url.path as String] in
            let other = NSPersistentStoreCoordinator(managedObjectModel: Models.library())
            let store = try other.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: path))
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = other
            NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Dune", forKey: "title")
            try context.save()
            try other.remove(store)
        }
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: url.path + "-shm"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(books.compactMap { $0.value(forKey: "title") as? String } == ["Dune"])
    }

    @Test("metadata of a fixture store: UUID from Z_UUID, hashes and identifiers from the plist")
    func fixtureMetadata() throws {
        let url = try Fixtures.copyStore("objcio_core-data__Moody.moody.sqlite", to: folder)
        let metadata = try SQLiteStoreBackend.readMetadata(at: url)
        let uuid = try RawDatabase(url).scalar("SELECT Z_UUID FROM Z_METADATA") as? String
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(Set((metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]).keys)
                == ["Continent", "Country", "GeographicRegion", "Mood"])
        #expect(metadata["NSPersistenceFrameworkVersion"] as? Int == 637)

        let missing = #expect(throws: NSError.self) { try SQLiteStoreBackend.readMetadata(at: folder.file("none.sqlite")) }
        #expect(missing?.code == CocoaError.Code.fileReadNoSuchFile.rawValue)
    }

    @Test("copyStore copies content still in the source's WAL")
    func copyWithWAL() throws {
        let model = Models.library()
        let source = folder.file("Source.sqlite")
        let backend = try openBackend(source, model)
        let author = model.entitiesByName["Author"]!
        var changes = StoreChanges()
        changes.inserts = (1...20).map { insert(makeRow(author, pk: Int64($0), ["name": .text("A\($0)")])) }
        try backend.save(changes)
        // The rows are in the WAL, not yet in the main file.
        let wal = (try FileManager.default.attributesOfItem(atPath: source.path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        #expect(wal > 0)

        let destination = folder.url.appendingPathComponent("copies/Copy.sqlite")
        try SQLiteStoreBackend.copyStore(from: source, to: destination)
        let copy = try openBackend(destination, model)
        #expect(try copy.count(FetchPlan(entity: author)) == 20)
        #expect(copy.metadata[NSStoreUUIDKey] as? String == backend.metadata[NSStoreUUIDKey] as? String)
    }

    @Test("emptyStore leaves the database file in place with no tables, even while the store is open")
    func emptyInPlace() throws {
        let model = Models.library()
        let url = folder.file("Doomed.sqlite")
        let backend = try openBackend(url, model)
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(model.entitiesByName["Author"]!, pk: 1, [:]))]
        try backend.save(changes)
        try SQLiteStoreBackend.emptyStore(at: url)
        #expect(FileManager.default.fileExists(atPath: url.path))
        // The open connection sees an empty database, not a vanished file.
        #expect(throws: (any Error).self) { try backend.count(FetchPlan(entity: model.entitiesByName["Author"]!)) }
        backend.close()
        #expect(try RawDatabase(url).scalar("SELECT COUNT(*) FROM sqlite_master") as? Int64 == 0)
        // A new store can be made at the same place.
        try openBackend(url, model).close()
        #expect(try RawDatabase(url).scalar("SELECT COUNT(*) FROM ZAUTHOR") as? Int64 == 0)
    }

    @Test("emptyStore truncates a file that is not a database to zero bytes")
    func emptyNotADatabase() throws {
        let url = folder.file("Text.sqlite")
        try Data("not a database at all, only text".utf8).write(to: url)
        try SQLiteStoreBackend.emptyStore(at: url)
        #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue == 0)
    }

    @Test("replacePersistentStore and destroyPersistentStore through the coordinator")
    func replaceAndDestroy() throws {
        let model = try Models.sampleModelV1()
        let source = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let destination = folder.file("Replaced.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        #expect(try RawDatabase(destination).scalar("SELECT COUNT(*) FROM ZCAR") as? Int64 == 125)
        try coordinator.addPersistentStore(type: .sqlite, at: destination)
        try coordinator.destroyPersistentStore(at: destination, type: .sqlite)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(FileManager.default.fileExists(atPath: destination.path))
        #expect(try RawDatabase(destination).scalar("SELECT COUNT(*) FROM sqlite_master") as? Int64 == 0)
    }
}
