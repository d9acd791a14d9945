import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The on-disk layout of stores this backend creates, checked with raw sqlite3.
@Suite struct SQLiteSchemaTests {
    @Test("a new store has Core Data's bookkeeping tables, pragmas and metadata")
    func bookkeeping() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Library.sqlite")
        let backend = try openBackend(url, Models.library())
        let uuid = try #require(backend.metadata[NSStoreUUIDKey] as? String)
        backend.close()

        let db = try RawDatabase(url)
        #expect(try db.scalar("PRAGMA auto_vacuum") as? Int64 == 2)
        #expect(try db.scalar("PRAGMA page_size") as? Int64 == 4096)
        #expect(try db.scalar("PRAGMA journal_mode") as? String == "wal")
        #expect(try db.columns("Z_PRIMARYKEY") == ["Z_ENT": "INTEGER", "Z_NAME": "VARCHAR", "Z_SUPER": "INTEGER", "Z_MAX": "INTEGER"])
        #expect(try db.columns("Z_METADATA") == ["Z_VERSION": "INTEGER", "Z_UUID": "VARCHAR(255)", "Z_PLIST": "BLOB"])
        #expect(try db.columns("Z_MODELCACHE") == ["Z_CONTENT": "BLOB"])

        let keys = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        let expected: [(Int64, String, Int64)] = [
            (1, "Author", 0), (2, "Book", 0), (3, "Item", 0), (4, "Message", 0),
            (5, "SystemMessage", 4), (6, "TextMessage", 4), (7, "Shelf", 0),
        ]
        #expect(keys.count == expected.count)
        for (row, want) in zip(keys, expected) {
            #expect(row[0] as? Int64 == want.0)
            #expect(row[1] as? String == want.1)
            #expect(row[2] as? Int64 == want.2)
            #expect(row[3] as? Int64 == 0)
        }

