import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// Where the two contexts of a stale-read test live: both on one coordinator, or each on a
/// coordinator of its own over the same store (two apps, or two processes, on one SQLite
/// file or one PostgreSQL database).
struct StaleReaderSetup: Sendable, CustomTestStringConvertible {
    let storeType: String
    let twoCoordinators: Bool

    var testDescription: String { "\(storeType), \(twoCoordinators ? "two coordinators" : "one coordinator")" }

    /// Every store type on one coordinator, and the stores that outlive a coordinator
    /// (SQLite, and PostgreSQL when the test cluster is there) on two.
    static let all: [StaleReaderSetup] =
        allStoreTypes.map { StaleReaderSetup(storeType: $0, twoCoordinators: false) }
        + allStoreTypes.filter { $0 != NSInMemoryStoreType }.map { StaleReaderSetup(storeType: $0, twoCoordinators: true) }
}

/// A note that two contexts read; the writer then saves a change and the reader, still
/// holding the object it read, changes it and saves.
///
/// The note is seeded as "Draft" / "Text" / count 1, owned by Ann, tagged red, with one
/// entry "first" (``ConflictModels/notes()``).
final class StaleReaderScene {
    let stack: TestStack
    /// The reader's coordinator: the stack's, or a second one on the same store.
    let readerCoordinator: NSPersistentStoreCoordinator
    let writer: NSManagedObjectContext
    let reader: NSManagedObjectContext
    let noteID: NSManagedObjectID
    /// The note as the reader read it, held as an app holds what it shows: a context keeps
    /// only changed objects alive, and one it let go of is read afresh next time.
    let readerNote: NSManagedObject

    init(_ setup: StaleReaderSetup, readerPolicy: NSMergePolicy = .error) throws {
        stack = try TestStack(storeType: setup.storeType, model: ConflictModels.notes())
        if setup.twoCoordinators {
            readerCoordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
            try readerCoordinator.addPersistentStore(ofType: setup.storeType, configurationName: nil,
                                                     at: stack.storeURL, options: nil)
        } else {
            readerCoordinator = stack.coordinator
        }
        writer = stack.newContext()
        reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = readerCoordinator
        reader.mergePolicy = readerPolicy
        let writer = self.writer, reader = self.reader
        noteID = try writer.performAndWait {
            let note = ConflictModels.insertDraftNote(into: writer)
            try writer.save()
            return note.objectID
        }
        readerNote = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            let note = try #require(try reader.fetch(request).first)
            _ = note.value(forKey: "title")
            _ = note.value(forKey: "tags")
            return note
        }
    }

    /// Runs `change` on the writer's copy of the note and saves it.
    func writerSaves(_ change: (NSManagedObject, NSManagedObjectContext) throws -> Void) throws {
        let writer = self.writer, id = noteID
        try writer.performAndWait {
            try change(try writer.existingObject(with: id), writer)
            try writer.save()
        }
    }

    /// Runs `change` on the reader's held note and saves; returns the save's error, if any.
    func readerSaves(_ change: (NSManagedObject, NSManagedObjectContext) throws -> Void) throws -> NSError? {
        let reader = self.reader, note = readerNote
        return try reader.performAndWait {
            try change(note, reader)
            do {
                try reader.save()
                return nil
            } catch {
                return error as NSError
            }
        }
    }

    /// The note as a new context of the writer's coordinator reads it from the store: its
    /// attributes and the names of its tags and the texts of its entries; nil when it is gone.
    func stored() throws -> (values: [String: Any], tags: Set<String>, entries: Set<String>)? {
        let context = stack.newContext(), id = noteID
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            guard let note = try context.fetch(request).first(where: { $0.objectID == id }) else { return nil }
            return (note.dictionaryWithValues(forKeys: ["title", "body", "count"]),
                    Self.names(note, "tags", "name"), Self.names(note, "entries", "text"))
        }
    }

    /// The optimistic-locking conflicts an error carries.
    static func conflicts(_ error: NSError?) -> [NSMergeConflict] {
        error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
    }

    /// `key` of each member of a to-many relationship.
    static func names(_ object: NSManagedObject, _ relationship: String, _ key: String) -> Set<String> {
        Set((object.value(forKey: relationship) as? Set<NSManagedObject> ?? []).compactMap { $0.value(forKey: key) as? String })
    }

    /// The object of `entity` whose `name` is `name` in `context`, inserted if there is none.
    static func named(_ entity: String, _ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "name == %@", name)
        if let found = try context.fetch(request).first { return found }
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValue(name, forKey: "name")
        return object
    }
}

