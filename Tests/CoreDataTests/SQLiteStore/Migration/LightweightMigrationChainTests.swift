import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

// A store several model versions behind migrates in one loadPersistentStores: straight to
// the current version when that mapping can be inferred (as Apple infers it), else through
// the bundle's versions between them, one inferred step each, as one migration.

private final class VersionChainContainer: NSPersistentContainer, @unchecked Sendable {}

/// Writes `Notes.xcdatamodeld` with one version per body (`Notes`, `Notes 2`, …) into `folder`.
private func notesBundle(in folder: TemporaryDirectory, _ bodies: [String]) throws -> ModelBundle {
    let bundle = folder.file("Notes.xcdatamodeld")
    for (index, body) in bodies.enumerated() {
        let name = index == 0 ? "Notes" : "Notes \(index + 1)"
        let version = bundle.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n\(body)\n</model>\n"
        try xml.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
    }
    return try ModelBundle.open(bundle)
}

private func load(_ url: URL, _ model: NSManagedObjectModel) throws -> VersionChainContainer {
    let container = VersionChainContainer(name: "Notes", managedObjectModel: model)
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
    var failure: Error?
    container.loadPersistentStores { _, error in failure = error }
    if let failure { throw failure }
    return container
}

/// Saves notes named `names` (and body "b-<name>") with version 1.
private func writeNotes(_ names: [String], at url: URL, _ model: NSManagedObjectModel) throws {
    let container = try load(url, model)
    for name in names {
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext)
        note.setValue(name, forKey: "name")
        note.setValue("b-\(name)", forKey: "body")
    }
    try container.viewContext.save()
    for store in container.persistentStoreCoordinator.persistentStores { try container.persistentStoreCoordinator.remove(store) }
}

/// Each note's values for `keys`, as text, sorted.
private func notes(_ container: NSPersistentContainer, _ keys: [String]) throws -> [String] {
    try container.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).map { note in
        keys.map { "\($0)=\(note.value(forKey: $0).map { "\($0)" } ?? "nil")" }.joined(separator: ",")
    }.sorted()
}

/// A required name renamed twice (each version's renaming identifier is the previous
/// name), then a required attribute with a default added.
private let renamedTwice = [
    #"<entity name="Note"><attribute name="name" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
    #"<entity name="Note"><attribute name="title" attributeType="String" elementID="name"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
    #"<entity name="Note"><attribute name="heading" attributeType="String" elementID="title"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
    #"<entity name="Note"><attribute name="heading" attributeType="String" elementID="title"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="stars" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/></entity>"#,
]

@Suite struct LightweightMigrationChainTests {
    @Test("v1 → v4 in one load: a name renamed in v2 and again in v3 keeps every value")
    func chainThroughVersions() throws {
        let folder = try TemporaryDirectory()
        let bundle = try notesBundle(in: folder, renamedTwice)
        let url = folder.file("Notes.sqlite")
        try writeNotes(["n1", "n2", "n3"], at: url, try bundle.model(forVersion: "Notes"))
        // Straight from v1, v4's required `heading` has no source (its identifier is v2's name).
        #expect(throws: NSError.self) {
            _ = try NSMappingModel.inferredMappingModel(
                forSourceModel: try bundle.model(forVersion: "Notes"), destinationModel: try bundle.model(forVersion: "Notes 4"))
        }
        let container = try load(url, try bundle.model(forVersion: "Notes 4"))
        #expect(try notes(container, ["heading", "body", "stars"]) == [
            "heading=n1,body=b-n1,stars=0", "heading=n2,body=b-n2,stars=0", "heading=n3,body=b-n3,stars=0",
        ])
        // The store now says v4: it opens again without migrating, with the same rows.
        let hashes = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)[NSStoreModelVersionHashesKey]
        #expect(hashes as? [String: Data] == (try bundle.model(forVersion: "Notes 4")).entityVersionHashesByName)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("migration") }
        #expect(leftovers.isEmpty)
    }

    @Test("from v2 of the same bundle, the chain starts at v2")
    func chainFromTheMiddle() throws {
        let folder = try TemporaryDirectory()
        let bundle = try notesBundle(in: folder, renamedTwice)
        let url = folder.file("Notes.sqlite")
        try writeNotes(["n1"], at: url, try bundle.model(forVersion: "Notes"))
        _ = try load(url, try bundle.model(forVersion: "Notes 2"))
        let container = try load(url, try bundle.model(forVersion: "Notes 4"))
        #expect(try notes(container, ["heading", "stars"]) == ["heading=n1,stars=0"])
    }

    @Test("a mapping Apple infers straight from v1 to v3 is used as it is, not stepped through v2")
    func directWhenInferable() throws {
        let folder = try TemporaryDirectory()
        // v2 drops body and v3 brings it back: straight from v1 the values are kept.
        let bundle = try notesBundle(in: folder, [
            renamedTwice[0],
            #"<entity name="Note"><attribute name="name" attributeType="String"/></entity>"#,
            #"<entity name="Note"><attribute name="name" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="extra" optional="YES" attributeType="String"/></entity>"#,
        ])
        let url = folder.file("Notes.sqlite")
        try writeNotes(["n1"], at: url, try bundle.model(forVersion: "Notes"))
        let container = try load(url, try bundle.model(forVersion: "Notes 3"))
        #expect(try notes(container, ["name", "body"]) == ["name=n1,body=b-n1"])
    }

    @Test("when a step of the chain can't be inferred either, the direct mapping's error (134190) and the store byte for byte")
    func chainFails() throws {
        let folder = try TemporaryDirectory()
        var versions = Array(renamedTwice.prefix(3))
        // v3's heading is an Integer: no step from v2's String title can be inferred.
        versions[2] = #"<entity name="Note"><attribute name="heading" attributeType="Integer 32" elementID="title"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
        let bundle = try notesBundle(in: folder, versions)
        let url = folder.file("Notes.sqlite")
        try writeNotes(["n1"], at: url, try bundle.model(forVersion: "Notes"))
        let bytes = fileBytes(url)
        let error = #expect(throws: NSError.self) { _ = try load(url, try bundle.model(forVersion: "Notes 3")) }
        #expect(error?.code == NSInferredMappingModelError)
        #expect(error?.localizedDescription.contains("Note.heading") == true)
        #expect(fileBytes(url) == bytes)
    }
}