        #expect(try db.scalar("SELECT Z_VERSION FROM Z_METADATA") as? Int64 == 1)
        #expect(try db.scalar("SELECT Z_UUID FROM Z_METADATA") as? String == uuid)
        let plist = try db.metadataPlist()
        #expect(plist[NSStoreUUIDKey] == nil)
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect(plist["NSPersistenceFrameworkVersion"] as? Int != nil)
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == [])
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Any])
        #expect(Set(hashes.keys) == ["Author", "Book", "Item", "Message", "SystemMessage", "TextMessage", "Shelf"])
    }

    @Test("entity tables flatten hierarchies and use Core Data's column names and declared types")
    func entityTables() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Library.sqlite")
        try openBackend(url, Models.library()).close()
        let db = try RawDatabase(url)

        #expect(try db.tables() == [
            "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE",
            "ZAUTHOR", "ZBOOK", "ZITEM", "ZMESSAGE", "ZSHELF", "Z_1BOOKS",
        ])
        let fixed = ["Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER"]
        #expect(try db.columns("ZAUTHOR") == fixed.merging(["ZNAME": "VARCHAR"]) { a, _ in a })
        #expect(try db.columns("ZITEM") == fixed.merging([
            "ZINT16": "INTEGER", "ZINT32": "INTEGER", "ZINT64": "INTEGER", "ZFLAG": "INTEGER",
            "ZDOUBLE": "FLOAT", "ZFLOAT": "FLOAT", "ZDATE": "TIMESTAMP", "ZDECIMAL": "DECIMAL",
            "ZSTRING": "VARCHAR", "ZURI": "VARCHAR",
            "ZBINARY": "BLOB", "ZUUID": "BLOB", "ZTRANSFORMABLE": "BLOB",
        ]) { a, _ in a })
        // Book: to-one FKs, Z<n>_ for a destination with sub-entities, FOK for the ordered
        // one-to-many Shelf.books.
        #expect(try db.columns("ZBOOK") == fixed.merging([
            "ZTITLE": "VARCHAR", "ZSHELF": "INTEGER", "Z_FOK_SHELF": "INTEGER",
            "ZLASTMESSAGE": "INTEGER", "Z4_LASTMESSAGE": "INTEGER",
        ]) { a, _ in a })
        // TextMessage.text and SystemMessage.text share the flattened table: a suffix.
        #expect(try db.columns("ZMESSAGE") == fixed.merging([
            "ZSENTAT": "TIMESTAMP", "ZTEXT": "VARCHAR", "ZTEXT1": "VARCHAR",
        ]) { a, _ in a })
        // Many-to-many Author(1).books ↔ Book(2).authors; Author.books is ordered.
        #expect(try db.columns("Z_1BOOKS") == [
            "Z_1AUTHORS": "INTEGER", "Z_2BOOKS": "INTEGER", "Z_FOK_2BOOKS": "INTEGER",
        ])
        let pk = try db.rows("PRAGMA table_info(Z_1BOOKS)").filter { ($0[5] as? Int64 ?? 0) > 0 }.map { $0[1] as! String }
        #expect(pk == ["Z_1AUTHORS", "Z_2BOOKS"])
        // Columns in Core Data's DDL order: fixed, integers, dates/floats, strings, blobs.
        let order = try db.rows("PRAGMA table_info(ZITEM)").map { $0[1] as! String }
        #expect(order.prefix(3) == ["Z_PK", "Z_ENT", "Z_OPT"])
        #expect(order.last == "ZUUID" || order.last == "ZTRANSFORMABLE")
    }

    @Test("indexes follow Core Data's names")
    func indexes() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Library.sqlite")
        try openBackend(url, Models.library()).close()
        let indexes = try RawDatabase(url).indexes()
        #expect(Set(indexes.keys) == [
            "ZBOOK_ZTITLE_INDEX", "ZBOOK_ZSHELF_INDEX", "ZBOOK_ZLASTMESSAGE_INDEX",
            "ZMESSAGE_Z_ENT_INDEX", "Z_1BOOKS_Z_2BOOKS_INDEX",
        ])
        #expect(indexes["Z_1BOOKS_Z_2BOOKS_INDEX"]?.columns == ["Z_2BOOKS", "Z_1AUTHORS"])
        #expect(indexes["ZMESSAGE_Z_ENT_INDEX"]?.columns == ["Z_ENT"])
    }

    @Test("a new CoreDataPlus store is laid out like Apple's own SampleModel_V1 store")
    func sameLayoutAsApple() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Sample.sqlite")
        try openBackend(url, try Models.sampleModelV1()).close()
        let apple = try RawDatabase(Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder))
        let ours = try RawDatabase(url)
        #expect(try ours.tables() == apple.tables())
        for table in try apple.tables() {
            #expect(try ours.columns(table) == apple.columns(table), "table \(table)")
        }
        // Same DDL column order too.
        for table in ["ZCAR", "ZPERSON"] {
            let a = try apple.rows("PRAGMA table_info(\(table))").map { $0[1] as! String }
            let o = try ours.rows("PRAGMA table_info(\(table))").map { $0[1] as! String }
            #expect(o == a, "column order of \(table)")
        }
        let appleIndexes = try apple.indexes()
        let ourIndexes = try ours.indexes()
        #expect(Set(ourIndexes.keys) == Set(appleIndexes.keys))
        for (name, index) in appleIndexes {
            #expect(ourIndexes[name]?.unique == index.unique, "\(name)")
            #expect(ourIndexes[name]?.columns == index.columns, "\(name)")
        }
        #expect(try ours.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { "\($0)" }
                == apple.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { "\($0)" })
        #expect(try ours.metadataPlist()["NSStoreModelVersionIdentifiers"] as? [String] == ["1"])
    }

    @Test("a new Moody store has Apple's tables, columns and index names")
    func moodyLayout() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Moody.sqlite")
        try openBackend(url, try Models.moody()).close()
        let apple = try RawDatabase(Fixtures.copyStore("objcio_core-data__Moody.moody.sqlite", to: folder))
        let ours = try RawDatabase(url)
        #expect(try ours.tables() == apple.tables())
        for table in try apple.tables() {
            #expect(try ours.columns(table) == apple.columns(table), "table \(table)")
            let a = try apple.rows("PRAGMA table_info(\(table))").map { $0[1] as! String }
            let o = try ours.rows("PRAGMA table_info(\(table))").map { $0[1] as! String }
            #expect(o == a, "column order of \(table)")
        }
        // Apple's framework 637 wrote the uniqueness constraint inline; newer frameworks
        // (and we) write a UNIQUE index. Every other index has Apple's name and columns.
        let appleIndexes = try apple.indexes()
        var ourIndexes = try ours.indexes()
        let unique = ourIndexes.removeValue(forKey: "Z_GeographicRegion_UNIQUE_numericISO3166Code_uniquenessDummy")
        #expect(unique?.unique == true)
        #expect(unique?.columns == ["ZNUMERICISO3166CODE", "ZUNIQUENESSDUMMY"])
        #expect(Set(ourIndexes.keys) == Set(appleIndexes.keys))
        for (name, index) in appleIndexes {
            #expect(ourIndexes[name]?.columns == index.columns, "\(name)")
        }
    }
}
