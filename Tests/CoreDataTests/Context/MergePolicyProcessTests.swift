import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A container for the counters model, as an app subclasses one.
final class CountersContainer: NSPersistentContainer, @unchecked Sendable {
    /// The container of the counters store at `url`, for `slots` writing contexts in all;
    /// it waits up to 30 seconds for another process's lock.
    static func open(_ url: URL, slots: Int) throws -> CountersContainer {
        let container = CountersContainer(name: "Counters", managedObjectModel: ConflictModels.counters(slots: slots))
        let description = NSPersistentStoreDescription(url: url)
        description.timeout = 30
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}

/// A policy of a built-in type that counts the optimistic-locking conflicts it is given.
final class CountingPolicy: NSMergePolicy, @unchecked Sendable {
    // @unchecked Sendable: `conflicts` is used on the one thread that saves.
    nonisolated(unsafe) var conflicts = 0

    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        conflicts += list.count
        try super.resolve(optimisticLockingConflicts: list)
    }
}

/// One context of a writer process in the stress test: each round it adds one to its own
/// counter slot `c<slot>` and to its editor's `edits`, points the counter's `lastEditor` at
/// its editor, records an `Entry`, and (under the error policy, which it then has to
/// handle itself) adds one to the shared `total`.
final class CounterWriter {
    let context: NSManagedObjectContext
    let slot: Int
    let policy: CountingPolicy
    let counter: NSManagedObject
    let editor: NSManagedObject

    init(container: NSPersistentContainer, slot: Int, policy: NSMergePolicyType) throws {
        context = container.newBackgroundContext()
        // Faults fired after a refresh read the file, not a row another process outdated.
        context.stalenessInterval = 0
        self.policy = CountingPolicy(merge: policy)
        context.mergePolicy = self.policy
        self.slot = slot
        counter = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
        let editors = NSFetchRequest<NSManagedObject>(entityName: "Editor")
        editors.predicate = NSPredicate(format: "name == %@", "e\(slot)")
        editor = try #require(try context.fetch(editors).first)
    }

    private var key: String { "c\(slot)" }
    private func int(_ object: NSManagedObject, _ key: String) -> Int64 { object.value(forKey: key) as? Int64 ?? -1 }

    /// Reads the latest counter and editor, and makes this round's changes.
    func begin(round: Int) {
        context.refresh(counter, mergeChanges: false)
        context.refresh(editor, mergeChanges: false)
        increment(round: round)
    }

    private func increment(round: Int) {
        counter.setValue(int(counter, key) + 1, forKey: key)
        editor.setValue(int(editor, "edits") + 1, forKey: "edits")
        counter.setValue(editor, forKey: "lastEditor")
        if policy.mergeType == .errorMergePolicyType {
            counter.setValue(int(counter, "total") + 1, forKey: "total")
        }
        let record = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
        record.setValue("w\(slot)", forKey: "writer")
        record.setValue(Int64(round), forKey: "number")
        record.setValue(counter, forKey: "counter")
    }

    /// Saves this round, doing what the policy leaves to the app: after the error policy's
    /// `NSManagedObjectMergeError`, roll back, read again and redo the round; after a
    /// rollback policy discarded the increments, make them again on the store's values.
    func finish(round: Int) throws {
        for _ in 0..<1_000 {
            do {
                try context.save()
            } catch let error as NSError where error.code == NSManagedObjectMergeError {
                // Drop the changes and every stale object (the conflict may be on an
                // object changed only through an inverse, like a former lastEditor).
                context.rollback()
                context.refreshAllObjects()
                begin(round: round)
                continue
            }
            guard policy.mergeType == .rollbackMergePolicyType else { return }
            // The rollback policy discarded what this context changed on objects in
            // conflict (the entry, new, was saved): make the increments again.
            if int(counter, key) == Int64(round) && int(editor, "edits") == Int64(round) { return }
            if int(counter, key) != Int64(round) { counter.setValue(int(counter, key) + 1, forKey: key) }
            if int(editor, "edits") != Int64(round) { editor.setValue(int(editor, "edits") + 1, forKey: "edits") }
        }
        throw CocoaError(.managedObjectMerge)
    }

