import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Saving and reading rows through the backend: values, locking, hierarchies, sorts,
/// relationships.
@Suite struct SQLiteSaveFetchTests {
    let folder: TemporaryDirectory
    let model: NSManagedObjectModel
    let url: URL

    init() throws {
        folder = try TemporaryDirectory()
        model = Models.library()
        url = folder.file("Library.sqlite")
    }

    func entity(_ name: String) -> NSEntityDescription { model.entitiesByName[name]! }

    @Test("every attribute type round-trips and is stored as Core Data stores it")
    func valuesRoundTrip() throws {
        let backend = try openBackend(url, model)
        let item = entity("Item")
        let uuid = UUID()
        let values: [String: Value] = [
            "int16": .int(-7), "int32": .int(70_000), "int64": .int(1 << 40),
            "double": .double(2.5), "float": .double(0.25), "flag": .bool(true),
            "string": .text("héllo"), "date": .date(-86_400.5), "decimal": .text("10.11"),
            "binary": .blob(Data([0, 1, 2, 255])), "uuid": .uuid(uuid),
            "uri": .text("x-coredata://A/B/p1"), "transformable": .blob(Data()),
        ]
        let pk = try backend.allocateKeys(entity: item, count: 1)
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(item, pk: pk, values))]
        try backend.save(changes)

        let row = try #require(try backend.row(entity: item, pk: pk))
        #expect(row.version == 1)
        for (key, value) in values { #expect(get(row, key) == value, "\(key)") }
        #expect(get(row, "scratch") == .null)

        let db = try RawDatabase(url)
        let raw = try db.rows("SELECT typeof(ZFLAG), ZFLAG, typeof(ZDECIMAL), ZDECIMAL, typeof(ZDATE), ZDATE, typeof(ZUUID), ZUUID, Z_OPT, Z_ENT FROM ZITEM")[0]
        #expect(raw[0] as? String == "integer" && raw[1] as? Int64 == 1)
        #expect(raw[2] as? String == "real" && raw[3] as? Double == 10.11)
        #expect(raw[4] as? String == "real" && raw[5] as? Double == -86_400.5)
        #expect(raw[6] as? String == "blob" && raw[7] as? Data == withUnsafeBytes(of: uuid.uuid) { Data($0) })
        #expect(raw[8] as? Int64 == 1 && raw[9] as? Int64 == 3)
    }

    @Test("values real stores hold in other SQLite types are read by the model's type")
    func tolerantDecoding() throws {
        let backend = try openBackend(url, model)
        let raw = try RawDatabase(url, readOnly: false)
        try raw.execute("""
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZINT64, ZDOUBLE, ZDATE, ZDECIMAL, ZFLAG, ZSTRING, ZUUID)
            VALUES (1, 3, 1, 42.0, 3, 100, 3, 2.0, 12, '6BA7B810-9DAD-11D1-80B4-00C04FD430C8')
            """)
        let row = try #require(try backend.row(entity: entity("Item"), pk: 1))
        #expect(get(row, "int64") == .int(42))
        #expect(get(row, "double") == .double(3))
        #expect(get(row, "date") == .date(100))
        #expect(get(row, "decimal") == .text("3"))
        #expect(get(row, "flag") == .bool(true))
        #expect(get(row, "string") == .text("12"))
        #expect(get(row, "uuid") == .uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!))
        #expect(get(row, "binary") == .null)
        #expect(SQLiteStoreBackend.decimalString(0.00001) == "0.00001")
        #expect(SQLiteStoreBackend.decimalString(10.11) == "10.11")
    }

    @Test("allocateKeys reserves keys per inheritance root and records Z_MAX on the root row")
    func keys() throws {
        let backend = try openBackend(url, model)
        #expect(try backend.allocateKeys(entity: entity("TextMessage"), count: 3) == 1)
        #expect(try backend.allocateKeys(entity: entity("SystemMessage"), count: 2) == 4)
        #expect(try backend.allocateKeys(entity: entity("Author"), count: 1) == 1)
        let db = try RawDatabase(url)
        #expect(try db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 4") as? Int64 == 5)
        #expect(try db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 5") as? Int64 == 0)
        #expect(try db.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") as? Int64 == 1)
    }

    @Test("updates bump Z_OPT; a stale version throws StoreConflict and writes nothing")
    func optimisticLocking() throws {
        let backend = try openBackend(url, model)
        let author = entity("Author")
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(author, pk: 1, ["name": .text("Ann")])),
                           insert(makeRow(author, pk: 2, ["name": .text("Bob")]))]
        try backend.save(changes)

        var first = StoreChanges()
        first.updates = [update(makeRow(author, pk: 1, version: 2, ["name": .text("Anna")]), changed: ["name"], expected: 1)]
        try backend.save(first)
        #expect(try backend.row(entity: author, pk: 1)?.version == 2)

        // A save mixing a valid update of Bob with a stale update of Ann: nothing is written.
        let before = try RawDatabase(url).rows("SELECT Z_PK, Z_OPT, ZNAME FROM ZAUTHOR ORDER BY Z_PK").map { "\($0)" }
        var stale = StoreChanges()
        stale.updates = [
            update(makeRow(author, pk: 2, version: 2, ["name": .text("Bobby")]), changed: ["name"], expected: 1),
            update(makeRow(author, pk: 1, version: 2, ["name": .text("Annie")]), changed: ["name"], expected: 1),
        ]
        let error = #expect(throws: StoreConflict.self) { try backend.save(stale) }
        #expect(error?.rows.count == 1)
        #expect(error?.rows.first?.pk == 1 && error?.rows.first?.storedVersion == 2 && error?.rows.first?.expectedVersion == 1)
        let after = try RawDatabase(url).rows("SELECT Z_PK, Z_OPT, ZNAME FROM ZAUTHOR ORDER BY Z_PK").map { "\($0)" }
        #expect(after == before)

        var delete = StoreChanges()
        delete.deletes = [StoreChanges.Delete(entity: author, pk: 2, expectedVersion: 5)]
        #expect(throws: StoreConflict.self) { try backend.save(delete) }
        delete.deletes = [StoreChanges.Delete(entity: author, pk: 2, expectedVersion: 1)]
        try backend.save(delete)
        #expect(try backend.row(entity: author, pk: 2) == nil)
        // A vanished row is a conflict too.
        #expect(throws: StoreConflict.self) { try backend.save(delete) }

        // Every stale row of one save is reported, updates and deletes alike.
        var both = StoreChanges()
        both.updates = [update(makeRow(author, pk: 1, version: 2, ["name": .text("Annie")]), changed: ["name"], expected: 1)]
        both.deletes = [StoreChanges.Delete(entity: author, pk: 2, expectedVersion: 1)]
        let report = #expect(throws: StoreConflict.self) { try backend.save(both) }
        #expect(report?.rows.map(\.pk) == [1, 2])
        #expect(report?.rows.map(\.storedVersion) == [2, nil])
    }

    @Test("fetch filters sub-entities by Z_ENT, sorts in SQL and applies limit and offset")
    func fetching() throws {
        let backend = try openBackend(url, model)
        let message = entity("Message"), text = entity("TextMessage"), system = entity("SystemMessage")
        var changes = StoreChanges()
        changes.inserts = [
            insert(makeRow(text, pk: 1, ["text": .text("b"), "sentAt": .date(3)])),
            insert(makeRow(system, pk: 2, ["text": .text("A"), "sentAt": .date(1)])),
            insert(makeRow(text, pk: 3, ["text": .text("a"), "sentAt": .date(2)])),
        ]
        try backend.save(changes)

        #expect(try backend.fetch(FetchPlan(entity: message)).map(\.pk) == [1, 2, 3])
        #expect(try backend.fetch(FetchPlan(entity: text)).map(\.pk) == [1, 3])
        #expect(try backend.fetch(FetchPlan(entity: message, includesSubentities: false)).isEmpty)
        #expect(try backend.count(FetchPlan(entity: text)) == 2)
        let rows = try backend.fetch(FetchPlan(entity: message))
        #expect(rows.map { $0.entity.name } == ["TextMessage", "SystemMessage", "TextMessage"])
        #expect(get(rows[1], "text") == .text("A"))
        #expect(get(rows[0], "text") == .text("b"))

        let bySent = FetchPlan(entity: message, sorts: [SortKey(keyPath: "sentAt", ascending: false, comparison: .compare)])
        #expect(try backend.fetch(bySent).map(\.pk) == [1, 3, 2])
        var page = bySent
        page.limit = 1
        page.offset = 1
        #expect(try backend.fetch(page).map(\.pk) == [3])
        #expect(try backend.count(page) == 1)

        let authors = entity("Author")
        var more = StoreChanges()
        more.inserts = ["b", "C", "a"].enumerated().map { insert(makeRow(authors, pk: Int64($0.offset + 1), ["name": .text($0.element)])) }
        try backend.save(more)
        let binary = FetchPlan(entity: authors, sorts: [SortKey(keyPath: "name", ascending: true, comparison: .compare)])
        #expect(try backend.fetch(binary).map(\.pk) == [2, 3, 1])
        let folded = FetchPlan(entity: authors, sorts: [SortKey(keyPath: "name", ascending: true, comparison: .caseInsensitive)])
        #expect(try backend.fetch(folded).map(\.pk) == [3, 1, 2])
    }

    @Test("block predicates and sort keys memory cannot order are left to the caller")
    func unsupported() throws {
        let backend = try openBackend(url, model)
        var plan = FetchPlan(entity: entity("Author"))
        plan.predicate = NSPredicate { _, _ in true }
        #expect(throws: StoreFetchUnsupported.self) { try backend.fetch(plan) }
        #expect(throws: StoreFetchUnsupported.self) { try backend.count(plan) }
        let uuid = FetchPlan(entity: entity("Item"), sorts: [SortKey(keyPath: "uuid", ascending: true, comparison: .compare)])
        #expect(throws: StoreFetchUnsupported.self) { try backend.fetch(uuid) }
        let object = FetchPlan(entity: entity("Book"), sorts: [SortKey(keyPath: "shelf", ascending: true, comparison: .compare)])
        #expect(throws: StoreFetchUnsupported.self) { try backend.fetch(object) }
    }

    @Test("to-one values keep the destination's Z_ENT in the Z<n>_ column")
    func polymorphicToOne() throws {
        let backend = try openBackend(url, model)
        let book = entity("Book"), system = entity("SystemMessage"), shelf = entity("Shelf")
        var changes = StoreChanges()
        changes.inserts = [
            insert(makeRow(system, pk: 7, ["text": .text("joined")])),
            insert(makeRow(shelf, pk: 1, ["label": .text("S")])),
            insert(makeRow(book, pk: 1, ["title": .text("Dune"), "lastMessage": .ref(7, 5), "shelf": .ref(1, 7)])),
        ]
        try backend.save(changes)
        let db = try RawDatabase(url)
        let raw = try db.rows("SELECT ZLASTMESSAGE, Z4_LASTMESSAGE, ZSHELF FROM ZBOOK")[0]
        #expect(raw[0] as? Int64 == 7 && raw[1] as? Int64 == 5 && raw[2] as? Int64 == 1)
        let row = try #require(try backend.row(entity: book, pk: 1))
        #expect(get(row, "lastMessage") == .ref(7, 5))
        #expect(get(row, "shelf") == .ref(1, 7))
        #expect(try backend.relatedKeys(relationship: book.relationshipsByName["lastMessage"]!, pk: 1)
                == [StoreKey(entityID: 5, pk: 7)])
    }

    @Test("ordered one-to-many keeps positions in the child's Z_FOK column")
    func orderedOneToMany() throws {
        let backend = try openBackend(url, model)
        let book = entity("Book"), shelf = entity("Shelf")
        let books = shelf.relationshipsByName["books"]!
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(shelf, pk: 1, [:]))] + (1...3).map {
            insert(makeRow(book, pk: Int64($0), ["shelf": .ref(1, 7)]))
        }
        changes.orderings = [(books, StoreKey(entityID: 7, pk: 1), [3, 1, 2].map { StoreKey(entityID: 2, pk: $0) })]
        try backend.save(changes)
        #expect(try backend.relatedKeys(relationship: books, pk: 1).map(\.pk) == [3, 1, 2])
        let foks = try RawDatabase(url).rows("SELECT Z_PK, Z_FOK_SHELF FROM ZBOOK ORDER BY Z_FOK_SHELF")
        #expect(foks.map { $0[0] as? Int64 } == [3, 1, 2])
        #expect(foks.map { $0[1] as? Int64 } == [1024, 2048, 3072])
    }

    @Test("many-to-many links live in the join table, ordered by its FOK column")
    func manyToMany() throws {
        let backend = try openBackend(url, model)
        let author = entity("Author"), book = entity("Book")
        let books = author.relationshipsByName["books"]!, authors = book.relationshipsByName["authors"]!
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(author, pk: 1, [:])), insert(makeRow(author, pk: 2, [:]))]
            + (1...3).map { insert(makeRow(book, pk: Int64($0), [:])) }
        let ann = StoreKey(entityID: 1, pk: 1)
        changes.linksAdded = [3, 1, 2].map { StoreChanges.Link(relationship: books, source: ann, destination: StoreKey(entityID: 2, pk: $0)) }
        changes.linksAdded.append(StoreChanges.Link(relationship: authors, source: StoreKey(entityID: 2, pk: 1), destination: StoreKey(entityID: 1, pk: 2)))
        try backend.save(changes)

        #expect(try backend.relatedKeys(relationship: books, pk: 1).map(\.pk) == [3, 1, 2])
        #expect(try backend.relatedKeys(relationship: authors, pk: 1).map(\.pk) == [1, 2])
        #expect(try backend.relatedKeys(relationship: books, pk: 2).map(\.pk) == [1])
        let db = try RawDatabase(url)
        #expect(try db.rows("SELECT Z_1AUTHORS, Z_2BOOKS, Z_FOK_2BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = 1 ORDER BY Z_FOK_2BOOKS").map { $0[1] as? Int64 } == [3, 1, 2])

        var reorder = StoreChanges()
        reorder.linksRemoved = [StoreChanges.Link(relationship: books, source: ann, destination: StoreKey(entityID: 2, pk: 1))]
        reorder.orderings = [(books, ann, [StoreKey(entityID: 2, pk: 2), StoreKey(entityID: 2, pk: 3)])]
        try backend.save(reorder)
        #expect(try backend.relatedKeys(relationship: books, pk: 1).map(\.pk) == [2, 3])

        // Deleting a book removes its join rows.
        var delete = StoreChanges()
        delete.deletes = [StoreChanges.Delete(entity: book, pk: 2, expectedVersion: 1)]
        try backend.save(delete)
        #expect(try backend.relatedKeys(relationship: books, pk: 1).map(\.pk) == [3])
        #expect(try RawDatabase(url).scalar("SELECT COUNT(*) FROM Z_1BOOKS WHERE Z_2BOOKS = 2") as? Int64 == 0)
    }

    @Test("a store reopens with its rows, keys and app metadata")
    func reopen() throws {
        let author = entity("Author")
        let uuid: String
        do {
            let backend = try openBackend(url, model)
            uuid = try #require(backend.metadata[NSStoreUUIDKey] as? String)
            _ = try backend.allocateKeys(entity: author, count: 5)
            backend.metadata["com.example.token"] = "abc"
            var changes = StoreChanges()
            changes.inserts = [insert(makeRow(author, pk: 1, ["name": .text("Ann")]))]
            try backend.save(changes)
            backend.close()
        }
        let plist = try RawDatabase(url).metadataPlist()
        #expect(plist["com.example.token"] as? String == "abc")
        let again = try openBackend(url, model)
        #expect(again.metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(again.metadata["com.example.token"] as? String == "abc")
        #expect(try again.allocateKeys(entity: author, count: 1) == 6)
        #expect(get(try #require(try again.row(entity: author, pk: 1)), "name") == .text("Ann"))
    }

    @Test("a transformable value that was not converted to Data is refused")
    func boxRefused() throws {
        let backend = try openBackend(url, model)
        let item = entity("Item")
        let row = makeRow(item, pk: 1, [:])
        // Put a boxed (untransformed) value into the transformable slot.
        row.values.setBoxed(["not", "data"], at: slot(item, "transformable"))
        var changes = StoreChanges()
        changes.inserts = [insert(row)]
        let error = #expect(throws: NSError.self) { try backend.save(changes) }
        #expect(error?.code == NSPersistentStoreSaveError)
        #expect(try backend.count(FetchPlan(entity: item)) == 0)
    }
}
