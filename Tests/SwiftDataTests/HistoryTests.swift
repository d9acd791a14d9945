import CoreDataTestSupport
import Foundation
import SwiftData
import Testing

/// A model whose title stays in history after the note is deleted.
@Model
final class Memo {
    @Attribute(.preserveValueOnDeletion) var title: String
    var body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}

@Suite struct HistoryTests {
    /// Three saves: two notes inserted (by "importer"), one edited, one deleted.
    private func threeSaves(_ folder: TemporaryDirectory) throws -> (ModelContainer, [PersistentIdentifier]) {
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: folder.file("Memos.store")))
        let context = ModelContext(container)
        context.author = "importer"
        let first = Memo(title: "Groceries", body: "milk")
        let second = Memo(title: "Ideas", body: "none yet")
        context.insert(first)
        context.insert(second)
        try context.save()
        context.author = nil
        first.body = "milk, eggs"
        try context.save()
        let ids = [first.persistentModelID, second.persistentModelID]
        context.delete(second)
        try context.save()
        return (container, ids)
    }

    @Test("fetchHistory returns one transaction per save with its inserts, updates and deletes")
    func transactions() throws {
        let folder = try TemporaryDirectory()
        let (container, ids) = try threeSaves(folder)
        let context = ModelContext(container)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 3)
        #expect(history.map(\.author) == ["importer", nil, nil])
        #expect(history.map(\.transactionIdentifier) == history.map(\.transactionIdentifier).sorted())
        #expect(Set(history[0].changes.map(\.changedPersistentIdentifier)) == Set(ids))
        guard case .insert(let insert) = history[0].changes.first else {
            Issue.record("the first change is not an insert")
            return
        }
        #expect(insert is DefaultHistoryInsert<Memo>)
        guard case .update(let update as DefaultHistoryUpdate<Memo>) = history[1].changes.first else {
            Issue.record("the second transaction holds no update of a Memo")
            return
        }
        #expect(update.changedPersistentIdentifier == ids[0])
        #expect(update.updatedAttributes.map { $0 as PartialKeyPath<Memo> } == [\Memo.body])
        guard case .delete(let deletion as DefaultHistoryDelete<Memo>) = history[2].changes.first else {
            Issue.record("the third transaction holds no deletion of a Memo")
            return
        }
        #expect(deletion.changedPersistentIdentifier == ids[1])
        #expect(deletion.tombstone[\.title] as? String == "Ideas")
        #expect(deletion.tombstone[\.body] == nil)
        #expect(history.allSatisfy { $0.storeIdentifier == ids[0].storeIdentifier })
    }

    @Test("A token predicate fetches only the transactions after the last one seen")
    func afterToken() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try threeSaves(folder)
        let context = ModelContext(container)
        let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let seen = all[0].token
        let newer = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { $0.token > seen }))
        #expect(newer.map(\.transactionIdentifier) == all.dropFirst().map(\.transactionIdentifier))
        var latest = HistoryDescriptor<DefaultHistoryTransaction>(
            sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        latest.fetchLimit = 1
        #expect(try context.fetchHistory(latest).map(\.transactionIdentifier) == [all[2].transactionIdentifier])
        let data = try JSONEncoder().encode(seen)
        #expect(try JSONDecoder().decode(DefaultHistoryToken.self, from: data) == seen)
    }

    @Test("deleteHistory removes the oldest transactions and refuses a selection with a gap")
    func deleting() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try threeSaves(folder)
        let context = ModelContext(container)
        let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let middle = all[1].transactionIdentifier
        #expect(throws: SwiftDataError.unsupportedPredicate) {
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: #Predicate { $0.transactionIdentifier == middle }))
        }
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { $0.transactionIdentifier <= middle }))
        let left = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(left.map(\.transactionIdentifier) == [all[2].transactionIdentifier])
    }
}
