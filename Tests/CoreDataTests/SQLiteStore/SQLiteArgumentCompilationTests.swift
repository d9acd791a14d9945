import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The argument kinds Apple code passes compile to SQL instead of falling back to a scan in
/// memory: object IDs (as the objects' primary keys), binary data (as blobs) and URIs (as
/// their absolute strings).
@Suite struct SQLiteArgumentCompilationTests {

    @Test("object IDs compile to their objects' primary keys, alone and in arrays and sets")
    func objectIDs() throws {
        let stack = try SQLiteQueryCompilationTests.populated()
        let context = stack.newContext()
        let teams = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team"))
        let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        let team = try #require(teams.first).objectID
        for (format, argument) in [
            ("team == %@", team as Any), ("team != %@", team), ("SELF IN %@", people.prefix(3).map(\.objectID)),
            ("team IN %@", Set(teams.map(\.objectID))), ("%@ IN clubs", team),
        ] {
            let sql = try SQLiteQueryCompilationTests.compiles(format, [argument], in: stack)
            #expect(sql != nil, "\(format) fell back to memory")
        }
        // A temporary ID names no row: it compiles to a constant, never to a scan.
        let unsaved = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
        #expect(try SQLiteQueryCompilationTests.compiles("team == %@", [unsaved.objectID], in: stack) != nil)
    }

    @Test("binary data and URIs compile to blob and text comparisons")
    func dataAndURIs() throws {
        let stack = try SQLiteQueryCompilationTests.populated()
        let url = URL(string: "https://example.com/")!
        for (format, argument) in [
            ("avatar == %@", Data([1, 2, 3]) as Any), ("avatar != %@", Data()), ("avatar IN %@", [Data([0])]),
            ("homepage == %@", url), ("homepage IN %@", Set([url])),
        ] {
            let sql = try SQLiteQueryCompilationTests.compiles(format, [argument], in: stack)
            #expect(sql != nil, "\(format) fell back to memory")
        }
    }
}
