import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Store errors say which file they are about, in one readable line: the path in the
/// description and under `NSFilePathErrorKey`, the cause's message (never an `NSError`'s
/// whole `description`), the cause itself under `NSUnderlyingErrorKey`.
@Suite struct SQLiteStoreErrorMessageTests {
    /// Checks one error's message: it names `url` and embeds no `NSError` dump.
    static func expectReadable(_ error: NSError?, naming url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("no error", sourceLocation: sourceLocation)
            return
        }
        let message = error.localizedDescription
        #expect(message.contains(url.path), "\(message)", sourceLocation: sourceLocation)
        #expect(error.userInfo[NSFilePathErrorKey] as? String == url.path, sourceLocation: sourceLocation)
        for dump in ["Error Domain=", "UserInfo=", "NSLocalizedDescription", "SQLiteError("] {
            #expect(!message.contains(dump), "\(message)", sourceLocation: sourceLocation)
        }
    }

    @Test("an open that SQLite refuses names the file and gives SQLite's message, the SQLite error underneath")
    func sqliteFailure() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Notes.sqlite")
        try Data(String(repeating: "not a database. ", count: 300).utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let error = #expect(throws: NSError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        Self.expectReadable(error, naming: url)
        #expect(error?.localizedDescription.contains("file is not a database") == true)
        #expect((error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == NSSQLiteErrorDomain)
    }

    @Test("errors found inside the store (version hashes, schema, metadata) name the store's file",
          arguments: ["version hashes", "schema", "metadata"])
    func innerErrorsNameTheFile(_ damage: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Shop.sqlite")
        var model = TestModel.make()
        let first = NSPersistentStoreCoordinator(managedObjectModel: model)
        try first.remove(try first.addPersistentStore(type: .sqlite, at: url))
        switch damage {
        case "version hashes": model = Models.library()
        case "schema": try RawDatabase(url, readOnly: false).execute("ALTER TABLE ZTAG DROP COLUMN ZLABEL")
        default: try RawDatabase(url, readOnly: false).execute("DELETE FROM Z_METADATA")
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
                NSMigratePersistentStoresAutomaticallyOption: false,
            ])
        }
        Self.expectReadable(error, naming: url)
        if damage == "metadata" {
            let metadataError = #expect(throws: NSError.self) {
                try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
            }
            Self.expectReadable(metadataError, naming: url)
        }
    }

    @Test("a save refused by a lock names the file and SQLite's reason in one line")
    func lockedSave() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.file("Shop.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSPersistentStoreTimeoutOption: 0.1])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let other = try RawDatabase(url, readOnly: false)
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }
        NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue("x", forKey: "label")
        let error = #expect(throws: NSError.self) { try context.save() }
        Self.expectReadable(error, naming: url)
        #expect(error?.localizedDescription.contains("database is locked") == true, "\(error?.localizedDescription ?? "")")
    }

    @Test("a store file that cannot be deleted, and a copy that cannot be made, name the files")
    func destroyAndReplace() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let missing = folder.file("Missing.sqlite")
        let replaceError = #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: folder.file("Copy.sqlite"), withPersistentStoreFrom: missing, type: .sqlite)
        }
        Self.expectReadable(replaceError, naming: missing)

        let notSQLite = folder.file("Text.sqlite")
        try Data(String(repeating: "plain text ", count: 400).utf8).write(to: notSQLite)
        let copyError = #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: folder.file("Copy.sqlite"), withPersistentStoreFrom: notSQLite, type: .sqlite)
        }
        let message = copyError?.localizedDescription ?? ""
        #expect(message.contains(notSQLite.path) && message.contains(folder.file("Copy.sqlite").path), "\(message)")
        #expect(!message.contains("Error Domain="), "\(message)")
    }

    @Test("CoreDataError.reason gives an NSError's localized description, never its dump")
    func reason() {
        let error = NSError(domain: NSCocoaErrorDomain, code: 4, userInfo: [
            NSLocalizedDescriptionKey: "The file is gone.", NSFilePathErrorKey: "/x/y",
        ])
        #expect(CoreDataError.reason(error) == "The file is gone.")
        let wrapped = CoreDataError.store(NSPersistentStoreOperationError, "Copying /x/y failed.", underlying: error)
        #expect(wrapped.localizedDescription == "Copying /x/y failed. (The file is gone.)")
        #expect(wrapped.userInfo[NSUnderlyingErrorKey] as? NSError == error)
        let sqlite = SQLiteError(resultCode: 5, message: "database is locked", sql: "BEGIN IMMEDIATE")
        #expect(CoreDataError.reason(sqlite) == "database is locked")
    }
}
