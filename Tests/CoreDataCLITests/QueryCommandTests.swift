import CoreData
import CoreDataTestSupport
import Foundation
import Testing

/// `coredata query`, run as the built program on Apple-written stores.
@Suite struct QueryCommandTests {
    static let model = "alemar11_CoreDataPlus__SampleModel.xcdatamodeld"
    static let storeV1 = "alemar11_CoreDataPlus__SampleModel_V1.sqlite"
    static let storeV2 = "alemar11_CoreDataPlus__SampleModel_V2.sqlite"

    static func query(_ arguments: [String], wrapper: [String] = []) throws -> Programs.Run {
        try Programs.run(Programs.coredata(), ["query"] + arguments, wrapper: wrapper)
    }

    /// The first column of a table's rows (after the header and rule, before the count).
    static func cells(_ output: String, column: Int) -> [String] {
        output.split(separator: "\n").dropFirst(2).dropLast()
            .map { $0.split(separator: "|")[column].trimmingCharacters(in: .whitespaces) }
    }

    /// Saves one more person into the V1-model store at `store` through Core Data, leaving
    /// the store added (its save may still be in the `-wal`) for the caller to remove.
    static func addPerson(firstName: String, lastName: String, to store: URL) throws
        -> (NSPersistentStoreCoordinator, NSPersistentStore) {
        let model = try #require(NSManagedObjectModel(contentsOf: Fixtures.model(Self.model)))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let added = try coordinator.addPersistentStore(type: .sqlite, at: store)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        person.setValue(firstName, forKey: "firstName")
        person.setValue(lastName, forKey: "lastName")
        person.setValue(UUID(), forKey: "id")
        person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
        try context.save()
        return (coordinator, added)
    }

