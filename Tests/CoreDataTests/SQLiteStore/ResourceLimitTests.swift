import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Resource limits (issue 17 item 5): a full disk, a store that turns read-only while open,
// 10 000 open contexts, a blob past SQLite's size limit and a large one under it, a 1 GiB
// blob kept as a file beside the store, and a 100 000-component key path. Each must give a clear error (or work), lose nothing that was
// saved, and never crash. Each test prints one `resource limit NAME: ..., N checks, F failures`
// line however it ends (CI's reliability summary adds them up: scripts/reliability-summary.sh).

/// Notes with a blob, and a file that allows external storage, one entity.
private let limitModel: NSManagedObjectModel = {
    let file = attribute("file", .binaryDataAttributeType)
    file.allowsExternalBinaryDataStorage = true
    let note = entity("Note", [
        attribute("title", .stringAttributeType), attribute("body", .stringAttributeType),
        attribute("blob", .binaryDataAttributeType), attribute("number", .integer64AttributeType), file,
    ])
    let next = relationship("next", to: note), previous = relationship("previous", to: note)
    connect(next, previous)
    note.properties += [next, previous]
    let model = NSManagedObjectModel()
    model.entities = [note]
    return model
}()

/// A container over `Limits.sqlite` in `folder`.
private func limitContainer(_ folder: TemporaryDirectory) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Limits", managedObjectModel: limitModel)
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.file("Limits.sqlite"))]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

private func closeStores(_ container: NSPersistentContainer) {
    let coordinator = container.persistentStoreCoordinator
    for store in coordinator.persistentStores { try? coordinator.remove(store) }
}

private func insertNotes(_ count: Int, prefix: String, body: String = "", into context: NSManagedObjectContext) {
    for index in 0..<count {
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("\(prefix)\(index)", forKey: "title")
        note.setValue(body, forKey: "body")
        note.setValue(index, forKey: "number")
    }
}

/// The notes in the store file, counted beside Core Data, and SQLite's integrity check.
private func fileState(_ folder: TemporaryDirectory) throws -> (notes: Int64, integrity: String) {
    let database = try RawDatabase(folder.file("Limits.sqlite"))
    return (try database.scalar("SELECT COUNT(*) FROM ZNOTE") as? Int64 ?? -1,
            try database.scalar("PRAGMA integrity_check") as? String ?? "")
}

/// The SQLite result code under a Core Data error.
private func sqliteCode(_ error: Error) -> Int? {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    return underlying?.domain == NSSQLiteErrorDomain ? underlying?.code : nil
}

/// One resource limit's checks, counted, and its `resource limit NAME: ...` line, printed when
/// the test ends however it ends (`defer { report.finish() }`, a thrown error included), so that a
/// failure is counted in the line rather than leaving the line out.
private final class LimitReport {
    let name: String
    /// What the test found, set once it got to the end; nil when a thrown error ended it.
    var outcome: String?
    private var checks = 0, failures = 0

    init(_ name: String) { self.name = name }

    /// `#expect`, counted: a false condition records an issue and one failure.
    func check(_ condition: Bool, _ message: @autoclosure () -> String,
               sourceLocation: SourceLocation = #_sourceLocation) {
        checks += 1
        if !condition {
            failures += 1
            Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation)
        }
    }

    /// Prints the line; call it in a `defer`.
    func finish() {
        let failed = outcome == nil ? failures + 1 : failures
        print("resource limit \(name): \(outcome ?? "stopped by a thrown error"); \(checks) checks, \(failed) failures")
    }
}

@Suite struct ResourceLimitTests {
    @Test("a full disk fails the save with a clear error, keeps the changes, and they save once there is room")
    func diskFull() throws {
        let report = LimitReport("disk full")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let plan = CrashPlan(folder: folder.url)
        let container = try limitContainer(folder)
        let context = container.newBackgroundContext()
        var error: NSError?
        try context.performAndWait {
            insertNotes(10, prefix: "kept", into: context)
            try context.save()
            plan.arm(.full, at: 1)   // every write from now on: SQLITE_FULL
            insertNotes(400, prefix: "big", body: String(repeating: "x", count: 2000), into: context)
            do { try context.save() } catch let failure as NSError { error = failure }
            report.check(context.hasChanges, "the failed save dropped the context's changes")
            plan.arm(.count)         // room again
            try context.save()
        }
        let failure = try #require(error, "the save succeeded on a full disk")
        report.check(failure.domain == NSCocoaErrorDomain, "domain \(failure.domain)")
        report.check(failure.code == NSPersistentStoreSaveError, "code \(failure.code)")
        report.check(sqliteCode(failure) == 13, "not SQLITE_FULL: \(failure)")
        report.check(failure.localizedDescription.contains("Limits.sqlite"), "\(failure.localizedDescription)")
        closeStores(container)
        let state = try fileState(folder)
        report.check(state == (410, "ok"), "\(state)")
        report.outcome = "save refused (\(failure.domain) \(failure.code), SQLite \(sqliteCode(failure) ?? 0)), "
            + "\(max(0, 410 - state.notes)) saved objects lost, retry saved \(state.notes - 10)"
    }

