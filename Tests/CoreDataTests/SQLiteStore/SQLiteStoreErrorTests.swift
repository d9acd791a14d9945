import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Failures while opening and saving: Apple's error codes, SQLite's error underneath,
/// and the store's files exactly as they were.
@Suite struct SQLiteStoreErrorTests {
    let folder: TemporaryDirectory
    let model = Models.library()

    init() throws { folder = try TemporaryDirectory() }

    /// Loads `url` expecting a Cocoa error; checks the files did not change.
    func expectOpenFailure(_ url: URL, options: [AnyHashable: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> NSError? {
        let before = fileBytes(url)
        let backend = SQLiteStoreBackend(url: url, options: options)
        let error = #expect(throws: NSError.self, sourceLocation: sourceLocation) {
            try backend.load(model: model, entities: model.entities)
        }
        #expect(error?.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(fileBytes(url) == before, "the store's files changed", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal") || before["-wal"] != nil, sourceLocation: sourceLocation)
        return error
    }

    func underlying(_ error: NSError?) -> NSError? { error?.userInfo[NSUnderlyingErrorKey] as? NSError }

    @Test("a file that is not SQLite is refused as corrupt, untouched")
    func notSQLite() throws {
        let url = folder.file("Notes.sqlite")
        try Data(String(repeating: "not a database, just text. ", count: 200).utf8).write(to: url)
        let error = try expectOpenFailure(url)
        #expect(error?.code == CocoaError.Code.fileReadCorruptFile.rawValue)
        #expect(underlying(error)?.domain == NSSQLiteErrorDomain)
        #expect(underlying(error)?.code == 26)
        #expect(error?.userInfo[NSSQLiteErrorDomain] as? Int == 26)
    }

    @Test("a truncated store is refused as corrupt, untouched")
    func truncated() throws {
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        let backend = SQLiteStoreBackend(url: url, options: [:])
        let before = fileBytes(url)
        let sample = try Models.sampleModelV1()
        let error = #expect(throws: NSError.self) { try backend.load(model: sample, entities: sample.entities) }
        #expect(error?.code == CocoaError.Code.fileReadCorruptFile.rawValue)
        #expect(underlying(error)?.code == 11)
        #expect(fileBytes(url) == before)
    }

    @Test("a store locked by another connection times out on open, untouched")
    func lockedOnOpen() throws {
        let url = folder.file("Locked.sqlite")
        try openBackend(url, model, options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"]]).close()
        let other = try RawDatabase(url, readOnly: false)
        try other.execute("BEGIN EXCLUSIVE")
        let error = try expectOpenFailure(url, options: [NSPersistentStoreTimeoutOption: 0.1])
        #expect(error?.code == NSPersistentStoreTimeoutError)
        #expect(underlying(error)?.code == 5)
        try other.execute("ROLLBACK")
        try openBackend(url, model).close()
    }

    @Test("a save while another connection holds the write lock fails and writes nothing")
    func lockedOnSave() throws {
        let url = folder.file("Busy.sqlite")
        let backend = try openBackend(url, model, options: [NSPersistentStoreTimeoutOption: 0.1])
        let author = model.entitiesByName["Author"]!
        let other = try RawDatabase(url, readOnly: false)
        try other.execute("BEGIN EXCLUSIVE")
        var changes = StoreChanges()
        changes.inserts = [insert(makeRow(author, pk: 1, ["name": .text("Ann")]))]
        let error = #expect(throws: NSError.self) { try backend.save(changes) }
        #expect(error?.code == NSPersistentStoreTimeoutError)
        #expect(underlying(error)?.code == 5)
        try other.execute("ROLLBACK")
        #expect(try backend.count(FetchPlan(entity: author)) == 0)
        try backend.save(changes)
        #expect(try backend.count(FetchPlan(entity: author)) == 1)
    }

    @Test("a missing folder is created; a folder that cannot be created or written is an error")
    func folders() throws {
        let nested = folder.url.appendingPathComponent("a/b/Store.sqlite")
        try openBackend(nested, model).close()
        #expect(FileManager.default.fileExists(atPath: nested.path))

        let blocker = folder.file("blocker")
        try Data("file".utf8).write(to: blocker)
        let underFile = blocker.appendingPathComponent("Store.sqlite")
        let error = try expectOpenFailure(underFile)
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(!FileManager.default.fileExists(atPath: underFile.path))

        // /proc refuses new files even to root.
        let unwritable = URL(fileURLWithPath: "/proc/self/Store.sqlite")
        let denied = try expectOpenFailure(unwritable)
        #expect(denied?.code == NSPersistentStoreOpenError)
        #expect(underlying(denied)?.domain == NSSQLiteErrorDomain)
    }

    @Test("a store written with another model is refused as incompatible, untouched")
    func wrongModel() throws {
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel_V1.sqlite", to: folder)
        let error = try expectOpenFailure(url)
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    @Test("a store whose tables do not fit its recorded model is refused, untouched")
    func tamperedSchema() throws {
        let url = folder.file("Tampered.sqlite")
        try openBackend(url, model).close()
        try RawDatabase(url, readOnly: false).execute("DROP TABLE ZAUTHOR")
        let error = try expectOpenFailure(url)
        #expect(error?.code == NSPersistentStoreIncompatibleSchemaError)
    }

    @Test("an empty file becomes a new store; a failed creation leaves it empty")
    func emptyFile() throws {
        let url = folder.file("Empty.sqlite")
        try Data().write(to: url)
        let other = try RawDatabase(url, readOnly: false)
        try other.execute("BEGIN EXCLUSIVE")
        _ = try expectOpenFailure(url, options: [NSPersistentStoreTimeoutOption: 0.1])
        #expect(try Data(contentsOf: url).isEmpty)
        try other.execute("ROLLBACK")
        try openBackend(url, model).close()
        #expect(try RawDatabase(url).tables().contains("ZAUTHOR"))
    }

    @Test("a store written with another model fails with NSPersistentStoreIncompatibleVersionHashError and is left as it was")
    func versionHashes() throws {
        let url = folder.file("Hashes.sqlite")
        try openBackend(url, model).close()
        let before = try Data(contentsOf: url)
        #expect(throws: NSError.self) {
            try SQLiteStoreBackend.checkVersionHashes(
                stored: [NSStoreModelVersionHashesKey: ["Author": Data(repeating: 1, count: 32)]], entities: model.entities)
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try Models.sampleModelV1())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        }
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try Data(contentsOf: url) == before)
        try SQLiteStoreBackend.checkVersionHashes(
            stored: [NSStoreModelVersionHashesKey: SQLiteMetadata.versionHashes(of: model.entities)], entities: model.entities)
    }
}