    /// The work of one writer process: `contexts` contexts of one container, slots
    /// `process * contexts ..< (process + 1) * contexts`, `rounds` rounds. In each round
    /// every context makes its changes before any saves, so each context after the first
    /// meets a conflict with its sibling; other processes add their own. Prints
    /// `conflicts=<n>`, the conflicts its policies were given.
    static func run(path: String, process: Int, processes: Int, contexts: Int, rounds: Int, policy: UInt) throws {
        let slots = processes * contexts
        let container = try CountersContainer.open(URL(fileURLWithPath: path), slots: slots)
        let type = try #require(NSMergePolicyType(rawValue: policy))
        let writers = try (0..<contexts).map {
            try CounterWriter(container: container, slot: process * contexts + $0, policy: type)
        }
        for round in 1...rounds {
            for writer in writers { writer.begin(round: round) }
            for writer in writers { try writer.finish(round: round) }
        }
        print("conflicts=\(writers.map(\.policy.conflicts).reduce(0, +))")
    }
}

/// Merge policies against writers in other OS processes on the same SQLite file.
@Suite struct MergePolicyProcessTests {
    static let policyNames = ["error", "storeTrump", "objectTrump", "overwrite", "rollback"]

    @Test("another process saved first: each of Apple's policies resolves the conflict as documented", arguments: policyNames)
    func anotherProcessSavedFirst(policy: String) async throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine)
        note.setValue("Mine", forKey: "title")
        note.setValue("My text", forKey: "body")

        // Another process changes the title and the count, and saves first.
        await #expect(processExitsWith: .success) { [path = shared.url.path as String] in
            let container = try SharedNotes.container(at: URL(fileURLWithPath: path))
            let theirs = container.newBackgroundContext()
            let their = try #require(try theirs.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
            their.setValue("Theirs", forKey: "title")
            their.setValue(7, forKey: "count")
            try theirs.save()
        }
        #expect(try shared.versions() == ["Theirs": 2])

        if policy == "error" {
            let error = try #require(throws: NSError.self) { try mine.save() }
            #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError)
            let conflict = try #require((error.userInfo["conflictList"] as? [NSMergeConflict])?.first)
            #expect(conflict.sourceObject === note)
            #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
            #expect(conflict.cachedSnapshot?["title"] as? String == "Draft")
            #expect(conflict.persistedSnapshot?["title"] as? String == "Theirs")
            #expect(conflict.persistedSnapshot?["count"] as? Int64 == 7)
            #expect(try shared.versions() == ["Theirs": 2])
            return
        }
        try mine.save()
        // title: both changed it; body: only this context; count: only the other process.
        let expected: (title: String, body: String, count: Int64, version: Int64) = switch policy {
        case "storeTrump": ("Theirs", "My text", 7, 3)
        case "objectTrump": ("Mine", "My text", 7, 3)
        case "overwrite": ("Mine", "My text", 1, 3)
        default: ("Theirs", "Text", 7, 2)  // rollback: nothing of this context's is written
        }
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == expected.title)
        #expect(stored.value(forKey: "body") as? String == expected.body)
        #expect(stored.value(forKey: "count") as? Int64 == expected.count)
        #expect(try shared.versions() == [expected.title: expected.version])
        // The context shows what it saved.
        #expect(note.value(forKey: "title") as? String == expected.title)
        #expect(note.value(forKey: "count") as? Int64 == expected.count)
        #expect(!mine.hasChanges)
    }

    @Test("a custom policy's resolve(optimisticLockingConflicts:) settles a conflict with another process")
    func customPolicyAgainstAnotherProcess() async throws {
        /// Keeps this context's title, adds the count both sides meant to add.
        final class AddingPolicy: NSMergePolicy, @unchecked Sendable {
            init() { super.init(merge: .mergeByPropertyStoreTrumpMergePolicyType) }
            override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
                for conflict in list {
                    let note = conflict.sourceObject
                    let mine = note.value(forKey: "count") as? Int64 ?? 0
                    let read = conflict.cachedSnapshot?["count"] as? Int64 ?? 0
                    let title = note.value(forKey: "title")
                    try super.resolve(optimisticLockingConflicts: [conflict])
                    let theirs = note.value(forKey: "count") as? Int64 ?? 0
                    note.setValue(theirs + (mine - read), forKey: "count")
                    note.setValue(title, forKey: "title")
                }
            }
        }
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!
        mine.mergePolicy = AddingPolicy()
        let note = try shared.note(in: mine)
        note.setValue(Int64(1 + 10), forKey: "count")
        note.setValue("Mine", forKey: "title")

        await #expect(processExitsWith: .success) { [path = shared.url.path as String] in
            let container = try SharedNotes.container(at: URL(fileURLWithPath: path))
            let theirs = container.newBackgroundContext()
            let their = try #require(try theirs.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
            their.setValue(Int64(1 + 5), forKey: "count")
            their.setValue("Theirs", forKey: "title")
            try theirs.save()
        }
        try mine.save()
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "count") as? Int64 == 16)
        #expect(stored.value(forKey: "title") as? String == "Mine")
    }

    @Test("3 processes × 2 contexts increment shared counters under each policy: no lost update but overwrite's",
          arguments: policyNames)
    func writersInProcesses(policy: String) async throws {
        let (processes, contexts, rounds) = (3, 2, 5)
        let slots = processes * contexts
        let folder = try TemporaryDirectory()
        let url = folder.file("Counters.sqlite")
        let container = try CountersContainer.open(url, slots: slots)
        let setup = container.newBackgroundContext()
        let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: setup)
        counter.setValue("shared", forKey: "name")
        for slot in 0..<slots {
            NSEntityDescription.insertNewObject(forEntityName: "Editor", into: setup).setValue("e\(slot)", forKey: "name")
        }
        try setup.save()

        let type = try #require(ConflictModels.policies[policy]).mergeType.rawValue
        let outputs = await withTaskGroup(of: String.self) { group in
            for process in 0..<processes {
                group.addTask {
                    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]) {
                        [path = url.path as String, process = process as Int, type = type as UInt] in
                        try CounterWriter.run(path: path, process: process, processes: 3, contexts: 2, rounds: 5, policy: type)
                    }
                    return String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
                        + String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let conflicts = outputs.compactMap { output in
            output.split(separator: "\n").first { $0.hasPrefix("conflicts=") }.flatMap { Int($0.dropFirst(10)) }
        }
        // Every process finished, and each met at least its in-process conflicts.
        #expect(conflicts.count == processes, "\(outputs)")
        #expect(conflicts.allSatisfy { $0 >= rounds * (contexts - 1) }, "\(outputs)")

        let reader = try CountersContainer.open(url, slots: slots).newBackgroundContext()
        let stored = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first)
        let values = (0..<slots).map { stored.value(forKey: "c\($0)") as? Int64 ?? -1 }
        if policy == "overwrite" {
            // Overwrite writes whole objects: a sibling's stale slot can replace a newer one.
            #expect(values.allSatisfy { (0...Int64(rounds)).contains($0) }, "\(values)")
        } else {
            #expect(values == Array(repeating: Int64(rounds), count: slots))
        }
        if policy == "error" {
            #expect(stored.value(forKey: "total") as? Int64 == Int64(slots * rounds))
        }
        // Only an editor's own context changes its `edits`; but another context that points
        // `lastEditor` elsewhere changes the editor too (its inverse `counters`), and
        // overwrite then writes that context's whole, older copy of it.
        let editors = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Editor"))
        let edits = editors.map { $0.value(forKey: "edits") as? Int64 ?? -1 }
        if policy == "overwrite" {
            #expect(edits.allSatisfy { (1...Int64(rounds)).contains($0) }, "\(edits)")
        } else {
            #expect(edits == Array(repeating: Int64(rounds), count: slots))
        }
        #expect(stored.value(forKey: "lastEditor") is NSManagedObject)
        // One entry per round and context, each exactly once, all on the counter.
        let entries = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Entry"))
        let pairs = entries.map { "\($0.value(forKey: "writer") as? String ?? "?")/\($0.value(forKey: "number") as? Int64 ?? 0)" }
        #expect(pairs.count == slots * rounds && Set(pairs).count == slots * rounds, "\(pairs.sorted())")
        #expect((stored.value(forKey: "entries") as? Set<NSManagedObject>)?.count == slots * rounds)
    }
}