    @Test("a store whose file system turns read-only while open fails saves clearly and keeps every saved object")
    func readOnlyMidRun() throws {
        let report = LimitReport("read-only mid-run")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let plan = CrashPlan(folder: folder.url)
        let container = try limitContainer(folder)
        let context = container.newBackgroundContext()
        var errors: [NSError] = []
        try context.performAndWait {
            insertNotes(20, prefix: "kept", into: context)
            try context.save()
            // From here every write, sync, truncate and delete fails (EROFS-like I/O errors).
            plan.arm(.crash, at: 1)
            for round in 0..<3 {
                insertNotes(5, prefix: "round\(round)-", into: context)
                do { try context.save() } catch let failure as NSError { errors.append(failure) }
            }
            // Reading still works, and sees the saved objects only.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "title BEGINSWITH 'kept'")
            let kept = try context.count(for: request)
            report.check(kept == 20, "\(kept) saved objects read back, not 20")
        }
        closeStores(container)
        try plan.disarm()
        report.check(errors.count == 3, "a save succeeded on a read-only file system")
        for error in errors {
            report.check(error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreSaveError, "\(error)")
        }
        let state = try fileState(folder)
        report.check(state == (20, "ok"), "\(state)")
        // Writable again: the store opens and saves.
        let reopened = try limitContainer(folder)
        let again = reopened.newBackgroundContext()
        try again.performAndWait {
            insertNotes(1, prefix: "later", into: again)
            try again.save()
        }
        closeStores(reopened)
        let later = try fileState(folder)
        report.check(later == (21, "ok"), "after reopening: \(later)")
        report.outcome = "\(errors.count) saves refused (\(NSCocoaErrorDomain) \(NSPersistentStoreSaveError)), "
            + "\(max(0, 20 - state.notes)) saved objects lost, saves again once writable"
    }

