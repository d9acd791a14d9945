import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// deleteHistory(before:) with a token, a date or a transaction; expired tokens; stores whose
// history is no longer tracked.

/// Saves `count` notes, one transaction each, and returns the transactions.
private func saveNotes(_ count: Int, in container: NSPersistentContainer) throws -> [NSPersistentHistoryTransaction] {
    let context = container.viewContext
    let start = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    for index in 0..<count {
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("note \(index)", forKey: "title")
        try context.save()
    }
    return try history(after: start, in: context)
}

@Suite struct PersistentHistoryDeletionTests {
    @Test("deleteHistory(before: token) removes that transaction and older ones; later ones stay", arguments: historyStoreTypes)
    func deleteBeforeToken(type: String) throws {
        let container = try HistoryPlace(type).container()
        let transactions = try saveNotes(3, in: container)
        let request = NSPersistentHistoryChangeRequest.deleteHistory(before: transactions[1].token)
        request.resultType = .count
        let result = try container.viewContext.execute(request) as? NSPersistentHistoryResult
        #expect(result?.result as? Int == 2)
        let left = try history(after: nil, in: container.viewContext)
        #expect(left.map(\.transactionNumber) == [transactions[2].transactionNumber])
        #expect(try history(after: transactions[1].token, in: container.viewContext).count == 1)
    }

    @Test("a token whose following history was deleted has expired (NSPersistentHistoryTokenExpiredError)", arguments: historyStoreTypes)
    func expiredToken(type: String) throws {
        let container = try HistoryPlace(type).container()
        let transactions = try saveNotes(3, in: container)
        _ = try container.viewContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: transactions[1]))
        let error = #expect(throws: NSError.self) {
            try history(after: transactions[0].token, in: container.viewContext)
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSPersistentHistoryTokenExpiredError)
    }

    @Test("deleteHistory(before: date) removes the transactions committed before it", arguments: historyStoreTypes)
    func deleteBeforeDate(type: String) throws {
        let container = try HistoryPlace(type).container()
        let first = try saveNotes(2, in: container)
        Thread.sleep(forTimeInterval: 0.02)
        let cut = Date()
        Thread.sleep(forTimeInterval: 0.02)
        let second = try saveNotes(1, in: container)
        _ = try container.viewContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: cut))
        let left = try history(after: nil, in: container.viewContext)
        #expect(left.map(\.transactionNumber) == second.map(\.transactionNumber))
        #expect(first.count == 2)
        let afterDate = NSPersistentHistoryChangeRequest.fetchHistory(after: cut)
        let fetched = (try container.viewContext.execute(afterDate) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction]
        #expect(fetched?.count == 1)
    }

    @Test("a store holding history opened without tracking is read-only, until its history is deleted", arguments: historyStoreTypes)
    func untrackedHistoryOpensReadOnly(type: String) throws {
        let place = try HistoryPlace(type)
        do {
            let container = try place.container()
            _ = try saveNotes(1, in: container)
        }
        do {
            let container = try place.container(tracking: false)
            #expect(container.persistentStoreCoordinator.persistentStores[0].isReadOnly)
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext).setValue("x", forKey: "title")
            #expect(throws: NSError.self) { try container.viewContext.save() }
        }
        do {
            let container = try place.container()
            _ = try container.viewContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: .distantFuture))
        }
        let container = try place.container(tracking: false)
        #expect(!container.persistentStoreCoordinator.persistentStores[0].isReadOnly)
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext).setValue("y", forKey: "title")
        try container.viewContext.save()
    }

    @Test("a token of another store is refused", arguments: historyStoreTypes)
    func tokenOfAnotherStore(type: String) throws {
        let first = try HistoryPlace(type).container()
        let second = try HistoryPlace(type).container()
        let foreign = try #require(try saveNotes(1, in: first).last?.token)
        _ = try saveNotes(1, in: second)
        let error = #expect(throws: NSError.self) { try history(after: foreign, in: second.viewContext) }
        #expect(error?.domain == NSCocoaErrorDomain)
    }
}
