import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Batch requests record persistent history like saves do (one transaction each, by the
// executing context's author), and a fetched results controller follows their changes when
// the app merges them, from the batch result's object IDs or from history.

/// Counts the controller's change callbacks.
private final class ChangeCounter: NSObject, NSFetchedResultsControllerDelegate, @unchecked Sendable {
    // @unchecked Sendable: used on the test's thread only.
    var inserts = 0
    var deletes = 0
    var updates = 0
    var contentChanges = 0

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        switch type {
        case .insert: inserts += 1
        case .delete: deletes += 1
        case .update, .move: updates += 1
        @unknown default: break
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        contentChanges += 1
    }
}

private func batchInsert(_ titles: [String], into context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
    try context.performAndWait {
        let request = NSBatchInsertRequest(entityName: "Note", objects: titles.map { ["title": $0, "body": "b"] })
        request.resultType = .objectIDs
        let result = try context.execute(request) as? NSBatchInsertResult
        return result?.result as? [NSManagedObjectID] ?? []
    }
}

@Suite struct PersistentHistoryBatchTests {
    @Test("a batch insert, update and delete each record one transaction by the context's author",
          arguments: historyStoreTypes)
    func batchTransactions(type: String) throws {
        let container = try HistoryPlace(type).container()
        let context = container.newBackgroundContext()
        context.transactionAuthor = "importer"
        context.name = "batch"
        let start = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let ids = try batchInsert(["a", "b", "c"], into: context)
        #expect(ids.count == 3)
        try context.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Note")
            update.predicate = NSPredicate(format: "title != %@", "c")
            update.propertiesToUpdate = ["body": "changed"]
            _ = try context.execute(update)
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
            fetch.predicate = NSPredicate(format: "title == %@", "a")
            _ = try context.execute(NSBatchDeleteRequest(fetchRequest: fetch))
            // A batch that writes nothing records nothing.
            let none = NSBatchUpdateRequest(entityName: "Note")
            none.predicate = NSPredicate(format: "title == %@", "nobody")
            none.propertiesToUpdate = ["body": "x"]
            _ = try context.execute(none)
        }

        let transactions = try history(after: start, in: container.viewContext)
        try #require(transactions.count == 3)
        #expect(transactions.allSatisfy { $0.author == "importer" && $0.contextName == "batch" })

        let inserted = try #require(transactions[0].changes)
        #expect(inserted.count == 3 && inserted.allSatisfy { $0.changeType == .insert })
        #expect(Set(inserted.map(\.changedObjectID)) == Set(ids))

        let updated = try #require(transactions[1].changes)
        #expect(updated.count == 2 && updated.allSatisfy { $0.changeType == .update })
        #expect(updated.allSatisfy { $0.updatedProperties?.map(\.name) == ["body"] })

        let deleted = try #require(transactions[2].changes)
        #expect(deleted.count == 1)
        #expect(deleted.first?.changeType == .delete)
        // The title is preserved in history on deletion: read before the row went.
        #expect(deleted.first?.tombstone?["title"] as? String == "a")
        #expect(deleted.first?.tombstone?["body"] == nil)
    }

    @Test("a fetched results controller follows batch changes merged from their object IDs")
    func controllerFollowsBatchResults() throws {
        let folder = try TemporaryDirectory()
        let container = try historyContainer(in: folder)
        let view = container.viewContext
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: view,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let counter = ChangeCounter()
        controller.delegate = counter
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 0)

        let worker = container.newBackgroundContext()
        let ids = try batchInsert(["a", "b", "c"], into: worker)
        #expect(controller.fetchedObjects?.count == 0)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: ids], into: [view])
        #expect(controller.fetchedObjects?.count == 3)
        #expect(counter.inserts == 3)

        let deleted: [NSManagedObjectID] = try worker.performAndWait {
            let delete = NSBatchDeleteRequest(objectIDs: [ids[0]])
            delete.resultType = .resultTypeObjectIDs
            return (try worker.execute(delete) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID] ?? []
        }
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: deleted], into: [view])
        #expect(controller.fetchedObjects?.count == 2)
        #expect(counter.deletes == 1)
        let titles = (controller.fetchedObjects as? [NSManagedObject])?.compactMap { $0.value(forKey: "title") as? String }
        #expect(titles == ["b", "c"])
    }

    @Test("a fetched results controller follows batch changes merged from persistent history")
    func controllerFollowsHistory() throws {
        let folder = try TemporaryDirectory()
        let container = try historyContainer(in: folder)
        let view = container.viewContext
        var token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: view,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let counter = ChangeCounter()
        controller.delegate = counter
        try controller.performFetch()

        func mergeHistory() throws {
            for transaction in try history(after: token, in: view) {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                token = transaction.token
            }
        }
        let worker = container.newBackgroundContext()
        _ = try batchInsert(["a", "b"], into: worker)
        try mergeHistory()
        #expect(controller.fetchedObjects?.count == 2)

        try worker.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Note")
            update.predicate = NSPredicate(format: "title == %@", "a")
            update.propertiesToUpdate = ["title": "z"]
            _ = try worker.execute(update)
        }
        try mergeHistory()
        let titles = (controller.fetchedObjects as? [NSManagedObject])?.compactMap { $0.value(forKey: "title") as? String }
        #expect(titles == ["b", "z"])
        #expect(counter.updates >= 1)

        try worker.performAndWait {
            _ = try worker.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Note")))
        }
        try mergeHistory()
        #expect(controller.fetchedObjects?.count == 0)
    }
}