/// A context that read an object, then saves a change to it after another context (of the
/// same coordinator, or of another coordinator on the same store) saved one: the version it
/// read is checked against the store's, on every store type, and the merge policy decides.
@Suite struct StaleReaderTests {
    @Test("a context that read the note before another context saved it is in conflict when it saves: NSManagedObjectMergeError naming the note, read at version 1, now 2",
          arguments: StaleReaderSetup.all)
    func errorPolicy(setup: StaleReaderSetup) throws {
        let scene = try StaleReaderScene(setup)
        try scene.writerSaves { note, _ in note.setValue("Tools", forKey: "title") }
        let error = try scene.readerSaves { note, _ in note.setValue("Garden", forKey: "title") }

        #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSManagedObjectMergeError)
        let conflicts = StaleReaderScene.conflicts(error)
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.sourceObject === scene.readerNote)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        if setup.twoCoordinators {
            // Between the reader's coordinator (its cache, as read) and the store.
            #expect(conflict.objectSnapshot == nil)
            #expect(conflict.cachedSnapshot?["title"] as? String == "Draft")
            #expect(conflict.persistedSnapshot?["title"] as? String == "Tools")
        } else {
            // Between the reader (its snapshot, as read) and the coordinator's cache.
            #expect(conflict.objectSnapshot?["title"] as? String == "Draft")
            #expect(conflict.cachedSnapshot?["title"] as? String == "Tools")
            #expect(conflict.persistedSnapshot == nil)
        }
        #expect(try scene.stored()?.values["title"] as? String == "Tools")
        // Nothing was written, and the reader still holds its change.
        scene.reader.performAndWait {
            #expect(scene.readerNote.value(forKey: "title") as? String == "Garden" && scene.readerNote.isUpdated)
        }
    }

    @Test("error policy: a note the writer deleted is a conflict with version 0 and no persisted snapshot",
          arguments: StaleReaderSetup.all)
    func deletedByWriter(setup: StaleReaderSetup) throws {
        let scene = try StaleReaderScene(setup)
        try scene.writerSaves { note, writer in writer.delete(note) }
        let error = try scene.readerSaves { note, _ in note.setValue("Garden", forKey: "title") }

        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = try #require(StaleReaderScene.conflicts(error).first { $0.sourceObject === scene.readerNote })
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 0)
        #expect(conflict.persistedSnapshot == nil)
        #expect(conflict.objectSnapshot?["title"] as? String == "Draft")
        #expect(try scene.stored() == nil)
    }

    @Test("a reader that deletes the note the writer changed since is in conflict: the writer's change is not discarded unseen",
          arguments: StaleReaderSetup.all)
    func staleDeletion(setup: StaleReaderSetup) throws {
        let scene = try StaleReaderScene(setup)
        try scene.writerSaves { note, _ in note.setValue("Tools", forKey: "title") }
        let error = try scene.readerSaves { note, reader in reader.delete(note) }

        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = try #require(StaleReaderScene.conflicts(error).first { $0.sourceObject === scene.readerNote })
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(try scene.stored()?.values["title"] as? String == "Tools")
    }

    @Test("a note the writer deleted stays deleted under every merge policy but error; the reader's change is dropped",
          arguments: StaleReaderSetup.all, ["storeTrump", "objectTrump", "overwrite", "rollback"])
    func deletionStands(setup: StaleReaderSetup, policy: String) throws {
        let scene = try StaleReaderScene(setup, readerPolicy: ConflictModels.policies[policy]!)
        try scene.writerSaves { note, writer in writer.delete(note) }
        let error = try scene.readerSaves { note, _ in note.setValue("Garden", forKey: "title") }

        #expect(error == nil)
        #expect(try scene.stored() == nil)
        #expect(scene.reader.performAndWait { !scene.reader.hasChanges })
    }

    @Test("a to-many change by the writer (a tag added, an entry added) moves the note's version: the reader's save is in conflict",
          arguments: StaleReaderSetup.all, ["tags", "entries"])
    func writerChangedToMany(setup: StaleReaderSetup, relationship: String) throws {
        let scene = try StaleReaderScene(setup)
        try scene.writerSaves { note, writer in
            if relationship == "tags" {
                note.mutableSetValue(forKey: "tags").add(try StaleReaderScene.named("Tag", "green", in: writer))
            } else {
                let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: writer)
                entry.setValue("theirs", forKey: "text")
                note.mutableSetValue(forKey: "entries").add(entry)
            }
        }
        let error = try scene.readerSaves { note, _ in note.setValue("Garden", forKey: "title") }

        #expect(error?.code == NSManagedObjectMergeError)
        let conflict = try #require(StaleReaderScene.conflicts(error).first { $0.sourceObject === scene.readerNote })
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(try scene.stored()?.values["title"] as? String == "Draft")
    }

    @Test("a to-many change by the reader over the writer's newer note is in conflict too",
          arguments: StaleReaderSetup.all)
    func readerChangedToMany(setup: StaleReaderSetup) throws {
        let scene = try StaleReaderScene(setup)
        try scene.writerSaves { note, _ in note.setValue("Tools", forKey: "title") }
        let error = try scene.readerSaves { note, reader in
            note.mutableSetValue(forKey: "tags").add(try StaleReaderScene.named("Tag", "blue", in: reader))
        }

        #expect(error?.code == NSManagedObjectMergeError)
        #expect(StaleReaderScene.conflicts(error).contains { $0.sourceObject === scene.readerNote })
        #expect(try scene.stored()?.tags == ["red"])
    }

    /// What each merging policy leaves in the store when the writer changed title and count
    /// and tagged the note green, and the reader changed title and body, tagged it blue and
    /// took red off: (title, body, count, tags).
    static let outcomes: [String: (String, String, Int64, Set<String>)] = [
        "storeTrump": ("Theirs", "My text", 7, ["green", "blue"]),
        "objectTrump": ("Mine", "My text", 7, ["green", "blue"]),
        "overwrite": ("Mine", "My text", 1, ["green", "blue"]),
        "rollback": ("Theirs", "Text", 7, ["red", "green"]),
    ]

    @Test("each merging policy settles the reader's stale save as on SQLite, property by property, to-many members merged",
          arguments: StaleReaderSetup.all, ["storeTrump", "objectTrump", "overwrite", "rollback"])
    func mergingPolicies(setup: StaleReaderSetup, policy: String) throws {
        let scene = try StaleReaderScene(setup, readerPolicy: ConflictModels.policies[policy]!)
        try scene.writerSaves { note, writer in
            note.setValue("Theirs", forKey: "title")
            note.setValue(Int64(7), forKey: "count")
            note.mutableSetValue(forKey: "tags").add(try StaleReaderScene.named("Tag", "green", in: writer))
        }
        let error = try scene.readerSaves { note, reader in
            note.setValue("Mine", forKey: "title")
            note.setValue("My text", forKey: "body")
            let tags = note.mutableSetValue(forKey: "tags")
            tags.add(try StaleReaderScene.named("Tag", "blue", in: reader))
            tags.remove(try StaleReaderScene.named("Tag", "red", in: reader))
        }
        #expect(error == nil)

        let (title, body, count, tags) = try #require(Self.outcomes[policy])
        let stored = try #require(try scene.stored())
        #expect(stored.values["title"] as? String == title)
        #expect(stored.values["body"] as? String == body)
        #expect(stored.values["count"] as? Int64 == count)
        #expect(stored.tags == tags)
        #expect(stored.entries == ["first"])
        // The reader's object shows what the store now holds.
        scene.reader.performAndWait {
            let note = scene.readerNote
            #expect(note.value(forKey: "title") as? String == title)
            #expect(note.value(forKey: "count") as? Int64 == count)
            #expect(StaleReaderScene.names(note, "tags", "name") == tags)
            #expect(!scene.reader.hasChanges)
        }
    }

    @Test("a reader that refreshes the note before changing it sees the writer's save, and its save goes through",
          arguments: StaleReaderSetup.all)
    func refreshedReader(setup: StaleReaderSetup) throws {
        let scene = try StaleReaderScene(setup)
        // Refreshed values are read from the store, not from the reader's coordinator's
        // cache (which is stale when the writer has a coordinator of its own).
        scene.reader.stalenessInterval = 0
        try scene.writerSaves { note, _ in note.setValue("Tools", forKey: "title") }
        let error = try scene.readerSaves { note, reader in
            reader.refresh(note, mergeChanges: false)
            #expect(note.value(forKey: "title") as? String == "Tools")
            note.setValue("Garden", forKey: "body")
        }
        #expect(error == nil)
        let stored = try #require(try scene.stored())
        #expect(stored.values["title"] as? String == "Tools" && stored.values["body"] as? String == "Garden")
    }

    @Test("a context that let go of the note it read reads the writer's save afresh, and its save is not in conflict",
          arguments: allStoreTypes)
    func releasedReader(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConflictModels.notes())
        let writer = stack.newContext(), reader = stack.newContext()
        let id = try writer.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer)
            note.setValue("Draft", forKey: "title")
            try writer.save()
            return note.objectID
        }
        try reader.performAndWait { _ = try reader.existingObject(with: id).value(forKey: "title") }
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("Tools", forKey: "title")
            try writer.save()
        }
        // An unchanged object nothing holds leaves its context (retainsRegisteredObjects is
        // false): no stale copy is left, so the reader sees "Tools" before it changes it.
        let seen = try reader.performAndWait { () -> String? in
            let note = try reader.existingObject(with: id)
            let seen = note.value(forKey: "title") as? String
            note.setValue("Garden", forKey: "title")
            try reader.save()
            return seen
        }
        #expect(seen == "Tools")
        let check = stack.newContext()
        #expect(try check.performAndWait { try check.existingObject(with: id).value(forKey: "title") as? String } == "Garden")
    }
}
