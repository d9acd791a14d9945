import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// A history request narrowed by a fetch request on the transaction or change entity.

@Suite struct PersistentHistoryFetchRequestTests {
    /// Three saves: two by "app" (context "main"), one by "widget" that deletes a note.
    private func makeHistory(_ type: String) throws -> NSPersistentContainer {
        let container = try HistoryPlace(type).container()
        let context = container.viewContext
        context.name = "main"
        context.transactionAuthor = "app"
        let first = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        first.setValue("a", forKey: "title")
        try context.save()
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("b", forKey: "title")
        try context.save()
        context.transactionAuthor = "widget"
        context.delete(first)
        try context.save()
        return container
    }

    @Test("a transaction fetch request's predicate keeps transactions by author", arguments: historyStoreTypes)
    func transactionsByAuthor(type: String) throws {
        let container = try makeHistory(type)
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
        let fetch = try #require(NSPersistentHistoryTransaction.fetchRequest)
        fetch.predicate = NSPredicate(format: "%K != %@", "author", "app")
        request.fetchRequest = fetch
        let result = try container.viewContext.execute(request) as? NSPersistentHistoryResult
        let transactions = try #require(result?.result as? [NSPersistentHistoryTransaction])
        #expect(transactions.map(\.author) == ["widget"])
        #expect(transactions.first?.changes?.map(\.changeType) == [.delete])
        let entity = NSPersistentHistoryTransaction.entityDescription(with: container.viewContext)
        #expect(entity === NSPersistentHistoryTransaction.entityDescription)
        #expect(entity?.attributesByName["author"] != nil)
    }

    @Test("a change fetch request keeps the changes of one type, and the transactions holding them", arguments: historyStoreTypes)
    func changesByType(type: String) throws {
        let container = try makeHistory(type)
        let fetch = try #require(NSPersistentHistoryChange.fetchRequest)
        fetch.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.insert.rawValue)
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        request.resultType = .changesOnly
        let changes = try #require((try container.viewContext.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryChange])
        #expect(changes.count == 2)
        #expect(changes.allSatisfy { $0.changeType == .insert })
        request.resultType = .transactionsAndChanges
        let transactions = try #require((try container.viewContext.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
        #expect(transactions.map(\.author) == ["app", "app"])
    }

    @Test("a transaction predicate on context name with sort and limit", arguments: historyStoreTypes)
    func contextNameSortedLimited(type: String) throws {
        let container = try makeHistory(type)
        let fetch = try #require(NSPersistentHistoryTransaction.fetchRequest)
        fetch.predicate = NSPredicate(format: "contextName == %@", "main")
        fetch.sortDescriptors = [NSSortDescriptor(key: "transactionNumber", ascending: false)]
        fetch.fetchLimit = 2
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        request.resultType = .transactionsOnly
        let transactions = try #require((try container.viewContext.execute(request) as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction])
        #expect(transactions.map(\.transactionNumber) == [3, 2])
        #expect(transactions.allSatisfy { $0.changes == nil })
    }

    @Test("a predicate on a key history does not have is an error, not an empty result", arguments: historyStoreTypes)
    func unknownKey(type: String) throws {
        let container = try makeHistory(type)
        let fetch = try #require(NSPersistentHistoryTransaction.fetchRequest)
        fetch.predicate = NSPredicate(format: "colour == %@", "red")
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        #expect(throws: CocoaError.self) { try container.viewContext.execute(request) }
    }
}
