import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model bundle version resolution")
struct ModelBundleTests {
    /// Writes `Shop.xcdatamodeld` with `versions` into `folder`.
    private func makeBundle(in folder: TemporaryDirectory, _ versions: [String], current: String?? = .none) throws -> URL {
        let bundle = folder.file("Shop.xcdatamodeld")
        for (index, version) in versions.enumerated() {
            try ModelFiles.writeVersion(version, in: bundle, contents: ModelFiles.modelXML(entities: ["E\(index)"], identifier: version))
        }
        if case .some(let name) = current { try ModelFiles.writeCurrentVersion(name, in: bundle) }
        return bundle
    }

    @Test(".xccurrentversion picks the current version even when it is not the newest")
    func currentVersionFile() throws {
        let plus = try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        #expect(plus.currentVersionName == "SampleModel")
        #expect(plus.versionNames == ["SampleModel", "SampleModel2", "SampleModel3"])
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Shop", "Shop 2", "Shop 3"], current: "Shop 2.xcdatamodel")
        #expect(NSManagedObjectModel(contentsOf: bundle)?.versionIdentifiers == ["Shop 2"])
    }

    @Test("a single version without .xccurrentversion is current")
    func singleVersionNoFile() throws {
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Only"])
        #expect(try ModelBundle.open(bundle).currentVersionName == "Only")
        #expect(try NSManagedObjectModel.load(contentsOf: bundle).entitiesByName["E0"] != nil)
    }

    @Test("an empty .xccurrentversion dict with one version uses it")
    func emptyDictOneVersion() throws {
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Only"], current: .some(nil))
        #expect(try ModelBundle.open(bundle).currentVersionName == "Only")
    }

    @Test("several versions and no current one: the last in numeric-aware name order")
    func noCurrentManyVersions() throws {
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Shop 9", "Shop 10", "Shop"], current: .some(nil))
        let opened = try ModelBundle.open(bundle)
        #expect(opened.versionNames == ["Shop", "Shop 9", "Shop 10"])
        #expect(opened.currentVersionName == "Shop 10")
        let evolution = try ModelBundle.open(Fixtures.model("JohnEstropia_CoreStore__Advanced.EvolutionDemo.xcdatamodeld"))
        #expect(evolution.currentVersionName == "Advanced.EvolutionDemo.V2")
    }

    @Test(".xccurrentversion naming a missing version is an error naming it")
    func currentVersionMissing() throws {
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Shop"], current: "Gone.xcdatamodel")
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: bundle) }
        #expect(error.localizedDescription.contains("Gone"))
        #expect(NSManagedObjectModel(contentsOf: bundle) == nil)
    }

    @Test("all versions are reachable, and a version folder inside a bundle keeps its siblings")
    func allVersions() throws {
        let moody = try Fixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld")
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
        let folder = try TemporaryDirectory()
        let bundle = try makeBundle(in: folder, ["Shop", "Shop 2"], current: "Shop.xcdatamodel")
        let momd = folder.file("Shop.momd")
        #expect(NSManagedObjectModel(contentsOf: momd)?.versionIdentifiers == ["Shop"])
        let mom = momd.appendingPathComponent("Shop 2.mom")
        #expect(try NSManagedObjectModel.load(contentsOf: mom).versionIdentifiers == ["Shop 2"])
        let single = folder.file("Lone.xcdatamodel")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        try Data(ModelFiles.modelXML(entities: ["L"]).utf8).write(to: single.appendingPathComponent("contents"))
        #expect(try NSManagedObjectModel.load(contentsOf: folder.file("Lone.mom")).entitiesByName["L"] != nil)
        _ = bundle
    }

    @Test("a .momd URL with nothing beside it names the places it looked")
    func momdNothingBeside() throws {
        let temporary = try TemporaryDirectory()
        let folder = temporary.url
        let error = try #require(throws: NSError.self) {
            try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("Nope.momd"))
        }
        #expect(error.domain == NSCocoaErrorDomain && error.code == 260)
        #expect(error.localizedDescription.contains("Nope.xcdatamodeld"))
        #expect(error.localizedDescription.contains("Nope.xcdatamodel"))
    }

    @Test("a bare .xcdatamodel folder is a one-version bundle")
    func bareVersionFolder() throws {
        let url = try Fixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel")
        let bundle = try ModelBundle.open(url)
        #expect(bundle.versionNames == [bundle.currentVersionName])
        #expect(NSManagedObjectModel(contentsOf: url)?.entities.isEmpty == false)
    }

    @Test("mergedModel(from:) and init(byMerging:) combine models; duplicate entities give nil")
    func merging() throws {
        let temporary = try TemporaryDirectory()
        let folder = temporary.url
        try ModelFiles.writeVersion("A", in: folder, contents: ModelFiles.modelXML(entities: ["Apple"]))
        try ModelFiles.writeVersion("B", in: folder, contents: ModelFiles.modelXML(entities: ["Banana"]))
        let bundle = try #require(Bundle(path: folder.path))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(Set(merged.entitiesByName.keys) == ["Apple", "Banana"])
        let a = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("A.xcdatamodel"))
        let again = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("A.xcdatamodel"))
        #expect(NSManagedObjectModel(byMerging: [a, again]) == nil)
    }
}
