import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model locator search order")
struct ModelLocatorTests {
    @Test("the first location holding the model wins; .xcdatamodeld before .xcdatamodel")
    func searchOrder() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        let main = root.appendingPathComponent("main"), resources = root.appendingPathComponent("pkg.resources")
        let cwd = root.appendingPathComponent("cwd")
        try ModelFiles.writeVersion("Shop", in: resources.appendingPathComponent("Shop.xcdatamodeld"),
                                       contents: ModelFiles.modelXML(entities: ["FromResources"]))
        try ModelFiles.writeVersion("Shop", in: cwd, contents: ModelFiles.modelXML(entities: ["FromCwd"]))
        try FileManager.default.createDirectory(at: main, withIntermediateDirectories: true)
        let locations = [
            ModelLocator.Location(label: "Bundle.main resources", directory: main),
            ModelLocator.Location(label: "SwiftPM resource bundle pkg.resources", directory: resources),
            ModelLocator.Location(label: "working directory", directory: cwd),
        ]
        #expect(try ModelLocator.model(named: "Shop", searching: locations).entitiesByName["FromResources"] != nil)
        #expect(try ModelLocator.model(named: "Shop", searching: [locations[2], locations[1]]).entitiesByName["FromCwd"] != nil)
        try ModelFiles.writeVersion("Shop", in: cwd.appendingPathComponent("Shop.xcdatamodeld"),
                                       contents: ModelFiles.modelXML(entities: ["BundleInCwd"]))
        #expect(try ModelLocator.model(named: "Shop", searching: [locations[2]]).entitiesByName["BundleInCwd"] != nil)
    }

    @Test("the error names the model and every place searched, in order")
    func notFound() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        let locations = [
            ModelLocator.Location(label: "Bundle.main resources", directory: root.appendingPathComponent("a")),
            ModelLocator.Location(label: "working directory", directory: root.appendingPathComponent("b")),
        ]
        let error = try #require(throws: NSError.self) { try ModelLocator.model(named: "Missing", searching: locations) }
        let text = error.localizedDescription
        #expect(error.domain == NSCocoaErrorDomain && error.code == 260)
        #expect(text.contains("Missing.xcdatamodeld") && text.contains("Missing.xcdatamodel"))
        let first = try #require(text.range(of: "Bundle.main resources (\(root.path)/a)"))
        let second = try #require(text.range(of: "working directory (\(root.path)/b)"))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test("default locations: Bundle.main, then *.resources folders, then the working directory")
    func defaultLocations() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Pkg_Target.resources"), withIntermediateDirectories: true)
        let bundle = try #require(Bundle(path: root.path))
        let cwd = root.appendingPathComponent("work")
        let locations = ModelLocator.defaultLocations(bundle: bundle, workingDirectory: cwd)
        #expect(locations.first?.label.hasPrefix("Bundle.main") == true)
        let labels = locations.map(\.label)
        let resourcesIndex = try #require(labels.firstIndex { $0.contains("Pkg_Target.resources") })
        #expect(labels.last == "working directory")
        #expect(resourcesIndex > 0 && resourcesIndex < labels.count - 1)
        #expect(Set(locations.map(\.directory.path)).count == locations.count)
    }

    @Test("models(in:) loads every model of a bundle, including SwiftPM resource bundles")
    func modelsInBundles() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.url
        try ModelFiles.writeVersion("Top", in: root, contents: ModelFiles.modelXML(entities: ["Top"]))
        try ModelFiles.writeVersion("V1", in: root.appendingPathComponent("X.resources/Inner.xcdatamodeld"),
                                       contents: ModelFiles.modelXML(entities: ["Inner"]))
        let bundle = try #require(Bundle(path: root.path))
        let names = ModelLocator.models(in: [bundle]).flatMap { $0.entities.compactMap(\.name) }
        #expect(Set(names) == ["Top", "Inner"])
    }
}
