import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

// Lightweight migration of PostgreSQL stores: an old store opened with the automatic
// migration options migrates in one transaction under the store's advisory lock, so that
// processes opening it at once migrate it once.

private var migrationOptions: [AnyHashable: Any] {
    [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
}

/// A version of CoreDataPlus' SampleModel bundle (`SampleModel`, `SampleModel2`), loaded from
/// the bundle so that the migration finds the store's version beside it.
private func sampleModel(_ version: String) throws -> NSManagedObjectModel {
    try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld")).model(forVersion: version)
}

/// The `pg_advisory_xact_lock` key the store opens and migrates under ('CDPG').
private let schemaLockKey: Int64 = 0x4344_5047

/// A PostgreSQL store written with SampleModel V1: Apple's V1 SQLite fixture moved there with
/// `migratePersistentStore`.
private func oldStore() throws -> PostgreSQLTestDatabase {
    let database = try PostgreSQLTestDatabase()
    let folder = try TemporaryDirectory()
    let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try sampleModel("SampleModel"))
    let store = try coordinator.addPersistentStore(type: .sqlite, at: v1)
    try coordinator.migratePersistentStore(store, to: database.url, type: .postgresql)
    return database
}

private func open(_ url: URL, _ model: NSManagedObjectModel,
                  options: [AnyHashable: Any]? = migrationOptions) throws -> NSPersistentStoreCoordinator {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .postgresql, at: url, options: options)
    return coordinator
}

/// What Apple's migration of the V1 fixture wrote (its V2 fixture), as ``storeSnapshot(_:)`` text.
private func applesMigration() throws -> [String] {
    let folder = try TemporaryDirectory()
    let v2 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V2.sqlite", to: folder)
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try sampleModel("SampleModel2"))
    try coordinator.addPersistentStore(type: .sqlite, at: v2)
    return try storeSnapshot(coordinator)
}

/// One process opening the old store with SampleModel2 and the migration options; prints
/// `opened <xmin of the metadata row> <objects>`: the transaction that last wrote
/// `Z_METADATA` (the migration's), and how many objects the store then holds.
private func openingProcess(location: String) throws {
    let url = try #require(URL(string: location))
    let coordinator = try open(url, try sampleModel("SampleModel2"))
    let writer = try PostgreSQLTestDatabase.run("SELECT xmin::text FROM Z_METADATA", on: url)
    let objects = try storeSnapshot(coordinator).count
    print("opened \(writer.first?.first.flatMap { $0 } ?? "?") \(objects)")
}

