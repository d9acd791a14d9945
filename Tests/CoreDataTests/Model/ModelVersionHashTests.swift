import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model version hashes")
struct ModelVersionHashTests {
    @Test("entity hashes equal the compiled CoreDataPlus models' VersionInfo.plist, every version",
          arguments: ["alemar11_CoreDataPlus__SampleModel", "alemar11_CoreDataPlus__SampleModel3"])
    func compiledOracle(_ name: String) throws {
        let oracle = try Fixtures.compiledVersionHashes("\(name).momd")
        #expect(oracle.count == 3)
        let bundle = try ModelBundle.open(Fixtures.model("\(name).xcdatamodeld"))
        for (version, expected) in oracle {
            let model = try bundle.model(forVersion: version)
            let ours = model.entityVersionHashesByName
            #expect(Set(ours.keys) == Set(expected.keys), "entities of \(version)")
            for (entity, hash) in expected {
                #expect(ours[entity].map(Fixtures.hex) == Fixtures.hex(hash), "\(version).\(entity)")
            }
        }
    }

    static let stores: [(store: String, bundle: String, version: String)] = [
        ("alemar11_CoreDataPlus__SampleModel3_V1.sqlite", "alemar11_CoreDataPlus__SampleModel3.xcdatamodeld", "SampleModel3"),
        ("alemar11_CoreDataPlus__SampleModel_V1.sqlite", "alemar11_CoreDataPlus__SampleModel.xcdatamodeld", "SampleModel"),
        ("alemar11_CoreDataPlus__SampleModel_V2.sqlite", "alemar11_CoreDataPlus__SampleModel.xcdatamodeld", "SampleModel2"),
        ("objcio_core-data__Moody.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Moody"),
        ("objcio_core-data__Moody_2.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Moody 2"),
        ("objcio_core-data__Moody_3.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Moody 3"),
        ("objcio_core-data__Moody_4.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Moody 4"),
        ("objcio_core-data__Moody_5.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Moody 5"),
    ]

