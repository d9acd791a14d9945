import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

/// `coredata query` (issue 5, item 8), run through `StoreQuery` on Apple-written stores.
@Suite struct StoreQueryTests {
    /// Each test's copies of the fixture stores: the query reads its store through SQLite,
    /// which writes `-wal`/`-shm` files beside a WAL store even to read it.
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    /// A fixture store copied into `folder`.
    func store(_ name: String) throws -> String { try Fixtures.copyStore(name, to: folder).path }

    static func model(_ name: String) throws -> String { try Fixtures.model(name).path }

    static func query(_ arguments: [String]) throws -> StoreQuery {
        try StoreQuery(arguments: arguments)
    }

    static func checksum(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("filters, sorts and limits an Apple-written store, printed as a table, leaving the file untouched")
    func table() throws {
        let path = try store("alemar11_CoreDataPlus__SampleModel_V1.sqlite")
        let before = try Self.checksum(path)
        let output = try Self.query([path, "--model", try Self.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"),
                                     "--entity", "Person", "--where", "cars.@count >= 2",
                                     "--sort", "-firstName", "--limit", "3"]).run()
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("| firstName |") == true, "\(output)")
        let names = lines.dropFirst(2).dropLast().map { $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces) }
        #expect(names == ["Wardell", "Theodora", "Ross"])
        #expect(lines.last == "(3 rows)")
        #expect(try Self.checksum(path) == before)
    }

    @Test("prints JSON with every attribute and to-one, NULLs as null")
    func json() throws {
        let output = try Self.query([try store("alemar11_CoreDataPlus__SampleModel_V1.sqlite"),
                                     "--model", try Self.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"),
                                     "--entity", "Car", "--where", "owner.firstName ==[c] 'THEODORA'",
                                     "--sort", "numberPlate", "--limit=2", "--json"]).run()
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["maker"] as? String == "FIAT")
        #expect(rows[0]["color"] is NSNull)
        #expect((rows[0]["owner"] as? String)?.hasPrefix("Person/p") == true)
        #expect((rows[0]["objectID"] as? String)?.hasPrefix("x-coredata://") == true)
    }

    @Test("picks the model version the store's metadata names", arguments: [
        ("alemar11_CoreDataPlus__SampleModel_V2.sqlite", "alemar11_CoreDataPlus__SampleModel.xcdatamodeld", "Person"),
        ("objcio_core-data__Moody_4.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
        ("objcio_core-data__Moody.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
    ])
    func versions(_ store: String, _ model: String, _ entity: String) throws {
        let output = try Self.query([try self.store(store), "--model", try Self.model(model), "--entity", entity]).run()
        #expect(output.hasSuffix("rows)"))
        #expect(!output.hasSuffix("(0 rows)"))
    }

    @Test("bad arguments, predicates and entities are errors that say what is wrong")
    func errors() throws {
        #expect(throws: StoreQuery.ArgumentError.self) { try Self.query(["a.sqlite", "--entity", "X"]) }
        #expect(throws: StoreQuery.ArgumentError.self) { try Self.query(["a.sqlite", "--model", "m", "--entity", "X", "--limit", "many"]) }
        let base = [try store("alemar11_CoreDataPlus__SampleModel_V1.sqlite"),
                    "--model", try Self.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld")]
        let parse = try #require(throws: NSError.self) { try Self.query(base + ["--entity", "Car", "--where", "maker == "]).run() }
        #expect(parse.domain == NSCocoaErrorDomain)
        let entity = try #require(throws: NSError.self) { try Self.query(base + ["--entity", "Plane"]).run() }
        #expect(entity.localizedDescription.contains("Plane"))
        let key = try #require(throws: NSError.self) { try Self.query(base + ["--entity", "Car", "--where", "wings > 2"]).run() }
        #expect(key.localizedDescription.contains("wings"))
    }
}
