import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Stores written by Apple's Core Data, opened (as copies) with models mirroring their
/// XML: every row read back must equal what raw SQLite holds, converted.
@Suite struct SQLiteFixtureStoreTests {
    /// What a raw column value must read back as, by the field's kind.
    static func expected(_ raw: Any?, _ kind: SQLiteStoreBackend.Field.Kind, entityColumn: Any?) -> Value? {
        guard let raw else { return .null }
        switch kind {
        case let .toOne(destination, _, _):
            let ent = (entityColumn as? Int64).map(Int.init) ?? destination.runtime.entityID
            return .ref(raw as! Int64, ent)
        case let .value(kind):
            switch kind {
            case .integer: return .int((raw as? Int64) ?? Int64(raw as! Double))
            case .boolean: return .bool(((raw as? Int64) ?? 0) != 0)
            case .double: return .double((raw as? Double) ?? Double(raw as! Int64))
            case .date: return .date((raw as? Double) ?? Double(raw as! Int64))
            case .text: return .text(raw as! String)
            case .uuid:
                let data = raw as! Data
                return .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
            case .blob: return .blob(raw as! Data)
            case .externalBlob:
                // Apple's marker byte (0x01) in front of a value kept in the row.
                let data = raw as! Data
                return .blob(data.first == 1 ? data.dropFirst() : data)
            case .decimal: return nil
            }
        }
    }

    /// Compares every row of every entity table of `url` with the backend's rows.
    func compareAllRows(_ url: URL, _ model: NSManagedObjectModel) throws -> Int {
        let backend = try openBackend(url, model)
        defer { backend.close() }
        let db = try RawDatabase(url)
        var compared = 0
        for table in backend.schema.tables {
            let rows = try backend.fetch(FetchPlan(entity: table.root))
            let raw = try db.rows("SELECT * FROM \(table.name) ORDER BY Z_PK")
            let names = try db.rows("PRAGMA table_info(\(table.name))").map { $0[1] as! String }
            #expect(rows.count == raw.count, "\(table.name)")
            for (row, values) in zip(rows, raw) {
                let column = Dictionary(uniqueKeysWithValues: zip(names, values))
                #expect(row.pk == column["Z_PK"]! as? Int64)
                #expect(row.version == column["Z_OPT"]! as? Int64)
                #expect(Int64(row.entity.runtime.entityID) == column["Z_ENT"]! as? Int64)
                let plan = backend.plans[row.entity.runtime.entityID]!
                for field in plan.fields {
                    var entityColumn: Any?
                    if case let .toOne(_, name?, _) = field.kind { entityColumn = column[name] ?? nil }
                    guard let want = Self.expected(column[field.column] ?? nil, field.kind, entityColumn: entityColumn) else { continue }
                    let key = row.entity.runtime.slotProperties[Int(field.slot)].name
                    #expect(get(row, key) == want, "\(table.name) p\(row.pk).\(key)")
                }
                compared += 1
            }
        }
        return compared
    }

    @Test("CoreDataPlus SampleModel_V1 (3-level Car hierarchy, UUIDs) reads back exactly")
    func sampleModel() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let model = try Models.sampleModelV1()
        #expect(try compareAllRows(url, model) == 145)

        let backend = try openBackend(url, model)
        #expect(backend.metadata[NSStoreUUIDKey] as? String == "753753D3-A961-4901-AB05-8CC48B1D3853")
        #expect((backend.metadata[NSStoreModelVersionHashesKey] as? [String: Data])?["Car"]?.count == 32)
        let car = model.entitiesByName["Car"]!, sport = model.entitiesByName["SportCar"]!
        let expensive = model.entitiesByName["ExpensiveSportCar"]!
        #expect(try backend.count(FetchPlan(entity: car)) == 125)
        #expect(try backend.count(FetchPlan(entity: sport)) == 10)
        #expect(try backend.count(FetchPlan(entity: sport, includesSubentities: false)) == 5)
        #expect(try backend.count(FetchPlan(entity: expensive)) == 5)

