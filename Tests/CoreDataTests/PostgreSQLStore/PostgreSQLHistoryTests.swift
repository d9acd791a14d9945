import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Persistent history on the PostgreSQL store, where many connections commit at once: its
// transaction numbers follow commit order, so a reader that holds a token never misses a
// transaction that commits later with a lower number.

/// A notes container on the PostgreSQL store at `location`, tracking history.
private func notesContainer(_ location: String, remoteChanges: Bool = false, serializable: Bool = false) throws -> NSPersistentContainer {
    let container = HistoryNotesContainer(name: "Notes", managedObjectModel: sharedNotesModel)
    let description = NSPersistentStoreDescription(url: try #require(URL(string: location)))
    description.type = NSPostgreSQLStoreType
    description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    if serializable { description.setOption(true as NSNumber, forKey: NSPostgreSQLSerializableOption) }
    if remoteChanges {
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
    }
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// How many notes save `index` of writer `process` inserts (1 to 7, so that saves take
/// different times and commit out of the order they began).
private func notesPerSave(process: Int, index: Int) -> Int { 1 + (index * 5 + process * 3) % 7 }

/// One writer process: `saves` saves, each of ``notesPerSave(process:index:)`` notes, by
/// author `w<process>-<index>`.
private func historyWriterProcess(location: String, process: Int, saves: Int) throws {
    let container = try notesContainer(location)
    let context = container.newBackgroundContext()
    try context.performAndWait {
        for index in 0..<saves {
            context.transactionAuthor = "w\(process)-\(index)"
            for note in 0..<notesPerSave(process: process, index: index) {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                    .setValue("w\(process) \(index) \(note)", forKey: "title")
            }
            try context.save()
            context.reset()
        }
    }
}

/// The reader process: reads the history after its token, over and over, until it has read
/// `expected` transactions (or two minutes passed); prints `seen <number> <author> <changes>`
/// for each transaction, in the order read.
private func historyReaderProcess(location: String, expected: Int) throws {
    let container = try notesContainer(location)
    let context = container.newBackgroundContext()
    var token: NSPersistentHistoryToken?
    var lines: [String] = []
    let deadline = Date().addingTimeInterval(120)
    while lines.count < expected && Date() < deadline {
        let transactions = try history(after: token, in: context)
        for transaction in transactions {
            lines.append("seen \(transaction.transactionNumber) \(transaction.author ?? "nil") \(transaction.changes?.count ?? -1)")
        }
        token = transactions.last?.token ?? token
        if transactions.isEmpty { Thread.sleep(forTimeInterval: 0.002) }
    }
    print(lines.joined(separator: "\n"))
}

@Suite("PostgreSQL persistent history", .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
struct PostgreSQLHistoryTests {
    @Test("a save that starts first and commits last is numbered after the one that commits first, and a reader holding a token sees both")
    func numbersFollowCommitOrder() async throws {
        let place = try HistoryPlace(NSPostgreSQLStoreType)
        let database = try #require(place.database)
        let first = try place.container(), second = try place.container(), reader = try place.container()

        // A note the first save will update, and the reader's token after it.
        let early = first.newBackgroundContext()
        early.transactionAuthor = "setup"
        let held = try early.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: early)
            note.setValue("held", forKey: "title")
            try early.save()
            return note.objectID
        }
        var token = try #require(reader.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))

        // Another connection holds the note's row, so the first save, which writes it, waits
        // in the middle of its transaction.
        let session = try database.session()
        try session.run("BEGIN")
        try session.run("SELECT Z_PK FROM ZNOTE FOR UPDATE")
        let firstDone = DispatchSemaphore(value: 0)
        let firstError = ErrorBox()
        DispatchQueue.global().async {
            do {
                try early.performAndWait {
                    early.transactionAuthor = "started first"
                    NSEntityDescription.insertNewObject(forEntityName: "Note", into: early).setValue("a", forKey: "title")
                    try early.existingObject(with: held).setValue("changed", forKey: "title")
                    try early.save()
                }
            } catch {
                firstError.set(error)
            }
            firstDone.signal()
        }
        let deadline = Date().addingTimeInterval(20)
        while try database.rows("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
            .first?.first == "0" && Date() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
        }

        // The second save starts later and commits first.
        let late = second.newBackgroundContext()
        late.transactionAuthor = "started second"
        try late.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: late).setValue("b", forKey: "title")
            try late.save()
        }
        let context = reader.newBackgroundContext()
        let before = try history(after: token, in: context)
        #expect(before.map(\.author) == ["started second"])
        token = try #require(before.last?.token)

        // Let the first save go on and commit.
        try session.run("COMMIT")
        while firstDone.wait(timeout: .now()) == .timedOut { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(firstError.error == nil)
        let after = try history(after: token, in: context)
        #expect(after.map(\.author) == ["started first"])
        #expect(after.first?.changes?.count == 2)
        let numbers = (before + after).map(\.transactionNumber)
        #expect(numbers == [2, 3])
    }

    @Test("a history reader in another process sees every transaction of 3 concurrent writer processes exactly once, in commit order")
    func readerInAnotherProcess() async throws {
        let place = try HistoryPlace(NSPostgreSQLStoreType)
        _ = try place.container()
        let location = place.url.absoluteString
        let writers = 3, saves = 20, expected = writers * saves

        let readerOutput = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                    [location = location as String, expected = expected as Int] in
                    try historyReaderProcess(location: location, expected: expected)
                }
                return String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
            }
            for process in 0..<writers {
                group.addTask {
                    await #expect(processExitsWith: .success) {
                        [location = location as String, process = process as Int, saves = saves as Int] in
                        try historyWriterProcess(location: location, process: process, saves: saves)
                    }
                    return nil
                }
            }
            return await group.reduce(into: "") { $0 += $1 ?? "" }
        }

        var numbers: [Int64] = [], authors: [String] = [], wrongSizes: [String] = []
        for line in readerOutput.split(separator: "\n") where line.hasPrefix("seen ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let number = Int64(fields[1]), let changes = Int(fields[3]) else { continue }
            numbers.append(number)
            let author = String(fields[2])
            authors.append(author)
            let parts = author.dropFirst().split(separator: "-").compactMap { Int($0) }
            if parts.count != 2 || notesPerSave(process: parts[0], index: parts[1]) != changes { wrongSizes.append(author) }
        }
        let all = Set((0..<writers).flatMap { process in (0..<saves).map { "w\(process)-\($0)" } })
        #expect(authors.count == expected, "the reader saw \(authors.count) transactions")
        #expect(Set(authors) == all, "missed: \(all.subtracting(authors).sorted())")
        #expect(Set(authors).count == authors.count, "seen twice")
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
        #expect(wrongSizes.isEmpty, "transactions with the wrong number of changes: \(wrongSizes)")
        // Numbers are taken in commit order inside the transactions: no gaps.
        #expect(numbers == (1...Int64(expected)).map { $0 })
    }

    @Test("at SERIALIZABLE, saves of two coordinators recording history at once are retried, and each is recorded once")
    func serializableSavesRecordHistory() throws {
        let place = try HistoryPlace(NSPostgreSQLStoreType)
        _ = try place.container()
        let location = place.url.absoluteString
        let containers = try (0..<2).map { _ in try notesContainer(location, serializable: true) }
        let saves = 15
        let failures = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: containers.count) { writer in
            let context = containers[writer].newBackgroundContext()
            context.performAndWait {
                for index in 0..<saves {
                    context.transactionAuthor = "s\(writer)-\(index)"
                    NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("n", forKey: "title")
                    do { try context.save() } catch { failures.set(error) }
                }
            }
        }
        #expect(failures.error == nil)
        let transactions = try history(after: nil, in: containers[0].viewContext)
        #expect(transactions.count == 2 * saves)
        #expect(Set(transactions.compactMap(\.author)).count == 2 * saves)
        #expect(transactions.map(\.transactionNumber) == (1...Int64(2 * saves)).map { $0 })
    }

    @Test("a remote change notification carries the history token of the transaction another coordinator committed")
    func remoteChangeCarriesToken() async throws {
        let place = try HistoryPlace(NSPostgreSQLStoreType)
        let writer = try place.container()
        let watcher = try notesContainer(place.url.absoluteString, remoteChanges: true)
        let recorder = RemoteChangeRecorder(watcher.persistentStoreCoordinator)
        let context = writer.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<2 {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("n\(index)", forKey: "title")
                try context.save()
            }
        }
        let received = await recorder.wait(for: 2)
        try #require(received.count == 2)
        let tokens = received.compactMap { $0.userInfo[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken }
        try #require(tokens.count == 2)
        let transactions = try history(after: nil, in: watcher.viewContext)
        #expect(transactions.map(\.token) == tokens)
        // Reading after the first notification's token gives exactly the second transaction.
        #expect(try history(after: tokens[0], in: watcher.viewContext).map(\.transactionNumber) == [transactions[1].transactionNumber])
    }
}

/// An error set on one thread and read on another.
private final class ErrorBox: @unchecked Sendable {
    // @unchecked Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: Error?
    func set(_ error: Error) { lock.withLock { stored = error } }
    var error: Error? { lock.withLock { stored } }
}
