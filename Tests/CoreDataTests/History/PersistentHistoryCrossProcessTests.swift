import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Another OS process saves into the same store; this one reads the history after its last
// token and sees each of those transactions exactly once.

/// Saves `count` notes, one save each, as `author` (runs in a child process).
private func saveInChild(storePath path: String, count: Int, author: String) throws {
    let container = NSPersistentContainer(name: "Notes", managedObjectModel: sharedNotesModel)
    let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: path))
    description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    let context = container.newBackgroundContext()
    context.transactionAuthor = author
    try context.performAndWait {
        for index in 0..<count {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("\(author) \(index)", forKey: "title")
            try context.save()
        }
    }
}

@Suite struct PersistentHistoryCrossProcessTests {
    @Test("history written by another process is read once, after the reader's last token")
    func otherProcessHistoryReadOnce() async throws {
        let folder = try TemporaryDirectory()
        let container = try historyContainer(in: folder)
        let path = folder.file("Notes.sqlite").path
        let context = container.viewContext
        context.transactionAuthor = "reader"
        var token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        var seen: [Int64] = []
        var authors: [String?] = []
        func readNew() throws {
            let transactions = try history(after: token, in: context)
            seen += transactions.map(\.transactionNumber)
            authors += transactions.map(\.author)
            token = transactions.last?.token ?? token
        }

        await #expect(processExitsWith: .success) { [path = path as String] in
            try saveInChild(storePath: path, count: 3, author: "child 1")
        }
        try readNew()
        #expect(authors == ["child 1", "child 1", "child 1"])

        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("mine", forKey: "title")
        try context.save()
        await #expect(processExitsWith: .success) { [path = path as String] in
            try saveInChild(storePath: path, count: 2, author: "child 2")
        }
        try readNew()
        try readNew()

        #expect(authors == ["child 1", "child 1", "child 1", "reader", "child 2", "child 2"])
        #expect(Set(seen).count == seen.count)
        #expect(seen == seen.sorted())
        let titles = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).count
        #expect(titles == 6)
    }
}
