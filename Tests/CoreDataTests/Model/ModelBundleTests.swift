import Foundation
import Testing
@_spi(Tools) @testable import CoreData

@Suite("Model bundle version resolution")
struct ModelBundleTests {
    private func makeBundle(_ versions: [String], current: String?? = .none) throws -> (folder: URL, bundle: URL) {
        let folder = try ModelFixtures.temporaryDirectory()
        let bundle = folder.appendingPathComponent("Shop.xcdatamodeld")
        for (index, version) in versions.enumerated() {
            try ModelFixtures.writeVersion(version, in: bundle, contents: ModelFixtures.modelXML(entities: ["E\(index)"], identifier: version))
        }
        if case .some(let name) = current { try ModelFixtures.writeCurrentVersion(name, in: bundle) }
        return (folder, bundle)
    }

    @Test(".xccurrentversion picks the current version even when it is not the newest")
    func currentVersionFile() throws {
        let plus = try ModelBundle.open(ModelFixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        #expect(plus.currentVersionName == "SampleModel")
        #expect(plus.versionNames == ["SampleModel", "SampleModel2", "SampleModel3"])
        let (folder, bundle) = try makeBundle(["Shop", "Shop 2", "Shop 3"], current: "Shop 2.xcdatamodel")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(NSManagedObjectModel(contentsOf: bundle)?.versionIdentifiers == ["Shop 2"])
    }

    @Test("a single version without .xccurrentversion is current")
    func singleVersionNoFile() throws {
        let (folder, bundle) = try makeBundle(["Only"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try ModelBundle.open(bundle).currentVersionName == "Only")
        #expect(try NSManagedObjectModel.load(contentsOf: bundle).entitiesByName["E0"] != nil)
    }

    @Test("an empty .xccurrentversion dict with one version uses it")
    func emptyDictOneVersion() throws {
        let (folder, bundle) = try makeBundle(["Only"], current: .some(nil))
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try ModelBundle.open(bundle).currentVersionName == "Only")
    }

    @Test("several versions and no current one: the last in numeric-aware name order")
    func noCurrentManyVersions() throws {
        let (folder, bundle) = try makeBundle(["Shop 9", "Shop 10", "Shop"], current: .some(nil))
        defer { try? FileManager.default.removeItem(at: folder) }
        let opened = try ModelBundle.open(bundle)
        #expect(opened.versionNames == ["Shop", "Shop 9", "Shop 10"])
        #expect(opened.currentVersionName == "Shop 10")
        let evolution = try ModelBundle.open(ModelFixtures.model("JohnEstropia_CoreStore__Advanced.EvolutionDemo.xcdatamodeld"))
        #expect(evolution.currentVersionName == "Advanced.EvolutionDemo.V2")
    }

    @Test(".xccurrentversion naming a missing version is an error naming it")
    func currentVersionMissing() throws {
        let (folder, bundle) = try makeBundle(["Shop"], current: "Gone.xcdatamodel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: bundle) }
        #expect(error.localizedDescription.contains("Gone"))
        #expect(NSManagedObjectModel(contentsOf: bundle) == nil)
    }

    @Test("all versions are reachable, and a version folder inside a bundle keeps its siblings")
    func allVersions() throws {
        let moody = try ModelFixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld")
        let bundle = try ModelBundle.open(moody)
        #expect(bundle.versionNames == ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"])
        #expect(bundle.currentVersionName == "Moody 6")
        let models = try bundle.allModels()
        #expect(models.map { $0.model.versionIdentifiers } == (1...6).map { ["\($0)"] as Set<AnyHashable> })
        let (inner, version) = try ModelBundle.resolve(moody.appendingPathComponent("Moody 3.xcdatamodel"))
        #expect(version == "Moody 3" && inner.versionNames.count == 6)
        #expect(try NSManagedObjectModel.load(contentsOf: moody.appendingPathComponent("Moody 3.xcdatamodel")).versionIdentifiers == ["3"])
    }

    @Test("a .momd URL that does not exist finds the .xcdatamodeld of the same name beside it")
    func momdFallback() throws {
        let (folder, bundle) = try makeBundle(["Shop", "Shop 2"], current: "Shop.xcdatamodel")
        defer { try? FileManager.default.removeItem(at: folder) }
        let momd = folder.appendingPathComponent("Shop.momd")
        #expect(NSManagedObjectModel(contentsOf: momd)?.versionIdentifiers == ["Shop"])
        let mom = momd.appendingPathComponent("Shop 2.mom")
        #expect(try NSManagedObjectModel.load(contentsOf: mom).versionIdentifiers == ["Shop 2"])
        let single = folder.appendingPathComponent("Lone.xcdatamodel")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        try Data(ModelFixtures.modelXML(entities: ["L"]).utf8).write(to: single.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("Lone.mom")).entitiesByName["L"] != nil)
        _ = bundle
    }

    @Test("a .momd URL with nothing beside it names the places it looked")
    func momdNothingBeside() throws {
        let folder = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: NSError.self) {
            try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("Nope.momd"))
        }
        #expect(error.domain == NSCocoaErrorDomain && error.code == 260)
        #expect(error.localizedDescription.contains("Nope.xcdatamodeld"))
        #expect(error.localizedDescription.contains("Nope.xcdatamodel"))
    }

    @Test("a bare .xcdatamodel folder is a one-version bundle")
    func bareVersionFolder() throws {
        let url = try ModelFixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel")
        let bundle = try ModelBundle.open(url)
        #expect(bundle.versionNames == [bundle.currentVersionName])
        #expect(NSManagedObjectModel(contentsOf: url)?.entities.isEmpty == false)
    }

    @Test("mergedModel(from:) and init(byMerging:) combine models; duplicate entities give nil")
    func merging() throws {
        let folder = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try ModelFixtures.writeVersion("A", in: folder, contents: ModelFixtures.modelXML(entities: ["Apple"]))
        try ModelFixtures.writeVersion("B", in: folder, contents: ModelFixtures.modelXML(entities: ["Banana"]))
        let bundle = try #require(Bundle(path: folder.path))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(Set(merged.entitiesByName.keys) == ["Apple", "Banana"])
        let a = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("A.xcdatamodel"))
        let again = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("A.xcdatamodel"))
        #expect(NSManagedObjectModel(byMerging: [a, again]) == nil)
    }
}