    /// A copy of the V1 store whose `-wal` holds one more person, Zelda Walker, in a
    /// read-only folder of its own (database and `-wal` only, as a store is often shipped
    /// or copied): what `coredata query` must read without writing anything.
    static func storeWithWAL(in folder: TemporaryDirectory) throws -> URL {
        let work = folder.file("work")
        let shipped = folder.file("shipped")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let store = work.appendingPathComponent(Self.storeV1)
        try FileManager.default.copyItem(at: Fixtures.store(Self.storeV1), to: store)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.path)
        let (coordinator, added) = try Self.addPerson(firstName: "Zelda", lastName: "Walker", to: store)
        // Copied while the writer is open: the save is still in the -wal.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: shipped.path + "/Shop.sqlite" + suffix)
        }
        try coordinator.remove(added)
        let wal = try FileManager.default.attributesOfItem(atPath: shipped.path + "/Shop.sqlite-wal")[.size] as? Int
        try #require((wal ?? 0) > 0, "the -wal must hold the save for this test to mean anything")
        try makeReadOnly(shipped)
        return shipped.appendingPathComponent("Shop.sqlite")
    }

    @Test("filters, sorts and limits an Apple-written store, printed as a table; the folder is left exactly as it was")
    func table() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let before = try FolderState(folder.url)
        let run = try Self.query([store.path, "--model", Fixtures.model(Self.model).path,
                                  "--entity", "Person", "--where", "cars.@count >= 2",
                                  "--sort", "-firstName", "--limit", "3"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("| firstName |") == true, "\(run.output)")
        #expect(Self.cells(run.output, column: 1) == ["Wardell", "Theodora", "Ross"])
        #expect(lines.last == "(3 rows)")
        #expect(try FolderState(folder.url) == before)
    }

    @Test("reads what the store's -wal holds and writes nothing beside it (no -wal, no -shm), in a read-only folder")
    func walContentWithoutWriting() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.storeWithWAL(in: folder)
        let before = try FolderState(store.deletingLastPathComponent())
        let run = try Self.query([store.path, "--model", Fixtures.model(Self.model).path,
                                  "--entity", "Person", "--where", "lastName == 'Walker'"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.cells(run.output, column: 1) == ["Zelda"], "\(run.output)")
        #expect(try FolderState(store.deletingLastPathComponent()) == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
    }

    @Test("works for a user who cannot write the store's folder",
          .enabled(if: OtherUser.isAvailable, "needs root and setpriv to run the tool as nobody; the no-write proof above still holds"))
    func otherUserInReadOnlyFolder() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.storeWithWAL(in: folder)
        // The model too, where nobody can read it.
        let models = folder.file("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.model(Self.model), to: models.appendingPathComponent(Self.model))
        let before = try FolderState(store.deletingLastPathComponent())
        let run = try Self.query([store.path, "--model", models.appendingPathComponent(Self.model).path,
                                  "--entity", "Person", "--where", "lastName == 'Walker'", "--json"],
                                 wrapper: OtherUser.wrapper)
        #expect(run.status == 0, "\(run.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["firstName"] as? String } == ["Zelda"])
        #expect(try FolderState(store.deletingLastPathComponent()) == before)
    }

    @Test("prints CSV of chosen key paths, through to-one relationships, quoted where needed")
    func csvColumns() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let run = try Self.query([store.path, "--entity", "Car", "--where", "owner.firstName == 'Theodora'",
                                  "--sort", "numberPlate", "--limit", "2", "--columns", "maker,owner.firstName,owner",
                                  "--csv"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.trimmingCharacters(in: .newlines).components(separatedBy: "\r\n")
        #expect(lines.count == 3, "\(run.output)")
        #expect(lines.first == "pk,maker,owner.firstName,owner")
        #expect(lines.dropFirst().allSatisfy { $0.contains(",FIAT,Theodora,Person/p") }, "\(run.output)")
        let toMany = try Self.query([store.path, "--entity", "Person", "--columns", "cars.maker"])
        #expect(toMany.status == 2)
        #expect(toMany.errors.contains("to-many"), "\(toMany.errors)")
        let unknown = try Self.query([store.path, "--entity", "Car", "--columns", "owner.nope", "--csv"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("no property 'nope'"), "\(unknown.errors)")
    }

    @Test("CSV quotes a field with a comma, a quote or a line break, doubling its quotes")
    func csvQuoting() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let (coordinator, added) = try Self.addPerson(firstName: "Zelda, \"Z\"", lastName: "Walker\nJr", to: store)
        try coordinator.remove(added)
        let run = try Self.query([store.path, "--entity", "Person", "--where", "firstName BEGINSWITH 'Zelda'",
                                  "--columns", "firstName,lastName", "--csv"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasSuffix(",\"Zelda, \"\"Z\"\"\",\"Walker\nJr\"\n"), "\(run.output)")
    }

    @Test("prints JSON with every attribute and to-one, NULLs as null")
    func json() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let run = try Self.query([store.path, "--model", Fixtures.model(Self.model).path,
                                  "--entity", "Car", "--where", "owner.firstName ==[c] 'THEODORA'",
                                  "--sort", "numberPlate", "--limit=2", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.first?["maker"] as? String == "FIAT")
        #expect(rows.first?["color"] is NSNull)
        #expect((rows.first?["owner"] as? String)?.hasPrefix("Person/p") == true)
        #expect((rows.first?["objectID"] as? String)?.hasPrefix("x-coredata://") == true)
    }

    @Test("picks the model version the store's metadata names", arguments: [
        (storeV1, model, "Person"),
        (storeV2, model, "Person"),
        ("objcio_core-data__Moody_4.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
        ("objcio_core-data__Moody.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
    ])
    func versions(_ name: String, _ model: String, _ entity: String) throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(name, to: folder)
        let run = try Self.query([store.path, "--model", Fixtures.model(model).path, "--entity", entity])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasSuffix("rows)\n"), "\(run.output)")
        #expect(!run.output.contains("(0 rows)"))
    }

    @Test("bad arguments exit 2 with the usage; bad predicates, entities, keys and files exit 1 saying what is wrong")
    func errors() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder).path
        let model = try Fixtures.model(Self.model).path

        let missingEntity = try Self.query([store, "--model", model])
        #expect(missingEntity.status == 2)
        #expect(missingEntity.errors.contains("missing --entity"))
        #expect(missingEntity.errors.contains("usage: coredata query"))
        let badLimit = try Self.query([store, "--model", model, "--entity", "Car", "--limit", "many"])
        #expect(badLimit.status == 2)
        #expect(badLimit.errors.contains("'many'"))

        let parse = try Self.query([store, "--model", model, "--entity", "Car", "--where", "maker == "])
        #expect(parse.status == 1)
        #expect(parse.errors.contains("maker =="), "\(parse.errors)")
        let entity = try Self.query([store, "--model", model, "--entity", "Plane"])
        #expect(entity.status == 1)
        #expect(entity.errors.contains("Plane"))
        let key = try Self.query([store, "--model", model, "--entity", "Car", "--where", "wings > 2"])
        #expect(key.status == 1)
        #expect(key.errors.contains("wings"))
        let missing = folder.file("Missing.sqlite").path
        let noStore = try Self.query([missing, "--model", model, "--entity", "Car"])
        #expect(noStore.status == 1)
        #expect(noStore.errors.contains(missing))
        for run in [parse, entity, key, noStore] {
            #expect(!run.errors.contains("Error Domain="), "\(run.errors)")
        }
    }

    @Test("without --model, reads the store with the model it keeps (Z_MODELCACHE), writing nothing")
    func cachedModel() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV2, to: folder)
        let before = try FolderState(folder.url)
        let run = try Self.query([store.path, "--entity", "LuxuryCar", "--sort", "numberPlate", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0["numberPlate"] is String && $0["isLimitedEdition"] != nil })
        #expect(try FolderState(folder.url) == before)

        try RawDatabase(store, readOnly: false).execute("DELETE FROM Z_MODELCACHE")
        let none = try Self.query([store.path, "--entity", "Car"])
        #expect(none.status == 1)
        #expect(none.errors.contains("Z_MODELCACHE"), "\(none.errors)")
    }

    @Test("the help says the store is read without writing anything")
    func help() throws {
        let run = try Programs.run(Programs.coredata(), ["help", "query"])
        #expect(run.status == 0)
        #expect(run.output.contains("nothing is written in or beside"), "\(run.output)")
    }
}