        let db = try RawDatabase(url)
        let person = model.entitiesByName["Person"]!
        let cars = person.relationshipsByName["cars"]!
        for pk in try db.rows("SELECT Z_PK FROM ZPERSON").map({ $0[0] as! Int64 }) {
            let want = try db.rows("SELECT Z_ENT, Z_PK FROM ZCAR WHERE ZOWNER = \(pk) ORDER BY Z_PK")
                .map { StoreKey(entityID: Int($0[0] as! Int64), pk: $0[1] as! Int64) }
            #expect(try backend.relatedKeys(relationship: cars, pk: pk) == want)
        }
        #expect(try backend.allocateKeys(entity: expensive, count: 1) == 126)
    }

    @Test("objcio Moody (abstract GeographicRegion, doubles, transformables) reads back exactly")
    func moody() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("objcio_core-data__Moody.moody.sqlite", to: folder)
        let model = try Models.moody()
        #expect(try compareAllRows(url, model) > 0)

        let backend = try openBackend(url, model)
        let db = try RawDatabase(url)
        let moods = model.entitiesByName["Country"]!.relationshipsByName["moods"]!
        let countries = model.entitiesByName["Continent"]!.relationshipsByName["countries"]!
        for pk in try db.rows("SELECT Z_PK FROM ZGEOGRAPHICREGION").map({ $0[0] as! Int64 }) {
            let wantMoods = try db.rows("SELECT Z_PK FROM ZMOOD WHERE ZCOUNTRY = \(pk) ORDER BY Z_PK").map { $0[0] as! Int64 }
            #expect(try backend.relatedKeys(relationship: moods, pk: pk).map(\.pk) == wantMoods)
            let wantCountries = try db.rows("SELECT Z_PK FROM ZGEOGRAPHICREGION WHERE ZCONTINENT = \(pk) ORDER BY Z_PK").map { $0[0] as! Int64 }
            #expect(try backend.relatedKeys(relationship: countries, pk: pk).map(\.pk) == wantCountries)
        }
    }

    @Test("an Apple store accepts our writes and keeps Apple's Z_OPT and Z_MAX rules")
    func writeIntoAppleStore() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let model = try Models.sampleModelV1()
        let backend = try openBackend(url, model)
        let expensive = model.entitiesByName["ExpensiveSportCar"]!
        let pk = try backend.allocateKeys(entity: expensive, count: 1)
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(expensive, pk: pk, [
            "numberPlate": .text("OCD-1"), "maker": .text("Open"), "isLimitedEdition": .bool(true),
            "owner": .ref(1, 4),
        ]))]
        let existing = try #require(try backend.row(entity: expensive, pk: 1))
        changes.updates = [update(makeRow(existing.entity, pk: 1, version: 2, ["maker": .text("Fiat")]), changed: ["maker"], expected: existing.version)]
        try backend.save(changes)
        backend.close()

        let db = try RawDatabase(url)
        let row = try db.rows("SELECT Z_ENT, Z_OPT, ZNUMBERPLATE, ZISLIMITEDEDITION, ZOWNER FROM ZCAR WHERE Z_PK = \(pk)")[0]
        #expect(row[0] as? Int64 == 3 && row[1] as? Int64 == 1 && row[2] as? String == "OCD-1")
        #expect(row[3] as? Int64 == 1 && row[4] as? Int64 == 1)
        #expect(try db.scalar("SELECT Z_OPT FROM ZCAR WHERE Z_PK = 1") as? Int64 == existing.version + 1)
        #expect(try db.scalar("SELECT ZMAKER FROM ZCAR WHERE Z_PK = 1") as? String == "Fiat")
        #expect(try db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") as? Int64 == 126)
        // The uniqueness constraint is Apple's UNIQUE index: a duplicate plate is refused.
        let again = try openBackend(url, model)
        var duplicate = StoreChanges()
        duplicate.inserts = [insert(makeRow(expensive, pk: 500, ["numberPlate": .text("OCD-1")]))]
        let error = #expect(throws: NSError.self) { try again.save(duplicate) }
        #expect(error?.code == NSManagedObjectConstraintMergeError)
    }
}
