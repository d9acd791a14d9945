import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

// Lightweight migration of SQLite stores, checked against Apple's own migration result
// (CoreDataPlus SampleModel_V2.sqlite is SampleModel_V1.sqlite migrated by Core Data).

private var migrationOptions: [AnyHashable: Any] {
    [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true]
}

private enum Bundles {
    static func sampleModel() throws -> ModelBundle {
        try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
    }
    static func sampleModel3() throws -> ModelBundle {
        try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel3.xcdatamodeld"))
    }
    static func moody() throws -> ModelBundle {
        try ModelBundle.open(Fixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld"))
    }
}

private func open(_ url: URL, _ model: NSManagedObjectModel, options: [AnyHashable: Any]? = migrationOptions) throws -> NSPersistentStoreCoordinator {
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
    return coordinator
}

@Suite struct LightweightMigrationTests {
    @Test("a SampleModel V1 store migrated to SampleModel2 holds what Apple's migration wrote")
    func sampleModelMatchesApple() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let apple = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V2.sqlite", to: folder)
        let ours = try storeSnapshot(try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2")))
        let theirs = try storeSnapshot(try open(apple, try Bundles.sampleModel().model(forVersion: "SampleModel2")))
        #expect(ours.count > 100)
        #expect(ours.contains { $0.hasPrefix("LuxuryCar(") })
        #expect(ours == theirs)
        // Same store UUID, new hashes; the migrated store opens again without migrating.
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: v1)
        let untouched = try TemporaryDirectory()
        let original = try NSPersistentStoreCoordinator.metadataForPersistentStore(
            type: .sqlite, at: Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: untouched))
        #expect(metadata[NSStoreUUIDKey] as? String == original[NSStoreUUIDKey] as? String)
        #expect((metadata[NSStoreModelVersionHashesKey] as? [String: Data])?["LuxuryCar"] != nil)
        #expect(try storeSnapshot(try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2"), options: nil)) == theirs)
    }

    @Test("migration keeps Z_PK, Z_OPT and each hierarchy's Z_MAX; Z_PRIMARYKEY is what Apple's migration left")
    func keepsKeys() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let before = try RawDatabase(v1)
        let rows = try before.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZCAR ORDER BY Z_PK").map { "\($0)" }
        let max = try before.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") as? Int64
        _ = try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2"))
        let after = try RawDatabase(v1)
        #expect(try after.rows("SELECT Z_PK, Z_ENT, Z_OPT FROM ZCAR ORDER BY Z_PK").map { "\($0)" } == rows)
        #expect(try after.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") as? Int64 == max)
        // Apple's V2 store keeps the renamed entity's old name (ExpensiveSportCar → LuxuryCar).
        let apple = try RawDatabase(try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V2.sqlite", to: folder))
        let primaryKeys = "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(try after.rows(primaryKeys).map { "\($0)" } == apple.rows(primaryKeys).map { "\($0)" })
        #expect(try after.scalar("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = 3") as? String == "ExpensiveSportCar")
    }

    @Test("SampleModel V1 → V2: every table and row equals what Apple's migration wrote, column by column")
    func rowsMatchApple() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let appleURL = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V2.sqlite", to: folder)
        _ = try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2"))
        let ours = try RawDatabase(v1), apple = try RawDatabase(appleURL)
        #expect(try ours.tables() == apple.tables())
        for table in try apple.tables().sorted() where !["Z_METADATA", "Z_MODELCACHE"].contains(table) {
            let columns = try apple.rows("PRAGMA table_info(\(table))").compactMap { $0[1] as? String }
            #expect(try Set(ours.columns(table).keys) == Set(columns), "\(table)")
            let select = "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY 1"
            #expect(try ours.rows(select).map { "\($0)" } == apple.rows(select).map { "\($0)" }, "\(table)")
        }
    }

    @Test("without the migration options a store of another version still fails with 134100")
    func optionsOff() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let bytes = fileBytes(v1)
        let error = #expect(throws: NSError.self) {
            try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2"), options: nil)
        }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(fileBytes(v1) == bytes)
    }

    @Test("a mapping that can't be inferred fails with 134190 naming the property, and leaves the store byte for byte")
    func uninferable() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let bytes = fileBytes(v1)
        let model = try Bundles.sampleModel().model(forVersion: "SampleModel2")
        model.entitiesByName["Person"]!.properties.append(attribute("nickname", .stringAttributeType, optional: false))
        let error = #expect(throws: NSError.self) { try open(v1, model) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSInferredMappingModelError)
        #expect(error?.localizedDescription.contains("Person.nickname") == true)
        #expect(fileBytes(v1) == bytes)
        #expect(try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel")) .persistentStores.count == 1)
    }

    @Test("a failing migration SQL statement leaves the store byte for byte and reports 134110")
    func sqlFailureRollsBack() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        // A destination uniqueness constraint the migrated rows violate (every Car gets the
        // same default model name).
        let model = try Bundles.sampleModel().model(forVersion: "SampleModel2")
        let car = model.entitiesByName["Car"]!
        let tag = attribute("tag", .stringAttributeType, optional: false)
        tag.defaultValue = "same"
        car.properties.append(tag)
        car.uniquenessConstraints = [["tag"]]
        let bytes = fileBytes(v1)
        let error = #expect(throws: NSError.self) { try open(v1, model) }
        #expect(error?.code == NSMigrationError)
        #expect(fileBytes(v1) == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("migration") }
        #expect(leftovers.isEmpty)
    }

    @Test("no model version matching the store, and no cached model, fails with 134130")
    func missingSourceModel() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        // Without its Z_MODELCACHE the store names no model we can find.
        try RawDatabase(v1, readOnly: false).execute("DELETE FROM Z_MODELCACHE")
        let model = NSManagedObjectModel()
        model.entities = [entity("Car", [attribute("numberPlate", .stringAttributeType)])]
        let error = #expect(throws: NSError.self) { try open(v1, model) }
        #expect(error?.code == NSMigrationMissingSourceModelError)
    }

    @Test("inference off with migration on fails with 134140 (no mapping model files)")
    func inferenceOff() throws {
        let folder = try TemporaryDirectory()
        let v1 = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let error = #expect(throws: NSError.self) {
            try open(v1, try Bundles.sampleModel().model(forVersion: "SampleModel2"),
                     options: [NSMigratePersistentStoresAutomaticallyOption: true])
        }
        #expect(error?.code == NSMigrationMissingMappingModelError)
    }

    @Test("the inferred mapping model maps ExpensiveSportCar to LuxuryCar by renaming identifier")
    func inferredMappingModel() throws {
        let bundle = try Bundles.sampleModel()
        let mapping = try NSMappingModel.inferredMappingModel(
            forSourceModel: try bundle.model(forVersion: "SampleModel"),
            destinationModel: try bundle.model(forVersion: "SampleModel2"))
        let luxury = try #require(mapping.entityMappingsByName["ExpensiveSportCarToLuxuryCar"])
        #expect(luxury.mappingType == .transformEntityMappingType)
        #expect(mapping.entityMappingsByName["CarToCar"]?.attributeMappings?.contains { $0.name == "color" } == false)
    }

    @Test("SampleModel3: V1 store migrates through v2 (new entity and relationship) to v3 (removed attribute)")
    func sampleModel3Chain() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel3_V1.sqlite", to: folder)
        let bundle = try Bundles.sampleModel3()
        let original = try storeSnapshot(try open(url, try bundle.model(forVersion: "SampleModel3"), options: nil))
        #expect(!original.isEmpty)
        let v2 = try storeSnapshot(try open(url, try bundle.model(forVersion: "SampleModel3_v2")))
        #expect(v2 == original.map { $0 + " pet->[]" })
        let v3 = try storeSnapshot(try open(url, try bundle.model(forVersion: "SampleModel3_v3")))
        #expect(v3.count == original.count)
        #expect(v3.allSatisfy { !$0.contains("petName") })
        // Straight from V1 to v3 gives the same store.
        let directFolder = try TemporaryDirectory()
        let direct = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel3_V1.sqlite", to: directFolder)
        #expect(try storeSnapshot(try open(direct, try bundle.model(forVersion: "SampleModel3_v3"))) == v3)
    }

    @Test("Moody 1 → 2 renames remoteIdentifier to remoteID and adds rating with its default")
    func moodyRename() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("objcio_core-data__Moody.moody.sqlite", to: folder)
        let before = try RawDatabase(url).rows("SELECT Z_PK, ZREMOTEIDENTIFIER FROM ZMOOD ORDER BY Z_PK").map { "\($0)" }
        let coordinator = try open(url, try Bundles.moody().model(forVersion: "Moody 2"))
        #expect(!before.isEmpty)
        #expect(try RawDatabase(url).rows("SELECT Z_PK, ZREMOTEID FROM ZMOOD ORDER BY Z_PK").map { "\($0)" } == before)
        #expect(try RawDatabase(url).scalar("SELECT COUNT(*) FROM ZMOOD WHERE ZRATING = 0") as? Int64 == Int64(before.count))
        #expect(try storeSnapshot(coordinator).count > before.count)
    }

    @Test("Moody 3 → 4 moves Continent and Country out of their abstract parent, keeping relationships")
    func moodyHierarchySplit() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("objcio_core-data__Moody_3.moody.sqlite", to: folder)
        let bundle = try Bundles.moody()
        let before = try storeSnapshot(try open(url, try bundle.model(forVersion: "Moody 3"), options: nil))
        let after = try storeSnapshot(try open(url, try bundle.model(forVersion: "Moody 4")))
        #expect(after.count == before.count)
        let db = try RawDatabase(url)
        #expect(try db.scalar("SELECT COUNT(*) FROM ZCOUNTRY") as? Int64 ?? 0 > 0)
        #expect(try db.scalar("SELECT COUNT(*) FROM ZMOOD WHERE ZCOUNTRY IS NOT NULL") as? Int64 ?? 0 > 0)
        let moodsWithCountry = before.filter { $0.hasPrefix("Mood(") && !$0.contains("country->[]") }.count
        #expect(after.filter { $0.hasPrefix("Mood(") && !$0.contains("country->[]") }.count == moodsWithCountry)
    }

    @Test("through NSPersistentContainer: a Moody 5 store opens with the bundle's current version (Moody 6)")
    func containerMigrates() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("objcio_core-data__Moody_5.moody.sqlite", to: folder)
        let locations = [ModelLocator.Location(label: "fixtures", directory: try Fixtures.model(""))]
        let model = try ModelLocator.model(named: "objcio_core-data__Migrations_Moody", searching: locations)
        let container = NSPersistentContainer(name: "Moody", managedObjectModel: model)
        container.persistentStoreDescriptions[0].url = url
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let count = try container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Mood"))
        #expect(count > 0)
    }

    // objcio's Moody fixtures were written by its migration tests: each store is the
    // previous one migrated. Steps 1→2 and 3→4 are lightweight there too; 2→3 and 4→5
    // use custom mapping models that compute data (Mood.continent, Country.isoContinent),
    // which an inferred mapping leaves empty.
    static let moodyStores = ["objcio_core-data__Moody.moody.sqlite", "objcio_core-data__Moody_2.moody.sqlite",
                              "objcio_core-data__Moody_3.moody.sqlite", "objcio_core-data__Moody_4.moody.sqlite",
                              "objcio_core-data__Moody_5.moody.sqlite"]
    static let moodyVersions = ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5"]

    /// (our migration of store `step`, objcio's store `step + 1`), both read with version `step + 1`.
    func moodyStep(_ step: Int) throws -> (ours: [String], theirs: [String]) {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore(Self.moodyStores[step], to: folder)
        let next = try Fixtures.copyStore(Self.moodyStores[step + 1], to: folder)
        let version = Self.moodyVersions[step + 1]
        return (try storeSnapshot(try open(url, try Bundles.moody().model(forVersion: version))),
                try storeSnapshot(try open(next, try Bundles.moody().model(forVersion: version), options: nil)))
    }

    @Test("Moody 1 → 2 and 3 → 4 give exactly the stores objcio's (lightweight) migrations wrote", arguments: [0, 2])
    func moodyLightweightSteps(step: Int) throws {
        let (ours, theirs) = try moodyStep(step)
        #expect(!ours.isEmpty)
        #expect(ours == theirs)
    }

    @Test("Moody 2 → 3 and 4 → 5 (custom mappings at objcio) migrate the same objects, new data left empty", arguments: [1, 3])
    func moodyCustomMappedSteps(step: Int) throws {
        let (ours, theirs) = try moodyStep(step)
        func objects(_ lines: [String]) -> [String] {
            lines.map { line in
                let identity = String(line[..<(line.range(of: ") ")?.lowerBound ?? line.endIndex)])
                // Country.isoContinent is new in Moody 5: only objcio's custom mapping fills it.
                return identity.replacingOccurrences(of: #"isoContinent=[0-9]+,"#, with: "", options: .regularExpression)
            }.sorted()
        }
        #expect(ours.count == theirs.count)
        #expect(objects(ours) == objects(theirs))
        if step == 1 { #expect(ours.filter { $0.hasPrefix("Mood(") }.allSatisfy { $0.contains("continent->[]") }) }
        if step == 3 { #expect(ours.filter { $0.hasPrefix("Country(") }.allSatisfy { $0.contains("isoContinent=0,") }) }
    }

    /// Writes a two-version `Library.xcdatamodeld` into `folder`.
    func libraryBundle(in folder: TemporaryDirectory, v1: String, v2: String) throws -> ModelBundle {
        let bundle = folder.file("Library.xcdatamodeld")
        for (name, body) in [("Library", v1), ("Library 2", v2)] {
            let version = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n\(body)\n</model>\n"
            try xml.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        return try ModelBundle.open(bundle)
    }

    @Test("a to-one relationship that becomes many-to-many (and is renamed) keeps every link")
    func toOneBecomesManyToMany() throws {
        let folder = try TemporaryDirectory()
        let bundle = try libraryBundle(in: folder, v1: """
            <entity name="Author"><attribute name="name" attributeType="String"/>
              <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="title" attributeType="String"/>
              <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
            """, v2: """
            <entity name="Author"><attribute name="name" attributeType="String"/>
              <attribute name="born" optional="YES" attributeType="Integer 32" defaultValueString="1900"/>
              <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="writers" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="heading" attributeType="String" elementID="title"/>
              <relationship name="writers" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author" elementID="author"/></entity>
            """)
        let url = folder.file("Library.sqlite")
        let coordinator = try open(url, try bundle.model(forVersion: "Library"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (a, titles) in [("Ann", ["A1", "A2"]), ("Bob", ["B1"]), ("Cy", [])] {
                let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
                author.setValue(a, forKey: "name")
                for title in titles {
                    let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                    book.setValue(title, forKey: "title")
                    book.setValue(author, forKey: "author")
                }
            }
            let orphan = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            orphan.setValue("O", forKey: "title")
            try context.save()
        }
        try coordinator.remove(coordinator.persistentStores[0])
        let migrated = try storeSnapshot(try open(url, try bundle.model(forVersion: "Library 2")))
        #expect(migrated == [
            "Author(born=1900,name=Ann) books->[Book(heading=A1); Book(heading=A2)]",
            "Author(born=1900,name=Bob) books->[Book(heading=B1)]",
            "Author(born=1900,name=Cy) books->[]",
            "Book(heading=A1) writers->[Author(born=1900,name=Ann)]",
            "Book(heading=A2) writers->[Author(born=1900,name=Ann)]",
            "Book(heading=B1) writers->[Author(born=1900,name=Bob)]",
            "Book(heading=O) writers->[]",
        ])
    }
}

