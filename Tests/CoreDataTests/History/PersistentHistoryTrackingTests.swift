import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Saves into a store opened with NSPersistentHistoryTrackingKey record transactions in
// Apple's layout, read back through NSPersistentHistoryChangeRequest.

/// Notes with a title kept in history after deletion, and a body that is not.
private func notesModel() -> NSManagedObjectModel {
    let title = attribute("title", .stringAttributeType)
    title.preservesValueInHistoryOnDeletion = true
    let created = attribute("created", .dateAttributeType)
    created.preservesValueInHistoryOnDeletion = true
    let note = entity("Note", [title, created, attribute("body", .stringAttributeType)])
    let model = NSManagedObjectModel()
    model.entities = [note]
    return model
}

/// A container over `Notes.sqlite` in `folder`, tracking history unless told otherwise.
func historyContainer(in folder: TemporaryDirectory, tracking: Bool = true,
                      model: NSManagedObjectModel? = nil) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Notes", managedObjectModel: model ?? sharedNotesModel)
    let description = NSPersistentStoreDescription(url: folder.file("Notes.sqlite"))
    if tracking { description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey) }
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// The store types that keep persistent history: SQLite, and PostgreSQL when a test cluster is
/// given (`COREDATA_TEST_POSTGRES_URL`; without one a note says it is left out).
let historyStoreTypes: [String] = allStoreTypes.filter { $0 != NSInMemoryStoreType }

/// Where a test's history store lives: a `Notes.sqlite` in a temporary folder, or a database of
/// the test cluster. Containers opened on it (``container(tracking:model:)``) keep it alive.
final class HistoryPlace: @unchecked Sendable {
    // @unchecked Sendable: every property is immutable after init.
    let type: String
    let folder: TemporaryDirectory
    let database: PostgreSQLTestDatabase?

    init(_ type: String) throws {
        self.type = type
        folder = try TemporaryDirectory()
        database = type == NSPostgreSQLStoreType ? try PostgreSQLTestDatabase() : nil
    }

    /// The store's URL: the file, or the database's `postgresql://` URL.
    var url: URL { database?.url ?? folder.file("Notes.sqlite") }

    /// A container over the store, tracking history unless told otherwise.
    func container(tracking: Bool = true, model: NSManagedObjectModel? = nil) throws -> HistoryNotesContainer {
        let container = HistoryNotesContainer(name: "Notes", managedObjectModel: model ?? sharedNotesModel)
        container.place = self
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        if tracking { description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey) }
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
}

/// The notes app's container: holds on to the place its store lives (a test database is
/// dropped when its last reference goes).
final class HistoryNotesContainer: NSPersistentContainer, @unchecked Sendable {
    // @unchecked Sendable: `place` is set once, before the container is shared.
    var place: HistoryPlace?
}

/// One model for every container of these tests (a model's entities belong to one model).
let sharedNotesModel = notesModel()

/// The transactions after `token`, with their changes.
func history(after token: NSPersistentHistoryToken?, in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
    try context.performAndWait {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
        let result = try context.execute(request) as? NSPersistentHistoryResult
        return result?.result as? [NSPersistentHistoryTransaction] ?? []
    }
}

@Suite struct PersistentHistoryTrackingTests {
    @Test("each save records one transaction with the context's author and name", arguments: historyStoreTypes)
    func saveRecordsTransaction(type: String) throws {
        let container = try HistoryPlace(type).container()
        let context = container.newBackgroundContext()
        context.name = "editor"
        context.transactionAuthor = "app"
        let before = Date()
        try context.performAndWait {
            for index in 0..<3 {
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue("note \(index)", forKey: "title")
            }
            try context.save()
            context.transactionAuthor = "sync"
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("later", forKey: "title")
            try context.save()
        }
        let transactions = try history(after: nil, in: container.viewContext)
        try #require(transactions.count == 2)
        #expect(transactions.map(\.author) == ["app", "sync"])
        #expect(transactions.map(\.contextName) == ["editor", "editor"])
        #expect(transactions.map { $0.changes?.count } == [3, 1])
        #expect(transactions[0].transactionNumber < transactions[1].transactionNumber)
        #expect(transactions[0].timestamp >= before.addingTimeInterval(-1))
        #expect(transactions[0].processID == ProcessInfo.processInfo.processName)
        #expect(!transactions[0].bundleID.isEmpty)
        #expect(transactions.allSatisfy { $0.storeID == container.persistentStoreCoordinator.persistentStores[0].identifier })
    }

    @Test("an update records the properties it changed", arguments: historyStoreTypes)
    func updateRecordsProperties(type: String) throws {
        let container = try HistoryPlace(type).container()
        let context = container.viewContext
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("draft", forKey: "title")
        try context.save()
        let token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        note.setValue("final", forKey: "title")
        note.setValue("text", forKey: "body")
        try context.save()
        let transactions = try history(after: token, in: context)
        try #require(transactions.count == 1)
        let change = try #require(transactions[0].changes?.first)
        #expect(change.changeType == .update)
        #expect(change.changedObjectID == note.objectID)
        #expect(Set(change.updatedProperties?.map(\.name) ?? []) == ["title", "body"])
    }

