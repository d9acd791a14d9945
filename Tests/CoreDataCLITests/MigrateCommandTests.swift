import CoreData
import CoreDataTestSupport
import Foundation
import Testing

/// `coredata migrate --dry-run`, run as the built program: on Apple's CoreDataPlus store and
/// the next version of its model, and on a store whose next model can't be inferred.
@Suite struct MigrateCommandTests {
    static func coredata(_ arguments: [String]) throws -> Programs.Run {
        try Programs.run(Programs.coredata(), arguments)
    }

    @Test("a dry run names the changed entities, the inferred mapping and the renamed entity, writing nothing")
    func appleStore() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let model = try Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld").path
        let before = try FolderState(folder.url)
        let run = try Self.coredata(["migrate", "--dry-run", store.path, "--model", model, "--version", "SampleModel2"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Mapping    inferred (lightweight, in SQL)"), "\(run.output)")
        #expect(run.output.contains("  ExpensiveSportCar  removed"), "\(run.output)")
        #expect(run.output.contains("  LuxuryCar  added"), "\(run.output)")
        #expect(run.output.contains("transform ExpensiveSportCar -> LuxuryCar"), "\(run.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.coredata(
            ["migrate", "--dry-run", store.path, "--model", model, "--version", "SampleModel2", "--json"]).output.utf8))
            as? [String: Any])
        #expect(json["needsMigration"] as? Bool == true)
        #expect((json["mapping"] as? [String: Any])?["kind"] as? String == "inferred")
        #expect(try FolderState(folder.url) == before)
        // The store's own version: nothing to migrate.
        let same = try Self.coredata(["migrate", "--dry-run", store.path, "--model", model, "--version", "SampleModel"])
        #expect(same.output.contains("Migration  none"), "\(same.output)")
    }

    @Test("a dry run lists every entity and property inference refuses, and exits 1")
    func inferenceFails() throws {
        let folder = try TemporaryDirectory()
        let bundle = folder.file("Notes.xcdatamodeld")
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" userDefinedModelVersionIdentifier=\"\">\n"
        try ModelFiles.writeVersion("V1", in: bundle, contents: head + """
                <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
            </model>
            """)
        try ModelFiles.writeVersion("V2", in: bundle, contents: head + """
                <entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 32"/>
                    <attribute name="body" attributeType="String"/></entity>
            </model>
            """)
        try ModelFiles.writeCurrentVersion("V2.xcdatamodel", in: bundle)
        let store = folder.file("Notes.sqlite")
        let v1 = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("V1.xcdatamodel")))
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: store))

        let run = try Self.coredata(["migrate", "--dry-run", store.path, "--model", bundle.path])
        #expect(run.status == 1)
        #expect(run.output.contains("Note.title: its type changed from String to Integer 32"), "\(run.output)")
        #expect(run.output.contains("Note.body: it is a new non-optional attribute without a default value"), "\(run.output)")
        let usage = try Self.coredata(["migrate", store.path, "--model", bundle.path])
        #expect(usage.status == 2)
    }
}