@Suite(.enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
struct PostgreSQLMigrationTests {
    @Test("a SampleModel V1 PostgreSQL store opened with SampleModel2 and the migration options holds what Apple's migration wrote")
    func migratesLikeApple() throws {
        let database = try oldStore()
        let uuid = "SELECT Z_UUID FROM Z_METADATA"
        let before = try database.rows(uuid)
        let migrated = try storeSnapshot(try open(database.url, try sampleModel("SampleModel2")))
        let theirs = try applesMigration()
        #expect(migrated.count > 100)
        #expect(migrated.contains { $0.hasPrefix("LuxuryCar(") })
        #expect(migrated == theirs)
        // The store keeps its UUID, gets the new hashes, and opens again without migrating.
        #expect(try database.rows(uuid) == before)
        let store = try #require(try open(database.url, try sampleModel("SampleModel2"), options: nil).persistentStores.first)
        #expect((store.metadata[NSStoreModelVersionHashesKey] as? [String: Data])?["LuxuryCar"] != nil)
        #expect(try storeSnapshot(try open(database.url, try sampleModel("SampleModel2"), options: nil)) == theirs)
        // No schema of old tables is left behind.
        #expect(try database.rows("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'cd_migration_%'").isEmpty)
    }

    @Test("a PostgreSQL store keeps its model in Z_MODELCACHE: it opens with no model file, and migrates after one")
    func modelCache() throws {
        let database = try oldStore()
        // The store as written (SampleModel V1), opened read-only with the model it keeps.
        let cached = try NSManagedObjectModel(cachedInStoreAt: database.url)
        let v1 = try storeSnapshot(try open(database.url, cached, options: [NSReadOnlyPersistentStoreOption: true]))
        #expect(v1.count > 100)
        #expect(!v1.contains { $0.hasPrefix("LuxuryCar(") })

        // SampleModel2 outside its bundle: the migration finds no V1 beside it, and takes the
        // store's cached model as the source.
        let detached = try sampleModel("SampleModel2")
        detached.bundleURL = nil
        let migrated = try storeSnapshot(try open(database.url, detached))
        #expect(migrated == (try applesMigration()))
        // After the migration the cache holds the new model.
        #expect(try NSManagedObjectModel(cachedInStoreAt: database.url).entitiesByName["LuxuryCar"] != nil)

        // A database without a store keeps no model: 134000, as for a SQLite file.
        let empty = try PostgreSQLTestDatabase()
        let error = try #require(throws: NSError.self) { _ = try NSManagedObjectModel(cachedInStoreAt: empty.url) }
        #expect(error.code == NSPersistentStoreInvalidTypeError)
    }

    @Test("migration keeps each row's Z_PK and Z_OPT and each hierarchy's Z_MAX; new objects get new keys")
    func keepsKeys() throws {
        let database = try oldStore()
        let rows = try database.rows("SELECT Z_PK, Z_OPT FROM ZCAR ORDER BY Z_PK")
        let max = try database.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1")
        let coordinator = try open(database.url, try sampleModel("SampleModel2"))
        #expect(try database.rows("SELECT Z_PK, Z_OPT FROM ZCAR ORDER BY Z_PK") == rows)
        #expect(try database.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == max)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Car", into: context).setValue("NEW-1", forKey: "numberPlate")
            try context.save()
        }
        let newest = try database.rows("SELECT MAX(Z_PK) FROM ZCAR").first?.first.flatMap { $0 }.flatMap { Int($0) }
        #expect(newest == (max.first?.first.flatMap { $0 }.flatMap { Int($0) }).map { $0 + 1 })
    }

    @Test("without the migration options an old store fails to open with 134100 and stays as it was")
    func withoutOptionsIsIncompatible() throws {
        let database = try oldStore()
        let before = try database.rows("SELECT Z_PLIST FROM Z_METADATA")
        let error = #expect(throws: NSError.self) {
            try open(database.url, try sampleModel("SampleModel2"), options: nil)
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try database.rows("SELECT Z_PLIST FROM Z_METADATA") == before)
        #expect(try open(database.url, try sampleModel("SampleModel"), options: nil).persistentStores.count == 1)
    }

    @Test("a migration whose SQL fails reports 134110 and leaves the old tables, rows and metadata untouched")
    func failureRollsBack() throws {
        let database = try oldStore()
        let tables = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
        let before = (try database.rows(tables), try database.rows("SELECT * FROM ZCAR ORDER BY Z_PK"),
                      try database.rows("SELECT Z_PLIST FROM Z_METADATA"))
        // A destination uniqueness constraint the migrated rows violate: every car gets the
        // same default tag.
        let model = try sampleModel("SampleModel2")
        let car = try #require(model.entitiesByName["Car"])
        let tag = NSAttributeDescription()
        tag.name = "tag"
        tag.attributeType = .stringAttributeType
        tag.isOptional = false
        tag.defaultValue = "same"
        car.properties.append(tag)
        car.uniquenessConstraints = [["tag"]]
        let error = #expect(throws: NSError.self) { try open(database.url, model) }
        #expect(error?.code == NSMigrationError)
        #expect(try database.rows(tables) == before.0)
        #expect(try database.rows("SELECT * FROM ZCAR ORDER BY Z_PK") == before.1)
        #expect(try database.rows("SELECT Z_PLIST FROM Z_METADATA") == before.2)
        #expect(try database.rows("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'cd_migration_%'").isEmpty)
        #expect(try open(database.url, try sampleModel("SampleModel"), options: nil).persistentStores.count == 1)
    }

    @Test("migration on with inference off fails with 134140")
    func inferenceOff() throws {
        let database = try oldStore()
        let error = #expect(throws: NSError.self) {
            try open(database.url, try sampleModel("SampleModel2"), options: [NSMigratePersistentStoresAutomaticallyOption: true])
        }
        #expect(error?.code == NSMigrationMissingMappingModelError)
    }

    @Test("a store two versions old migrates through the version between (SampleModel → SampleModel2 → SampleModel3)")
    func migratesThroughVersions() throws {
        let database = try oldStore()
        let coordinator = try open(database.url, try sampleModel("SampleModel3"))
        #expect(try storeSnapshot(coordinator).count > 100)
        // SampleModel3's hashes: the store opens with it without the migration options.
        #expect(try open(database.url, try sampleModel("SampleModel3"), options: nil).persistentStores.count == 1)
    }

    @Test("persistent history survives the migration: old transactions read back with the new entities, new ones numbered after them")
    func keepsHistory() throws {
        let database = try oldStore()
        let tracking: [AnyHashable: Any] = [NSPersistentHistoryTrackingKey: true as NSNumber]
        func insertCar(_ plate: String, into coordinator: NSPersistentStoreCoordinator) throws {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Car", into: context).setValue(plate, forKey: "numberPlate")
                try context.save()
            }
        }
        try insertCar("OLD-1", into: try open(database.url, try sampleModel("SampleModel"), options: tracking))
        let coordinator = try open(database.url, try sampleModel("SampleModel2"),
                                   options: migrationOptions.merging(tracking) { $1 })
        try insertCar("NEW-1", into: coordinator)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let transactions = try history(after: nil, in: context)
        #expect(transactions.map(\.transactionNumber) == [1, 2])
        #expect(transactions.map { $0.changes?.map { $0.changedObjectID.entity.name } } == [["Car"], ["Car"]])
    }

    @Test("two processes opening an old store at once migrate it once, and both open it")
    func twoProcessesMigrateOnce() async throws {
        let database = try oldStore()
        let location = database.url.absoluteString
        let expected = try applesMigration().count
        // Hold the store's lock until both processes wait for it, so that they open at once.
        // The holder runs on a thread of its own: the exit tests may keep the concurrency
        // pool's threads (two on a two-core machine) busy until they end.
        let holder = try database.session()
        try holder.run("SELECT pg_advisory_lock(\(schemaLockKey))")
        let watcher = try database.session()
        let bothWaited = LockedFlag()
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Child processes start slowly on a loaded machine (the whole suite, 2 cores).
            let deadline = Date().addingTimeInterval(600)
            let waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            while Date() < deadline, (try? watcher.run(waiting).first?.first.flatMap { $0 }) != "2" {
                Thread.sleep(forTimeInterval: 0.1)
            }
            if (try? watcher.run(waiting).first?.first.flatMap { $0 }) == "2" { bothWaited.set() }
            _ = try? holder.run("SELECT pg_advisory_unlock(\(schemaLockKey))")
            released.signal()
        }
        let outputs = await withTaskGroup(of: String.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                        [location = location as String] in
                        try openingProcess(location: location)
                    }
                    return String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
                }
            }
            return await group.reduce(into: "") { $0 += $1 }
        }
        released.wait()
        #expect(bothWaited.value, "the two processes did not open at once")
        let opened = outputs.split(separator: "\n").filter { $0.hasPrefix("opened ") }.map { $0.split(separator: " ") }
        #expect(opened.count == 2)
        // Both saw Z_METADATA as one transaction wrote it: one migration.
        #expect(Set(opened.map { $0[1] }).count == 1, "\(opened)")
        #expect(opened.allSatisfy { $0.count == 3 && Int($0[2]) == expected })
        #expect(try storeSnapshot(try open(database.url, try sampleModel("SampleModel2"), options: nil)) == applesMigration())
    }
}

/// A flag set by one thread and read by another.
private final class LockedFlag: @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `isSet`.
    private let lock = NSLock()
    private var isSet = false

    func set() { lock.withLock { isSet = true } }
    var value: Bool { lock.withLock { isSet } }
}