    @Test("entity hashes equal NSStoreModelVersionHashes in every fixture store",
          arguments: 0..<8)
    func storeOracle(_ index: Int) throws {
        let (store, bundleName, version) = Self.stores[index]
        let expected = try Fixtures.storeVersionHashes(store)
        let model = try ModelBundle.open(Fixtures.model(bundleName)).model(forVersion: version)
        let ours = model.entityVersionHashesByName
        #expect(Set(ours.keys) == Set(expected.keys), "entities of \(store)")
        for (entity, hash) in expected {
            #expect(ours[entity].map(Fixtures.hex) == Fixtures.hex(hash), "\(store): \(entity)")
        }
        let metadata = try Fixtures.storeMetadata(store)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    /// The store whose model was built in code: no model file describes it, so it is
    /// covered by ``codeBuiltModelStore()`` instead of the hash oracle.
    static let codeBuiltStore = "alemar11_CoreDataPlus__SampleModel2_V2.sqlite"

    @Test("every fixture store directory entry is covered by the store oracle test or the code-built-model store test")
    func allStoresCovered() throws {
        #expect(try Fixtures.storeNames() == Set(Self.stores.map(\.store) + [Self.codeBuiltStore]))
    }

    @Test("no test opens a fixture store in place: nothing beside the stores but the stores")
    func fixtureStoresUntouched() throws {
        #expect(try Fixtures.storeCompanions() == [])
    }

    @Test("a store whose model was built in code: its metadata read through the coordinator, its persistent history counted")
    func codeBuiltModelStore() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore(Self.codeBuiltStore, to: folder)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        let raw = try RawDatabase(url)
        let uuid = try #require(try raw.scalar("SELECT Z_UUID FROM Z_METADATA") as? String)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        let hashes = try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        #expect(hashes == (try Fixtures.storeVersionHashes(Self.codeBuiltStore)))
        #expect(Set(hashes.keys) == ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])
        #expect(hashes.values.allSatisfy { $0.count == 32 })

        // Persistent history (Z_ENT 16001 ACHANGE, 16002 ATRANSACTION, 16003
        // ATRANSACTIONSTRING), read through our SQLite connection: one transaction that
        // inserted every row of the store.
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        func integer(_ sql: String) throws -> Int? { try connection.scalarString(sql).flatMap { Int($0) } }
        #expect(try integer("SELECT COUNT(*) FROM ATRANSACTION") == 1)
        #expect(try integer("SELECT COUNT(*) FROM ACHANGE") == 126)
        #expect(try integer("SELECT COUNT(*) FROM ATRANSACTIONSTRING") == 2)
        #expect(try integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001 AND Z_NAME = 'CHANGE'") == 126)
        #expect(try integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002 AND Z_NAME = 'TRANSACTION'") == 1)
        #expect(try integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16003 AND Z_NAME = 'TRANSACTIONSTRING'") == 2)
        #expect(try integer("SELECT COUNT(*) FROM ACHANGE WHERE ZCHANGETYPE != 0 OR ZTRANSACTIONID != 1") == 0)
        let rows = "(SELECT Z_ENT, Z_PK FROM ZBOOK UNION ALL SELECT Z_ENT, Z_PK FROM ZPAGE"
            + " UNION ALL SELECT Z_ENT, Z_PK FROM ZWRITER UNION ALL SELECT Z_ENT, Z_PK FROM ZFEEDBACK)"
        #expect(try integer("SELECT COUNT(*) FROM \(rows)") == 126)
        #expect(try integer("SELECT COUNT(DISTINCT ZENTITY || '/' || ZENTITYPK) FROM ACHANGE") == 126)
        #expect(try integer("""
            SELECT COUNT(*) FROM ACHANGE c
            WHERE NOT EXISTS (SELECT 1 FROM \(rows) r WHERE r.Z_ENT = c.ZENTITY AND r.Z_PK = c.ZENTITYPK)
            """) == 0)
    }

    @Test("a store written with another version is not compatible")
    func otherVersionIncompatible() throws {
        let metadata = try Fixtures.storeMetadata("alemar11_CoreDataPlus__SampleModel_V1.sqlite")
        let v2 = try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
            .model(forVersion: "SampleModel2")
        #expect(!v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("mergedModel(from:forStoreMetadata:) picks the version a store was written with")
    func mergedForMetadata() throws {
        let metadata = try Fixtures.storeMetadata("objcio_core-data__Moody_3.moody.sqlite")
        let bundleURL = try Fixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld")
        let bundle = try #require(Bundle(path: bundleURL.deletingLastPathComponent().path))
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
        #expect(model.versionIdentifiers == ["3"])
    }

    @Test("hashes ignore class names, user info, defaults and validation but not optionality or modifiers")
    func hashInputs() throws {
        func entity(_ configure: (NSEntityDescription, NSAttributeDescription) -> Void) -> Data {
            let entity = NSEntityDescription()
            entity.name = "Item"
            let attribute = NSAttributeDescription()
            attribute.name = "title"
            attribute.attributeType = .stringAttributeType
            configure(entity, attribute)
            entity.properties = [attribute]
            return entity.versionHash
        }
        let base = entity { _, _ in }
        #expect(base.count == 32)
        #expect(entity { e, _ in e.managedObjectClassName = "Module.Item" } == base)
        #expect(entity { e, a in e.userInfo = ["k": "v"]; a.userInfo = ["k": "v"] } == base)
        #expect(entity { _, a in a.defaultValue = "x"; a.maximumValue = 3 } == base)
        #expect(entity { _, a in a.renamingIdentifier = "oldTitle" } == base)
        #expect(entity { _, a in a.isOptional = false } != base)
        #expect(entity { _, a in a.versionHashModifier = "2" } != base)
        #expect(entity { e, _ in e.versionHashModifier = "2" } != base)
        #expect(entity { e, _ in e.isAbstract = true } != base)
        #expect(entity { _, a in a.attributeType = .integer16AttributeType } != base)
        let empty = NSEntityDescription()
        empty.name = "Item"
        #expect(entity { _, a in a.isTransient = true } == empty.versionHash)
    }
}