    @Test("10 000 contexts open at once on one coordinator each save an object")
    func tenThousandContexts() throws {
        let report = LimitReport("10 000 contexts")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let container = try limitContainer(folder)
        let contexts = (0..<10_000).map { _ in container.newBackgroundContext() }
        for (index, context) in contexts.enumerated() {
            try context.performAndWait {
                insertNotes(1, prefix: "c\(index)-", into: context)
                try context.save()
            }
        }
        // Every context still open sees every object.
        let counts = try [contexts[0], contexts[4_999], contexts[9_999]].map { context in
            try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) }
        }
        report.check(counts == [10_000, 10_000, 10_000], "\(counts)")
        closeStores(container)
        let state = try fileState(folder)
        report.check(state == (10_000, "ok"), "\(state)")
        report.outcome = "\(contexts.count) contexts open, \(state.notes) saves in the store, "
            + "\(counts.map(String.init).joined(separator: "/")) objects read back by 3 of them"
    }

    @Test("a blob past SQLite's length limit is refused with a clear error; a 256 MiB blob round-trips")
    func hugeBlob() throws {
        let report = LimitReport("blob")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let container = try limitContainer(folder)
        let context = container.newBackgroundContext()
        var refusal: NSError?
        // 1 GiB, never touched (zero pages): SQLite refuses it before copying it
        // (SQLITE_MAX_LENGTH is 1 000 000 000 bytes, below 1 GiB).
        try context.performAndWait {
            insertNotes(1, prefix: "kept", into: context)
            try context.save()
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("huge", forKey: "title")
            note.setValue(Data(count: 1 << 30), forKey: "blob")
            do { try context.save() } catch let failure as NSError { refusal = failure }
            context.rollback()
        }
        let failure = try #require(refusal, "a 1 GiB blob was saved past SQLite's limit")
        report.check(failure.domain == NSCocoaErrorDomain && failure.code == NSPersistentStoreSaveError, "\(failure)")
        report.check(sqliteCode(failure) == 18, "not SQLITE_TOOBIG: \(failure)")
        // A large blob under the limit goes in and comes back byte for byte.
        let size = 256 << 20
        var blob = Data(count: size)
        blob.withUnsafeMutableBytes { bytes in
            var generator = SplitMix64(seed: 17)
            let words = bytes.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        var roundTripped = false
        try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("large", forKey: "title")
            note.setValue(blob, forKey: "blob")
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "title == 'large'")
            let read = try #require(try context.fetch(request).first?.value(forKey: "blob") as? Data)
            roundTripped = read == blob
            report.check(roundTripped, "the 256 MiB blob came back different")
            context.reset()
        }
        closeStores(container)
        let state = try fileState(folder)
        report.check(state == (2, "ok"), "\(state)")
        report.outcome = "1 GiB refused (SQLite \(sqliteCode(failure) ?? 0), past SQLITE_MAX_LENGTH), "
            + "256 MiB \(roundTripped ? "saved and read back byte for byte" : "saved but read back different"), "
            + "\(max(0, 2 - state.notes)) lost"
    }

    @Test("a 1 GiB blob that allows external storage is saved as a file beside the store, read back byte for byte, and removed with its object")
    func gibibyteExternalBlob() throws {
        let report = LimitReport("external blob")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let container = try limitContainer(folder)
        let context = container.newBackgroundContext()
        // 1 GiB of 1 MiB random blocks, each stamped with its index, so that a block read
        // back out of place differs.
        let block = 1 << 20, blocks = 1 << 10
        var pattern = Data(count: block)
        pattern.withUnsafeMutableBytes { bytes in
            var generator = SplitMix64(seed: 29)
            let words = bytes.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        var file = Data(capacity: block * blocks)
        for index in 0..<blocks {
            var stamped = pattern
            stamped.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(index), as: UInt64.self) }
            file.append(stamped)
        }
        let externalFolder = folder.file(".Limits_SUPPORT/_EXTERNAL_DATA")
        var roundTripped = false, filesAfterSave: [String] = [], filesAfterDelete: [String] = []
        var savedFileSize: Int?
        try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("film", forKey: "title")
            note.setValue(file, forKey: "file")
            try context.save()
            context.reset()
            filesAfterSave = (try? FileManager.default.contentsOfDirectory(atPath: externalFolder.path)) ?? []
            if let name = filesAfterSave.first {
                let attributes = try? FileManager.default.attributesOfItem(atPath: externalFolder.appendingPathComponent(name).path)
                savedFileSize = (attributes?[.size] as? NSNumber)?.intValue
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "title == 'film'")
            let saved = try #require(try context.fetch(request).first)
            let read = try #require(saved.value(forKey: "file") as? Data)
            roundTripped = read == file
            report.check(roundTripped, "the 1 GiB file came back different")
            context.delete(saved)
            try context.save()
            filesAfterDelete = (try? FileManager.default.contentsOfDirectory(atPath: externalFolder.path)) ?? []
        }
        report.check(filesAfterSave.count == 1, "external files after the save: \(filesAfterSave)")
        report.check(savedFileSize == block * blocks, "the external file holds \(savedFileSize ?? -1) bytes")
        report.check(filesAfterDelete.isEmpty, "external files left after the delete: \(filesAfterDelete)")
        closeStores(container)
        let state = try fileState(folder)
        report.check(state == (0, "ok"), "\(state)")
        report.outcome = "1 GiB \(roundTripped ? "saved as a file and read back byte for byte" : "saved but read back different"), "
            + "\(filesAfterDelete.count) files left after its delete"
    }

    @Test("a 100 000-component key path is refused or answered, never a crash")
    func deepKeyPath() throws {
        let report = LimitReport("100 000-deep key path")
        defer { report.finish() }
        let folder = try TemporaryDirectory()
        let container = try limitContainer(folder)
        let context = container.newBackgroundContext()
        let path = Array(repeating: "next", count: 99_999).joined(separator: ".") + ".title"
        var outcomes: [String] = []
        try context.performAndWait {
            insertNotes(3, prefix: "n", into: context)
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            let notes = try context.fetch(request)
            // Key-value coding: a nil on the way answers nil.
            report.check(notes[0].value(forKeyPath: path) == nil, "value(forKeyPath:) is not nil")
            outcomes.append("value(forKeyPath:) nil")
            // A predicate: parsed, evaluated in memory, compiled to SQL or refused.
            let predicate = NSPredicate(format: "\(path) == 'x'")
            report.check(predicate.evaluate(with: notes[0]) == false, "the predicate matched")
            outcomes.append("evaluate false")
            request.predicate = predicate
            do {
                let found = try context.fetch(request)
                report.check(found.isEmpty, "the fetch found \(found.count) notes")
                outcomes.append("fetch empty")
            } catch let failure as NSError {
                report.check(failure.domain == NSCocoaErrorDomain, "\(failure)")
                outcomes.append("fetch refused (\(failure.domain) \(failure.code))")
            }
            // Sorting by it.
            let sorted = NSFetchRequest<NSManagedObject>(entityName: "Note")
            sorted.sortDescriptors = [NSSortDescriptor(key: path, ascending: true)]
            do {
                _ = try context.fetch(sorted)
                outcomes.append("sorted fetch answered")
            } catch let failure as NSError {
                outcomes.append("sorted fetch refused (\(failure.domain) \(failure.code))")
            }
        }
        closeStores(container)
        let state = try fileState(folder)
        report.check(state == (3, "ok"), "\(state)")
        report.outcome = outcomes.joined(separator: ", ") + ", no crash"
    }
}
