import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model version hashes")
struct ModelVersionHashTests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

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

    @Test("every fixture store directory entry is covered by the store oracle test")
    func allStoresCovered() throws {
        #expect(try Fixtures.storeNames() == Set(Self.stores.map(\.store)))
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
