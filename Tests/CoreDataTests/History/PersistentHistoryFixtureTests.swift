import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// History written by Apple's Core Data: CoreDataPlus SampleModel2_V2.sqlite holds one
// transaction (an XCTest save of 126 inserts) in ATRANSACTION / ACHANGE / ATRANSACTIONSTRING.

/// The store's model was built in code by CoreDataPlus's tests (no model file describes it,
/// and its Z_MODELCACHE archive is not readable here), so the tests describe its tables with
/// a model of the same entities (and so the same Z_ENT numbers) and some of their columns,
/// and stamp the copy's metadata with that model's version hashes through
/// `setMetadata(_:forPersistentStoreOfType:at:)`. The history tables are left as Apple wrote them.
private func sampleModel2Tables() -> NSManagedObjectModel {
    let book = entity("Book", [attribute("title", .stringAttributeType)])
    let novel = entity("GraphicNovel", [attribute("isBlackAndWhite", .booleanAttributeType)])
    book.subentities = [novel]
    let feedback = entity("Feedback", [attribute("comment", .stringAttributeType)])
    let page = entity("Page", [attribute("number", .integer32AttributeType)])
    let writer = entity("Writer", [attribute("age", .integer16AttributeType)], abstract: true)
    let author = entity("Author", [attribute("alias", .stringAttributeType)])
    writer.subentities = [author]
    let model = NSManagedObjectModel()
    model.entities = [book, novel, feedback, page, writer, author]
    return model
}

@Suite struct PersistentHistoryFixtureTests {
    private func openAppleStore(in folder: TemporaryDirectory) throws -> NSPersistentContainer {
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel2_V2.sqlite", to: folder)
        let model = sampleModel2Tables()
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionHashesKey] = model.entityVersionHashesByName
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let container = NSPersistentContainer(name: "SampleModel2", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @Test("the transaction Apple's Core Data recorded reads back with its bundle, process and time")
    func appleTransactionReadsBack() throws {
        let folder = try TemporaryDirectory()
        let container = try openAppleStore(in: folder)
        let context = container.newBackgroundContext()
        let transactions = try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            let result = try context.execute(request) as? NSPersistentHistoryResult
            return result?.result as? [NSPersistentHistoryTransaction] ?? []
        }
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.transactionNumber == 1)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool")
        #expect(transaction.processID == "xctest")
        #expect(transaction.author == nil)
        #expect(transaction.contextName == nil)
        #expect(abs(transaction.timestamp.timeIntervalSinceReferenceDate - 737057651.681977) < 0.001)
        #expect(transaction.storeID == container.persistentStoreCoordinator.persistentStores[0].identifier)
        #expect(transaction.token == container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
    }

    @Test("Apple's recorded changes name the inserted objects, which fetch from the store")
    func appleChangesReadBack() throws {
        let folder = try TemporaryDirectory()
        let container = try openAppleStore(in: folder)
        let context = container.viewContext
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: .distantPast)
        request.resultType = .changesOnly
        let changes = try #require((try context.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryChange])
        #expect(changes.count == 126)
        #expect(changes.allSatisfy { $0.changeType == .insert && $0.tombstone == nil && $0.updatedProperties == nil })
        #expect(changes.map(\.changeID) == Array(1...126))
        #expect(changes.allSatisfy { $0.transaction?.transactionNumber == 1 })
        var byEntity: [String: Int] = [:]
        for change in changes { byEntity[change.changedObjectID.entity.name ?? "?", default: 0] += 1 }
        #expect(byEntity["Page"] == 119)
        for change in changes {
            let object = try context.existingObject(with: change.changedObjectID)
            #expect(object.entity == change.changedObjectID.entity)
        }
    }

    @Test("result types shape what an Apple history fetch returns")
    func resultTypes() throws {
        let folder = try TemporaryDirectory()
        let context = try openAppleStore(in: folder).viewContext
        func run(_ type: NSPersistentHistoryResultType) throws -> Any? {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryTransaction?)
            request.resultType = type
            return (try context.execute(request) as? NSPersistentHistoryResult)?.result
        }
        #expect(try run(.count) as? Int == 1)
        #expect(try run(.statusOnly) as? Bool == true)
        #expect((try run(.objectIDs) as? [NSManagedObjectID])?.count == 126)
        let bare = try #require(try run(.transactionsOnly) as? [NSPersistentHistoryTransaction])
        #expect(bare.first?.changes == nil)
        let full = try #require(try run(.transactionsAndChanges) as? [NSPersistentHistoryTransaction])
        #expect(full.first?.changes?.count == 126)
        let note = try #require(full.first?.objectIDNotification())
        #expect((note.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 126)
    }

    @Test("a fetch after Apple's transaction finds nothing newer")
    func nothingAfterTheLastTransaction() throws {
        let folder = try TemporaryDirectory()
        let context = try openAppleStore(in: folder).viewContext
        let all = (try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
            as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
        let last = try #require(all.last)
        let after = (try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: last))
            as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction]
        #expect(after?.isEmpty == true)
        let afterToken = (try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: last.token))
            as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction]
        #expect(afterToken?.isEmpty == true)
    }
}
