import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// A lightweight migration that can't be inferred says every reason in its error, with the
// report `coredata migrate --dry-run` prints.

@Suite("Migration diagnostics")
struct MigrationDiagnosticsTests {
    @Test("134190 lists every entity and property inference refuses, and carries the dry run's report")
    func inferenceProblems() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Notes.sqlite")
        let v1 = NSManagedObjectModel()
        v1.entities = [entity("Note", [attribute("title", .stringAttributeType), attribute("pages", .integer16AttributeType)])]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: url))
        let before = try Data(contentsOf: url)

        let v2 = NSManagedObjectModel()
        v2.entities = [entity("Note", [attribute("title", .dateAttributeType), attribute("pages", .integer16AttributeType),
                                       attribute("body", .stringAttributeType, optional: false)])]
        let error = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator(managedObjectModel: v2).addPersistentStore(
                type: .sqlite, at: url,
                options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
        }
        #expect(error.code == NSInferredMappingModelError)
        let problems = try #require(error.userInfo["problems"] as? [String])
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("Note.title") && $0.contains("from String to Date") })
        #expect(problems.contains { $0.contains("Note.body") && $0.contains("new non-optional attribute") })
        let report = try #require(error.userInfo["migrationReport"] as? String)
        #expect(report.contains("  Note  changed"))
        #expect(report.contains("Problems:"))
        #expect(try Data(contentsOf: url) == before)
    }
}