    @Test("a delete keeps the values of attributes preserved in history", arguments: historyStoreTypes)
    func deleteRecordsTombstone(type: String) throws {
        let container = try HistoryPlace(type).container()
        let context = container.viewContext
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("gone", forKey: "title")
        note.setValue("secret", forKey: "body")
        note.setValue(created, forKey: "created")
        try context.save()
        let id = note.objectID
        let token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        context.delete(note)
        try context.save()
        let change = try #require(try history(after: token, in: context).first?.changes?.first)
        #expect(change.changeType == .delete)
        #expect(change.changedObjectID == id)
        #expect(change.tombstone?["title"] as? String == "gone")
        #expect(change.tombstone?["created"] as? Date == created)
        #expect(change.tombstone?["body"] == nil)
    }

    @Test("the history tables are Apple's: ATRANSACTION, ACHANGE, ATRANSACTIONSTRING and Z_ENT 16001-16003")
    func tablesInAppleLayout() throws {
        let folder = try TemporaryDirectory()
        let container = try historyContainer(in: folder)
        let context = container.viewContext
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("a", forKey: "title")
        context.transactionAuthor = "tester"
        try context.save()
        let database = try RawDatabase(folder.file("Notes.sqlite"))
        func strings(_ sql: String) throws -> [String] { try database.rows(sql).map { "\($0[0] ?? "nil")" } }
        #expect(try strings("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT >= 16001 ORDER BY Z_ENT") == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(try strings("SELECT ZNAME FROM ATRANSACTIONSTRING a JOIN ATRANSACTION t ON t.ZAUTHORTS = a.Z_PK") == ["tester"])
        #expect(try strings("SELECT ZCHANGETYPE || '/' || ZENTITYPK || '/' || ZTRANSACTIONID FROM ACHANGE") == ["0/1/1"])
        #expect(Set(try database.columns("ATRANSACTION").keys) == ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"])
    }

    @Test("on PostgreSQL the history tables are Apple's too, their rows as on SQLite",
          .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
    func tablesInAppleLayoutOnPostgreSQL() throws {
        let place = try HistoryPlace(NSPostgreSQLStoreType)
        let container = try place.container()
        let context = container.viewContext
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("a", forKey: "title")
        context.transactionAuthor = "tester"
        try context.save()
        let database = try #require(place.database)
        func strings(_ sql: String) throws -> [String] { try database.rows(sql).map { "\($0[0] ?? "nil")" } }
        #expect(try strings("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT >= 16001 ORDER BY Z_ENT") == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(try strings("SELECT ZNAME FROM ATRANSACTIONSTRING a JOIN ATRANSACTION t ON t.ZAUTHORTS = a.Z_PK") == ["tester"])
        #expect(try strings("SELECT ZCHANGETYPE || '/' || ZENTITYPK || '/' || ZTRANSACTIONID FROM ACHANGE") == ["0/1/1"])
        #expect(try strings("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") == ["1"])
        let columns = try strings("SELECT upper(column_name) FROM information_schema.columns WHERE table_name = 'atransaction'")
        #expect(Set(columns) == ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"])
        // One tombstone column per preserved attribute (title, created), as text.
        #expect(try strings("SELECT upper(column_name) || ' ' || data_type FROM information_schema.columns WHERE table_name = 'achange' AND column_name LIKE 'ztombstone%' ORDER BY 1") == ["ZTOMBSTONE0 text", "ZTOMBSTONE1 text"])
    }

    @Test("a failed save records no history", arguments: historyStoreTypes)
    func failedSaveRecordsNothing(type: String) throws {
        let container = try HistoryPlace(type).container()
        let context = container.viewContext
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("one", forKey: "title")
        try context.save()
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let copy = try other.existingObject(with: note.objectID)
            copy.setValue("theirs", forKey: "title")
            try other.save()
        }
        let token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        note.setValue("mine", forKey: "title")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try history(after: token, in: context).isEmpty)
    }

    @Test("a store without tracking records no history and refuses history requests", arguments: historyStoreTypes)
    func untrackedStore(type: String) throws {
        let container = try HistoryPlace(type).container(tracking: false)
        let context = container.viewContext
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("a", forKey: "title")
        try context.save()
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        #expect(throws: CocoaError.self) {
            try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
        }
    }

    @Test("a history token survives secure archiving and compares equal", arguments: historyStoreTypes)
    func tokenArchives(type: String) throws {
        let container = try HistoryPlace(type).container()
        _ = NSEntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext)
        try container.viewContext.save()
        let token = try #require(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
        let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: data)
        #expect(decoded == token)
        #expect(try history(after: decoded, in: container.viewContext).isEmpty)
    }
}
