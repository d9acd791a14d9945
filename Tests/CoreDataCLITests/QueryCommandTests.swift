import CoreDataTestSupport
import Foundation
import Testing

/// `coredata query`, run as the built program on Apple-written stores.
@Suite struct QueryCommandTests {
    static let model = "alemar11_CoreDataPlus__SampleModel.xcdatamodeld"
    static let storeV1 = "alemar11_CoreDataPlus__SampleModel_V1.sqlite"
    static let storeV2 = "alemar11_CoreDataPlus__SampleModel_V2.sqlite"

    static func query(_ arguments: [String], wrapper: [String] = []) throws -> Programs.Run {
        try Programs.run(Programs.coredata(), ["query"] + arguments, wrapper: wrapper)
    }

    /// The first column of a table's rows (after the header and rule, before the count).
    static func cells(_ output: String, column: Int) -> [String] {
        output.split(separator: "\n").dropFirst(2).dropLast()
            .map { $0.split(separator: "|")[column].trimmingCharacters(in: .whitespaces) }
    }

    @Test("filters, sorts and limits an Apple-written store, printed as a table, leaving the file untouched")
    func table() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let before = try Data(contentsOf: store)
        let run = try Self.query([store.path, "--model", Fixtures.model(Self.model).path,
                                  "--entity", "Person", "--where", "cars.@count >= 2",
                                  "--sort", "-firstName", "--limit", "3"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("| firstName |") == true, "\(run.output)")
        #expect(Self.cells(run.output, column: 1) == ["Wardell", "Theodora", "Ross"])
        #expect(lines.last == "(3 rows)")
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("prints JSON with every attribute and to-one, NULLs as null")
    func json() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder)
        let run = try Self.query([store.path, "--model", Fixtures.model(Self.model).path,
                                  "--entity", "Car", "--where", "owner.firstName ==[c] 'THEODORA'",
                                  "--sort", "numberPlate", "--limit=2", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.first?["maker"] as? String == "FIAT")
        #expect(rows.first?["color"] is NSNull)
        #expect((rows.first?["owner"] as? String)?.hasPrefix("Person/p") == true)
        #expect((rows.first?["objectID"] as? String)?.hasPrefix("x-coredata://") == true)
    }

    @Test("picks the model version the store's metadata names", arguments: [
        (storeV1, model, "Person"),
        (storeV2, model, "Person"),
        ("objcio_core-data__Moody_4.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
        ("objcio_core-data__Moody.moody.sqlite", "objcio_core-data__Migrations_Moody.xcdatamodeld", "Mood"),
    ])
    func versions(_ name: String, _ model: String, _ entity: String) throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(name, to: folder)
        let run = try Self.query([store.path, "--model", Fixtures.model(model).path, "--entity", entity])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasSuffix("rows)\n"), "\(run.output)")
        #expect(!run.output.contains("(0 rows)"))
    }

    @Test("bad arguments exit 2 with the usage; bad predicates, entities, keys and files exit 1 saying what is wrong")
    func errors() throws {
        let folder = try TemporaryDirectory()
        let store = try Fixtures.copyStore(Self.storeV1, to: folder).path
        let model = try Fixtures.model(Self.model).path

        let missingModel = try Self.query([store, "--entity", "Car"])
        #expect(missingModel.status == 2)
        #expect(missingModel.errors.contains("missing --model"))
        #expect(missingModel.errors.contains("usage: coredata query"))
        let badLimit = try Self.query([store, "--model", model, "--entity", "Car", "--limit", "many"])
        #expect(badLimit.status == 2)
        #expect(badLimit.errors.contains("'many'"))

        let parse = try Self.query([store, "--model", model, "--entity", "Car", "--where", "maker == "])
        #expect(parse.status == 1)
        #expect(parse.errors.contains("maker =="), "\(parse.errors)")
        let entity = try Self.query([store, "--model", model, "--entity", "Plane"])
        #expect(entity.status == 1)
        #expect(entity.errors.contains("Plane"))
        let key = try Self.query([store, "--model", model, "--entity", "Car", "--where", "wings > 2"])
        #expect(key.status == 1)
        #expect(key.errors.contains("wings"))
        let missing = folder.file("Missing.sqlite").path
        let noStore = try Self.query([missing, "--model", model, "--entity", "Car"])
        #expect(noStore.status == 1)
        #expect(noStore.errors.contains(missing))
        for run in [parse, entity, key, noStore] {
            #expect(!run.errors.contains("Error Domain="), "\(run.errors)")
        }
    }
}
