import CoreData
import CoreDataTestSupport
import Foundation
import Testing

/// The store inspector's subcommands (`info`, `count`, `show`, `history`, `check`, `diff`,
/// `export`, `import`), run as the built program on Apple-written stores and copies of
/// them, as a user runs them: exit statuses, output parsed, folders compared.
@Suite struct InspectorCommandTests {
    static let model = "alemar11_CoreDataPlus__SampleModel.xcdatamodeld"
    static let storeV1 = "alemar11_CoreDataPlus__SampleModel_V1.sqlite"
    static let historyStore = "alemar11_CoreDataPlus__SampleModel2_V2.sqlite"

    static func coredata(_ arguments: [String]) throws -> Programs.Run {
        try Programs.run(Programs.coredata(), arguments)
    }

    static func jsonObject(_ run: Programs.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
    }

    static var modelPath: String { (try? Fixtures.model(model).path) ?? "" }

    @Test("info describes an Apple-written store without its model and writes nothing")
    func info() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let before = try FolderState(folder.url)
        let text = try Self.coredata(["info", store.path])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("UUID       753753D3-A961-4901-AB05-8CC48B1D3853"), "\(text.output)")
        #expect(text.output.contains("History    off"))
        #expect(text.output.contains("(journal mode wal)"), "the header says WAL: \(text.output)")
        #expect(text.output.contains("Car                nlVVKQchWCING6zS+Ao9rUkZ90oyqovp7iKmp7QSbI8="))
        let json = try Self.jsonObject(Self.coredata(["info", store.path, "--json"]))
        #expect(json["history"] as? Bool == false)
        #expect((json["rows"] as? [String: Any])?["ZCAR"] as? Int == 125)
        #expect((json["modelVersionHashes"] as? [String: Any])?.count == 4)
        #expect(try FolderState(folder.url) == before)
    }

    @Test("model reads the model an Apple-written store caches, the same entities and hashes as its model file, and writes nothing")
    func modelFromStore() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let before = try FolderState(folder.url)
        let text = try Self.coredata(["model", store.path])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.hasPrefix("Model cached in the store \(store.path)"), "\(text.output)")
        #expect(text.output.contains("Entity Car  (class"), "\(text.output)")
        let cached = try Self.jsonObject(Self.coredata(["model", store.path, "--json"]))
        let file = try Self.jsonObject(Self.coredata(["model", Self.modelPath, "--json", "--version", "SampleModel"]))
        func hashes(_ json: [String: Any]) -> [String: String] {
            let version = (json["versions"] as? [[String: Any]])?.first ?? [:]
            let entities = version["entities"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: entities.map { ($0["name"] as? String ?? "", $0["versionHash"] as? String ?? "") })
        }
        #expect(hashes(cached).count == 4)
        #expect(hashes(cached) == hashes(file))
        let entities = ((cached["versions"] as? [[String: Any]])?.first?["entities"] as? [[String: Any]]) ?? []
        let person = try #require(entities.first { $0["name"] as? String == "Person" })
        let cars = try #require((person["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == "cars" })
        #expect(cars["toMany"] as? Bool == true && cars["destination"] as? String == "Car")
        #expect(try FolderState(folder.url) == before)
        let versionOfStore = try Self.coredata(["model", store.path, "--version", "SampleModel"])
        #expect(versionOfStore.status == 2)
    }

    @Test("info sees persistent history in a store Apple's Core Data wrote with it")
    func infoHistory() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.historyStore, to: folder)
        let json = try Self.jsonObject(Self.coredata(["info", store.path, "--json"]))
        #expect(json["history"] as? Bool == true)
        #expect(json["transactions"] as? Int == 1)
    }

    @Test("count counts every entity, sub-entities included, or one entity matching a predicate")
    func count() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let all = try Self.jsonObject(Self.coredata(["count", store.path, "--model", Self.modelPath, "--json"]))
        #expect(all as? [String: Int] == ["Car": 125, "SportCar": 10, "ExpensiveSportCar": 5, "Person": 20])
        let some = try Self.coredata(["count", store.path, "--model", Self.modelPath, "--entity", "Car",
                                      "--where", "owner.firstName == 'Theodora'"])
        #expect(some.status == 0, "\(some.errors)")
        #expect(some.output == "Car  100\n")
        let usage = try Self.coredata(["count", store.path, "--model", Self.modelPath, "--where", "maker == 'FIAT'"])
        #expect(usage.status == 2)
        #expect(usage.errors.contains("--where needs --entity"))
    }

    @Test("count, show, diff and export read an Apple-written store with the model it caches when --model is left out")
    func withoutModel() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let before = try FolderState(folder.url)
        let all = try Self.jsonObject(Self.coredata(["count", store.path, "--json"]))
        #expect(all as? [String: Int] == ["Car": 125, "SportCar": 10, "ExpensiveSportCar": 5, "Person": 20])
        let person = try Self.coredata(["show", store.path, "Person/p17"])
        #expect(person.status == 0, "\(person.errors)")
        #expect(person.output.contains("firstName  Theodora"))
        let same = try Self.coredata(["diff", store.path, store.path])
        #expect(same.status == 0, "\(same.output) \(same.errors)")
        let lines = folder.file("out.jsonl")
        let export = try Self.coredata(["export", store.path, "--entity", "Person", "--output", lines.path])
        #expect(export.status == 0, "\(export.errors)")
        #expect(try String(contentsOf: lines, encoding: .utf8).split(separator: "\n").count == 20)
        try FileManager.default.removeItem(at: lines)
        #expect(try FolderState(folder.url) == before)
    }

    @Test("count and history read the Apple-written store whose model has a derived attribute, with the model it caches")
    func withoutModelDerivedAttribute() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.historyStore, to: folder)
        let (books, pages) = try {
            let raw = try RawDatabase(store)
            return (try #require(try raw.scalar("SELECT COUNT(*) FROM ZBOOK") as? Int64),
                    try #require(try raw.scalar("SELECT COUNT(*) FROM ZPAGE") as? Int64))
        }()
        let before = try FolderState(folder.url)
        let counts = try Self.jsonObject(Self.coredata(["count", store.path, "--json"]))
        #expect(counts["Book"] as? Int == Int(books))
        #expect(counts["Page"] as? Int == Int(pages))
        let history = try Self.coredata(["history", store.path, "--json"])
        #expect(history.status == 0, "\(history.errors)")
        let transactions = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]])
        #expect(transactions.count == 1)
        #expect(try FolderState(folder.url) == before)
    }

    @Test("show prints one object with its relationships, by URI or Entity/pN; an unknown one exits 1")
    func show() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let run = try Self.coredata(["show", store.path, "--model", Self.modelPath, "Person/p17"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("firstName  Theodora"))
        #expect(run.output.contains("cars       [Car/p1, Car/p2, Car/p3,"), "\(run.output)")
        let byURI = try Self.jsonObject(Self.coredata(["show", store.path, "--model", Self.modelPath, "--json",
                                                       "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/Car/p1"]))
        #expect((byURI["relationships"] as? [String: Any])?["owner"] as? String
                == "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/Person/p17")
        let missing = try Self.coredata(["show", store.path, "--model", Self.modelPath, "Person/p999"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("p999"))
    }

    @Test("history lists each transaction with its inserts, updates and deletes, after a transaction number")
    func history() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        // Turn history on in the copy and make three transactions, as an app would.
        let model = try #require(NSManagedObjectModel(contentsOf: Fixtures.model(Self.model)))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let added = try coordinator.addPersistentStore(type: .sqlite, at: store,
                                                       options: [NSPersistentHistoryTrackingKey: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.transactionAuthor = "importer"
        try context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Zelda", forKey: "firstName")
            person.setValue(UUID(), forKey: "id")
            person.setValue(Date(), forKey: "updatedAt")
            try context.save()
            let car = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")).first)
            car.setValue("Fiat", forKey: "maker")
            try context.save()
            context.delete(car)
            try context.save()
        }
        try coordinator.remove(added)

        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(Self.coredata(["history", store.path, "--model", Self.modelPath, "--json"]).output.utf8)) as? [[String: Any]])
        #expect(json.count == 3)
        #expect(json.allSatisfy { $0["author"] as? String == "importer" })
        let kinds = json.map { (($0["changes"] as? [[String: Any]]) ?? []).map { $0["type"] as? String ?? "" } }
        #expect(kinds.first.map(Set.init) == ["insert"])
        #expect(kinds.dropFirst().first.map(Set.init) == ["update"])
        // Deleting the car nullifies its owner's side: an update of the owner beside the delete.
        #expect(kinds.last.map(Set.init) == ["delete", "update"])
        let update = try #require((json[1]["changes"] as? [[String: Any]])?.first)
        #expect(update["updatedProperties"] as? [String] == ["maker"])
        let first = try #require(json.first?["number"] as? Int)
        let later = try Self.coredata(["history", store.path, "--model", Self.modelPath, "--after", "\(first)"])
        #expect(later.status == 0, "\(later.errors)")
        #expect(later.output.hasSuffix("(2 transactions)\n"), "\(later.output)")
        #expect(later.output.contains("  update x-coredata://"))

        let plain = try TemporaryDirectory()
        let none = try Self.coredata(["history", Fixtures.copyStore(Self.storeV1, to: plain).path,
                                      "--model", Self.modelPath])
        #expect(none.status == 1)
        #expect(none.errors.contains("records no persistent history"))
    }

    @Test("check passes a sound store and names a stale primary-key counter and a dangling reference")
    func check() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let sound = try Self.coredata(["check", store.path, "--model", Self.modelPath])
        #expect(sound.status == 0, "\(sound.output)\(sound.errors)")
        #expect(sound.output.hasSuffix("The store is sound.\n"))

        let damaged = try RawDatabase(store, readOnly: false)
        try damaged.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Person'")
        try damaged.execute("UPDATE ZCAR SET ZOWNER = 999 WHERE Z_PK = 1")
        let run = try Self.coredata(["check", store.path, "--model", Self.modelPath, "--json"])
        #expect(run.status == 1)
        let problems = try #require(try Self.jsonObject(run)["problems"] as? [String])
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Z_PRIMARYKEY: Person has Z_MAX 3") })
        #expect(problems.contains { $0.contains("Car/p1.owner refers to Person/p999") })
    }

    @Test("check and info report a file that is not a store, exit 1, and leave it as it was")
    func corrupt() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let truncated = folder.file("Truncated.sqlite")
        try Data(try Data(contentsOf: store).prefix(3000)).write(to: truncated)
        let before = try FolderState(folder.url)
        for command in ["check", "info"] {
            let run = try Self.coredata([command, truncated.path])
            #expect(run.status == 1, "\(command)")
            #expect(run.errors.contains("cannot be read as a SQLite store"), "\(run.errors)")
        }
        #expect(try FolderState(folder.url) == before)
    }

    @Test("diff names inserted, deleted and updated objects, with each changed property")
    func diff() throws {
        let folder = try TemporaryDirectory()
        let old = try Fixtures.copyStore(Self.storeV1, to: folder)
        let new = folder.file("New.sqlite")
        try FileManager.default.copyItem(at: old, to: new)
        let changed = try RawDatabase(new, readOnly: false)
        try changed.execute("UPDATE ZPERSON SET ZFIRSTNAME = 'Teddy' WHERE Z_PK = 17")
        try changed.execute("DELETE FROM ZCAR WHERE Z_PK = 125")
        let same = try Self.coredata(["diff", old.path, old.path, "--model", Self.modelPath])
        #expect(same.status == 0, "\(same.errors)")
        let run = try Self.coredata(["diff", old.path, new.path, "--model", Self.modelPath])
        #expect(run.status == 1, "\(run.errors)")
        #expect(run.output.contains("- Car/p125\n"))
        #expect(run.output.contains("~ Person/p17\n    firstName: Theodora -> Teddy\n"), "\(run.output)")
        #expect(run.output.hasSuffix("0 inserted, 1 deleted, 1 updated\n"))
    }

    @Test("export then import copies every object and relationship into a new store, which then diffs equal but for keys")
    func exportImport() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let lines = folder.file("objects.jsonl")
        let export = try Self.coredata(["export", store.path, "--model", Self.modelPath, "--output", lines.path])
        #expect(export.status == 0, "\(export.errors)")
        let objects = try String(contentsOf: lines, encoding: .utf8).split(separator: "\n")
        #expect(objects.count == 145)
        let copy = folder.file("Copy.sqlite")
        let imported = try Self.coredata(["import", lines.path, copy.path, "--model", Self.modelPath])
        #expect(imported.status == 0, "\(imported.errors)")
        let counts = try Self.jsonObject(Self.coredata(["count", copy.path, "--model", Self.modelPath, "--json"]))
        #expect(counts as? [String: Int] == ["Car": 125, "SportCar": 10, "ExpensiveSportCar": 5, "Person": 20])
        let check = try Self.coredata(["check", copy.path, "--model", Self.modelPath])
        #expect(check.status == 0, "\(check.output)")
        // Theodora still owns 100 cars, whatever keys the import gave them.
        let owned = try Self.coredata(["count", copy.path, "--model", Self.modelPath, "--entity", "Car",
                                       "--where", "owner.firstName == 'Theodora'"])
        #expect(owned.output == "Car  100\n")
    }

    @Test("import refuses a bad line, saves nothing and leaves no new store behind")
    func importBadLine() throws {
        let folder = try TemporaryDirectory()
        let lines = folder.file("bad.jsonl")
        try Data(#"{"entity":"Car","objectID":"x","attributes":{"numberPlate":5}}"#.utf8).write(to: lines)
        let target = folder.file("Target.sqlite")
        let run = try Self.coredata(["import", lines.path, target.path, "--model", Self.modelPath])
        #expect(run.status == 1)
        #expect(run.errors.contains("Car.numberPlate"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("every subcommand has help, and unknown options exit 2 with the usage", arguments: [
        "info", "model", "count", "show", "history", "check", "diff", "export", "import",
    ])
    func help(_ command: String) throws {
        let help = try Self.coredata([command, "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: coredata \(command) "), "\(help.output)")
        let bad = try Self.coredata([command, "--bogus"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("unknown option '--bogus'"))
        #expect(bad.errors.contains("usage: coredata \(command)"))
    }
}
