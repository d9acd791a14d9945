import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A container for the notes model, as an app subclasses one.
final class NotesContainer: NSPersistentContainer, @unchecked Sendable {}

/// One store file opened by two containers, each with its own coordinator: what two apps
/// (or two processes) on one file look like to each other.
final class SharedNotes {
    let folder: TemporaryDirectory
    let url: URL
    let model = ConflictModels.notes()
    /// The first app and the second; each context of a test comes from one of them.
    var first: NotesContainer!
    var second: NotesContainer!
    /// A background context of each app, as each app keeps one for its work.
    var mine: NSManagedObjectContext!
    var theirs: NSManagedObjectContext!

    init() throws {
        folder = try TemporaryDirectory()
        url = folder.file("Notes.sqlite")
        first = try container()
        second = try container()
        mine = first.newBackgroundContext()
        theirs = second.newBackgroundContext()
    }

    func container() throws -> NotesContainer {
        try Self.container(at: url, model: model)
    }

    /// A container for the notes store at `url`, as each app (or process) opens it: it
    /// waits up to 30 seconds for another writer's lock.
    static func container(at url: URL, model: NSManagedObjectModel = ConflictModels.notes()) throws -> NotesContainer {
        let container = NotesContainer(name: "Notes", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.timeout = 30
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Saves a note "Draft" / "Text" / 1 owned by Ann, tagged red, with one entry.
    func seed() throws {
        let context = first.newBackgroundContext()
        ConflictModels.insertDraftNote(into: context)
        try context.save()
    }

    /// The note, fetched (and realized) in `context`.
    func note(in context: NSManagedObjectContext, titled title: String? = nil) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        if let title { request.predicate = NSPredicate(format: "title == %@", title) }
        let note = try #require(try context.fetch(request).first)
        _ = note.value(forKey: "title")
        return note
    }

    /// The object of `entity` named `name` in `context`, inserted if there is none.
    func named(_ entity: String, _ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "name == %@", name)
        if let found = try context.fetch(request).first { return found }
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValue(name, forKey: "name")
        return object
    }

    /// The contexts of a third app that reads the file, kept alive as long as the test
    /// uses their objects (an object does not keep its context alive).
    private var readers: [NSManagedObjectContext] = []

    /// A new context of a third app on the file.
    func reader() throws -> NSManagedObjectContext {
        let context = try container().newBackgroundContext()
        readers.append(context)
        return context
    }

    /// The note's row as a third app reads it.
    func storedNote() throws -> NSManagedObject? {
        try note(in: reader())
    }

    /// `Z_OPT` of the notes, by title, read from the file.
    func versions() throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for row in try RawDatabase(url).rows("SELECT ZTITLE, Z_OPT FROM ZNOTE") {
            result[row[0] as? String ?? "?"] = row[1] as? Int64
        }
        return result
    }

    /// The names of the members of a to-many relationship.
    static func names(_ object: NSManagedObject, _ key: String) -> Set<String> {
        Set((object.value(forKey: key) as? Set<NSManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String })
    }
}

/// A policy that records what the save called, then does what its type does.
private final class RecordingPolicy: NSMergePolicy, @unchecked Sendable {
    nonisolated(unsafe) var calls: [String] = []
    nonisolated(unsafe) var lockingConflicts: [NSMergeConflict] = []

    init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

    override func resolve(mergeConflicts list: [Any]) throws {
        calls.append("mergeConflicts(\(list.count))")
        try super.resolve(mergeConflicts: list)
    }

    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        calls.append("optimisticLockingConflicts(\(list.count))")
        lockingConflicts += list
        try super.resolve(optimisticLockingConflicts: list)
    }

    override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        calls.append("constraintConflicts(\(list.count))")
        try super.resolve(constraintConflicts: list)
    }
}

/// An error policy that settles optimistic-locking conflicts itself: it keeps the
/// context's changes on top of the store's row and adds one to `count`.
private final class RefreshingPolicy: NSMergePolicy, @unchecked Sendable {
    init() { super.init(merge: .errorMergePolicyType) }

    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        for conflict in list {
            let object = conflict.sourceObject
            object.managedObjectContext?.refresh(object, mergeChanges: true)
            object.setValue((object.value(forKey: "count") as? Int64 ?? 0) + 100, forKey: "count")
        }
    }
}

/// A policy that leaves every conflict as it is.
private final class StubbornPolicy: NSMergePolicy, @unchecked Sendable {
    nonisolated(unsafe) var rounds = 0
    init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws { rounds += 1 }
}

@Suite struct MergePolicyTests {
    // MARK: - The API

    @Test("NSMergePolicyType has Apple's raw values and each built-in policy reports its type")
    func policyTypes() {
        #expect(NSMergePolicyType.errorMergePolicyType.rawValue == 0)
        #expect(NSMergePolicyType.mergeByPropertyStoreTrumpMergePolicyType.rawValue == 1)
        #expect(NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType.rawValue == 2)
        #expect(NSMergePolicyType.overwriteMergePolicyType.rawValue == 3)
        #expect(NSMergePolicyType.rollbackMergePolicyType.rawValue == 4)
        #expect(NSMergePolicy.error.mergeType == .errorMergePolicyType)
        #expect(NSMergePolicy.mergeByPropertyStoreTrump.mergeType == .mergeByPropertyStoreTrumpMergePolicyType)
        #expect(NSMergePolicy.mergeByPropertyObjectTrump.mergeType == .mergeByPropertyObjectTrumpMergePolicyType)
        #expect(NSMergePolicy.overwrite.mergeType == .overwriteMergePolicyType)
        #expect(NSMergePolicy.rollback.mergeType == .rollbackMergePolicyType)
        #expect(NSMergePolicy(merge: .overwriteMergePolicyType).mergeType == .overwriteMergePolicyType)
        #expect(RecordingPolicy().mergeType == .mergeByPropertyObjectTrumpMergePolicyType)
    }

    @Test("the global policy constants are the class's shared policies, and a context starts with the error policy")
    func globalConstants() {
        #expect(NSErrorMergePolicy as? NSMergePolicy === NSMergePolicy.error)
        #expect(NSMergeByPropertyStoreTrumpMergePolicy as? NSMergePolicy === NSMergePolicy.mergeByPropertyStoreTrump)
        #expect(NSMergeByPropertyObjectTrumpMergePolicy as? NSMergePolicy === NSMergePolicy.mergeByPropertyObjectTrump)
        #expect(NSOverwriteMergePolicy as? NSMergePolicy === NSMergePolicy.overwrite)
        #expect(NSRollbackMergePolicy as? NSMergePolicy === NSMergePolicy.rollback)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect((context.mergePolicy as? NSMergePolicy)?.mergeType == .errorMergePolicyType)
    }

    // MARK: - The error policy and the conflicts it reports

    @Test("another app saved first: NSManagedObjectMergeError with the cached row and the file's row")
    func errorPolicyAcrossCoordinators() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        let note = try shared.note(in: mine), their = try shared.note(in: theirs)
        their.setValue("Theirs", forKey: "title")
        try theirs.save()
        note.setValue("Mine", forKey: "body")

        let error = try #require(throws: NSError.self) { try mine.save() }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError)
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
        #expect(conflicts.count == 1)
        let conflict = conflicts[0]
        #expect(conflict.sourceObject === note)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.objectSnapshot == nil)
        #expect(conflict.cachedSnapshot?["title"] as? String == "Draft")
        #expect(conflict.persistedSnapshot?["title"] as? String == "Theirs")
        #expect(conflict.persistedSnapshot?["body"] as? String == "Text")
        #expect(conflict.persistedSnapshot?["count"] as? Int64 == 1)
        let owner = try #require(note.value(forKey: "owner") as? NSManagedObject)
        #expect(conflict.persistedSnapshot?["owner"] as? NSManagedObjectID == owner.objectID)
        #expect(conflict.persistedSnapshot?["tags"] == nil && conflict.persistedSnapshot?["entries"] == nil)
        #expect(conflict.description.contains("oldVersion = 1") && conflict.description.contains("newVersion = 2"))
        // Nothing was written, and the context still holds its change.
        #expect(try shared.versions() == ["Theirs": 2])
        #expect(note.value(forKey: "body") as? String == "Mine" && note.isUpdated)
    }

    @Test("another context of the same coordinator saved first: the conflict carries the cached row and the object's snapshot", arguments: allStoreTypes)
    func errorPolicySameCoordinator(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConflictModels.notes())
        let note = stack.insert("Note", ["title": "Draft", "count": 1])
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: note.objectID)
        copy.setValue("Other", forKey: "title")
        try other.save()
        note.setValue(2, forKey: "count")

        let error = try #require(throws: NSError.self) { try stack.context.save() }
        let conflict = try #require((error.userInfo["conflictList"] as? [NSMergeConflict])?.first)
        #expect(conflict.sourceObject === note)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.objectSnapshot?["title"] as? String == "Draft")
        #expect(conflict.objectSnapshot?["count"] as? Int64 == 1)
        #expect(conflict.cachedSnapshot?["title"] as? String == "Other")
        #expect(conflict.persistedSnapshot == nil)
        #expect(conflict.objectSnapshot?["owner"] is NSNull)
    }

    @Test("a row deleted by another app is a conflict with version 0 and no persisted snapshot")
    func errorPolicyDeletedRow() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        let note = try shared.note(in: mine)
        theirs.delete(try shared.note(in: theirs))
        try theirs.save()
        note.setValue("Mine", forKey: "title")

        let error = try #require(throws: NSError.self) { try mine.save() }
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        #expect(conflict.newVersionNumber == 0 && conflict.oldVersionNumber == 1)
        #expect(conflict.persistedSnapshot == nil)
        #expect(conflict.objectSnapshot?["title"] as? String == "Draft")
        #expect(conflict.description.contains("newVersion = <deleted>"))
    }

    @Test("every object in conflict is listed, updated and deleted ones")
    func everyConflictListed() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let setup = shared.first.newBackgroundContext()
        let second = NSEntityDescription.insertNewObject(forEntityName: "Note", into: setup)
        second.setValue("Second", forKey: "title")
        try setup.save()
        let mine = shared.mine!, theirs = shared.theirs!
        let draft = try shared.note(in: mine, titled: "Draft"), other = try shared.note(in: mine, titled: "Second")
        for title in ["Draft", "Second"] {
            try shared.note(in: theirs, titled: title).setValue(5, forKey: "count")
        }
        try theirs.save()
        draft.setValue("Changed", forKey: "body")
        mine.delete(other)

        let error = try #require(throws: NSError.self) { try mine.save() }
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
        #expect(Set(conflicts.map { ObjectIdentifier($0.sourceObject) }) == [ObjectIdentifier(draft), ObjectIdentifier(other)])
        #expect(conflicts.allSatisfy { $0.newVersionNumber == 2 })
    }

    // MARK: - The merging policies, property by property

    /// The store (the other app) changes `title` and `count`; the context changes `title`
    /// and `body`. Returns the context's note after its save, and the file's versions.
    private func titleClash(_ policy: NSMergePolicy) throws -> (shared: SharedNotes, note: NSManagedObject) {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = policy
        let note = try shared.note(in: mine), their = try shared.note(in: theirs)
        their.setValue("Theirs", forKey: "title")
        their.setValue(7, forKey: "count")
        try theirs.save()
        note.setValue("Mine", forKey: "title")
        note.setValue("My text", forKey: "body")
        try mine.save()
        return (shared, note)
    }

    @Test("store trump: a property changed in the store keeps the store's value; the context's other changes are saved")
    func storeTrump() throws {
        let (shared, note) = try titleClash(NSMergePolicy.mergeByPropertyStoreTrump)
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Theirs")
        #expect(stored.value(forKey: "body") as? String == "My text")
        #expect(stored.value(forKey: "count") as? Int64 == 7)
        #expect(note.value(forKey: "title") as? String == "Theirs")
        #expect(!note.hasChanges)
        // Version 2 was theirs; the resolved save wrote over it.
        #expect(try shared.versions() == ["Theirs": 3])
    }

    @Test("object trump: the context's changed properties win; the store's other changes stay")
    func objectTrump() throws {
        let (shared, note) = try titleClash(NSMergeByPropertyObjectTrumpMergePolicy as! NSMergePolicy)
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Mine")
        #expect(stored.value(forKey: "body") as? String == "My text")
        #expect(stored.value(forKey: "count") as? Int64 == 7)
        #expect(note.value(forKey: "count") as? Int64 == 7)
        #expect(try shared.versions() == ["Mine": 3])
    }

    @Test("overwrite: the object as the context holds it replaces the row, unchanged properties included")
    func overwrite() throws {
        let (shared, note) = try titleClash(NSMergePolicy.overwrite)
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Mine")
        #expect(stored.value(forKey: "body") as? String == "My text")
        #expect(stored.value(forKey: "count") as? Int64 == 1)
        #expect(note.value(forKey: "count") as? Int64 == 1)
        #expect(try shared.versions() == ["Mine": 3])
    }

    @Test("rollback: the context's changes to the object are discarded and it shows the store's values")
    func rollback() throws {
        let (shared, note) = try titleClash(NSMergePolicy.rollback)
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Theirs")
        #expect(stored.value(forKey: "body") as? String == "Text")
        #expect(note.value(forKey: "title") as? String == "Theirs")
        #expect(note.value(forKey: "body") as? String == "Text")
        #expect(!note.hasChanges)
        // The context wrote nothing: the version is still theirs.
        #expect(try shared.versions() == ["Theirs": 2])
    }

    @Test("the conflict resolved first is the one a same-coordinator context made", arguments: allStoreTypes)
    func sameCoordinatorMerges(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConflictModels.notes())
        let note = stack.insert("Note", ["title": "Draft", "body": "Text"])
        try stack.context.save()
        let other = stack.newContext()
        try other.existingObject(with: note.objectID).setValue("Other", forKey: "title")
        try other.save()
        stack.context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        note.setValue("Mine", forKey: "body")
        try stack.context.save()
        let reader = stack.newContext()
        let stored = try reader.existingObject(with: note.objectID)
        #expect(stored.value(forKey: "title") as? String == "Other")
        #expect(stored.value(forKey: "body") as? String == "Mine")
    }

    // MARK: - Relationships

    @Test("to-one relationships merge per property like attributes", arguments: ["storeTrump", "objectTrump"])
    func toOne(policy: String) throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine), their = try shared.note(in: theirs)
        their.setValue(try shared.named("Person", "Bob", in: theirs), forKey: "owner")
        try theirs.save()
        note.setValue(try shared.named("Person", "Cy", in: mine), forKey: "owner")
        try mine.save()
        let stored = try #require(try shared.storedNote())
        let owner = (stored.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String
        #expect(owner == (policy == "storeTrump" ? "Bob" : "Cy"))
        let mineOwner = (note.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String
        #expect(mineOwner == owner)
    }

    @Test("to-many relationships keep the additions and removals of both sides", arguments: ["storeTrump", "objectTrump", "overwrite"])
    func toMany(policy: String) throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine), their = try shared.note(in: theirs)
        // Many-to-many: they add green; I add blue and remove red.
        their.mutableSetValue(forKey: "tags").add(try shared.named("Tag", "green", in: theirs))
        // One-to-many: they add an entry, I add another.
        let theirEntry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: theirs)
        theirEntry.setValue("theirs", forKey: "text")
        their.mutableSetValue(forKey: "entries").add(theirEntry)
        try theirs.save()
        let tags = note.mutableSetValue(forKey: "tags")
        tags.add(try shared.named("Tag", "blue", in: mine))
        tags.remove(try shared.named("Tag", "red", in: mine))
        let myEntry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: mine)
        myEntry.setValue("mine", forKey: "text")
        note.mutableSetValue(forKey: "entries").add(myEntry)
        try mine.save()

        let stored = try #require(try shared.storedNote())
        #expect(SharedNotes.names(stored, "tags") == ["green", "blue"])
        let entries = Set((stored.value(forKey: "entries") as? Set<NSManagedObject> ?? []).compactMap { $0.value(forKey: "text") as? String })
        #expect(entries == ["first", "theirs", "mine"])
        #expect(SharedNotes.names(note, "tags") == ["green", "blue"])
        #expect((note.value(forKey: "entries") as? Set<NSManagedObject>)?.count == 3)
    }

    // MARK: - Deletions

    @Test("an update to a row another app deleted: the deletion stands under every policy but error",
          arguments: ["storeTrump", "objectTrump", "overwrite", "rollback"])
    func updateOfDeletedRow(policy: String) throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine)
        let ann = try #require(note.value(forKey: "owner") as? NSManagedObject)
        theirs.delete(try shared.note(in: theirs))
        try theirs.save()
        // Their deletion took the note from Ann as well: her row moved on too.
        #expect(try RawDatabase(shared.url).rows("SELECT Z_OPT FROM ZPERSON").first?.first as? Int64 == 2)
        note.setValue("Mine", forKey: "title")
        ann.setValue("Ann B.", forKey: "name")

        let posted = PostedNotifications(.NSManagedObjectContextDidSave, object: mine)
        try mine.save()
        let saved = posted.notes.last
        #expect(try shared.versions().isEmpty)
        #expect(note.managedObjectContext == nil)
        #expect((saved?.userInfo?[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.contains(note) == true)
        // The owner let go of the note. Ann is in conflict too: rollback discards her
        // rename, the other policies save it.
        #expect(SharedNotes.names(ann, "notes").isEmpty)
        let name = policy == "rollback" ? "Ann" : "Ann B."
        #expect(ann.value(forKey: "name") as? String == name)
        let storedAnn = try shared.named("Person", name, in: shared.reader())
        #expect(!storedAnn.isInserted)
    }

    @Test("a deletion over a newer row stands, and what the store attached to the object since is let go")
    func deletionOverNewerRow() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        let ann = try shared.named("Person", "Ann", in: mine)
        _ = ann.value(forKey: "notes")
        // They give Ann a second note; I delete Ann (nullify: her notes lose their owner).
        let their = NSEntityDescription.insertNewObject(forEntityName: "Note", into: theirs)
        their.setValue("Theirs", forKey: "title")
        their.setValue(try shared.named("Person", "Ann", in: theirs), forKey: "owner")
        try theirs.save()
        mine.delete(ann)
        try mine.save()

        let reader = try shared.reader()
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 0)
        let notes = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
        #expect(notes.count == 2)
        #expect(notes.allSatisfy { $0.value(forKey: "owner") == nil })
        let owners = try RawDatabase(shared.url).rows("SELECT COUNT(*) FROM ZNOTE WHERE ZOWNER IS NOT NULL")
        #expect(owners.first?.first as? Int64 == 0)
    }

    @Test("a row in conflict that cannot be read fails the save with the store's error, not as a deleted row",
          arguments: ["error", "objectTrump"])
    func unreadableRowInConflict(policy: String) throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine)
        // Another program moves the row on and writes an entity number no model has.
        try RawDatabase(shared.url, readOnly: false).execute("UPDATE ZNOTE SET Z_OPT = 2, Z_ENT = 99")
        note.setValue("Mine", forKey: "title")
        let error = try #require(throws: NSError.self) { try mine.save() }
        #expect(error.domain == NSCocoaErrorDomain && error.code != NSManagedObjectMergeError)
        #expect(!note.isDeleted && note.managedObjectContext === mine)
        #expect(note.value(forKey: "title") as? String == "Mine")
    }

    @Test("an object marked with detectConflicts(for:) that another app changed takes the store's values, and the save goes through",
          arguments: ["storeTrump", "objectTrump", "rollback"])
    func detectConflictsWithPolicy(policy: String) throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = ConflictModels.policies[policy]!
        let note = try shared.note(in: mine)
        try shared.note(in: theirs).setValue("Theirs", forKey: "title")
        try theirs.save()

        // This save reads the note's title and must not rest on a stale one.
        mine.detectConflicts(for: note)
        let bob = NSEntityDescription.insertNewObject(forEntityName: "Person", into: mine)
        bob.setValue("Bob, reader of \(note.value(forKey: "title") as? String ?? "?")", forKey: "name")
        try mine.save()
        #expect(note.value(forKey: "title") as? String == "Theirs")
        #expect(!note.hasChanges)
        // The note was not written: the version is still theirs.
        #expect(try shared.versions() == ["Theirs": 2])
        #expect(try shared.reader().count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 2)
    }

    @Test("rollback undoes a deletion whose row changed in the store")
    func rollbackUndoesDeletion() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = NSRollbackMergePolicy
        let note = try shared.note(in: mine)
        try shared.note(in: theirs).setValue("Theirs", forKey: "title")
        try theirs.save()
        mine.delete(note)
        try mine.save()
        #expect(try shared.versions() == ["Theirs": 2])
        #expect(!note.isDeleted)
        #expect(note.value(forKey: "title") as? String == "Theirs")
    }

    // MARK: - Subclasses

    @Test("a subclass's overrides are called in Apple's order: resolve(mergeConflicts:), then the kind's method")
    func subclassOrder() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        let policy = RecordingPolicy()
        mine.mergePolicy = policy
        let note = try shared.note(in: mine)
        try shared.note(in: theirs).setValue("Theirs", forKey: "title")
        try theirs.save()
        note.setValue(3, forKey: "count")
        try mine.save()
        #expect(policy.calls == ["mergeConflicts(1)", "optimisticLockingConflicts(1)"])
        #expect(policy.lockingConflicts.first?.sourceObject === note)
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Theirs" && stored.value(forKey: "count") as? Int64 == 3)
    }

    @Test("a subclass's constraint override is reached through resolve(mergeConflicts:)")
    func subclassConstraints() throws {
        let person = entity("Person", [attribute("email", .stringAttributeType)])
        person.uniquenessConstraints = [["email"]]
        let model = NSManagedObjectModel()
        model.entities = [person]
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: model)
        stack.insert("Person", ["email": "a@x"])
        try stack.context.save()
        let policy = RecordingPolicy()
        stack.context.mergePolicy = policy
        stack.insert("Person", ["email": "a@x"])
        try stack.context.save()
        #expect(policy.calls == ["mergeConflicts(1)", "constraintConflicts(1)"])
        #expect(try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 1)
    }

    @Test("a subclass of the error policy can settle conflicts itself; the save then writes again")
    func subclassResolves() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        mine.mergePolicy = RefreshingPolicy()
        let note = try shared.note(in: mine)
        try shared.note(in: theirs).setValue(5, forKey: "count")
        try theirs.save()
        note.setValue("Mine", forKey: "title")
        try mine.save()
        let stored = try #require(try shared.storedNote())
        #expect(stored.value(forKey: "title") as? String == "Mine")
        #expect(stored.value(forKey: "count") as? Int64 == 105)
    }

    @Test("a policy that settles nothing fails the save with NSManagedObjectMergeError after trying again")
    func policyThatSettlesNothing() throws {
        let shared = try SharedNotes()
        try shared.seed()
        let mine = shared.mine!, theirs = shared.theirs!
        let policy = StubbornPolicy()
        mine.mergePolicy = policy
        let note = try shared.note(in: mine)
        try shared.note(in: theirs).setValue(5, forKey: "count")
        try theirs.save()
        note.setValue("Mine", forKey: "title")
        let error = try #require(throws: NSError.self) { try mine.save() }
        #expect(error.code == NSManagedObjectMergeError)
        #expect((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.count == 1)
        #expect(policy.rounds > 1)
        #expect(try shared.versions() == ["Draft": 2])
    }

    // MARK: - Bad input

    @Test("a merge policy object of the wrong kind traps with Apple's unrecognized-selector wording when a conflict needs it")
    func wrongKindOfPolicy() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("Notes.sqlite").path
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let url = URL(fileURLWithPath: path)
            let model = ConflictModels.notes()
            func context() throws -> NSManagedObjectContext {
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                return context
            }
            let mine = try context(), theirs = try context()
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: mine)
            try mine.save()
            mine.mergePolicy = "x"
            // Another coordinator knows the object by its URI.
            let theirID = try #require(theirs.persistentStoreCoordinator?.managedObjectID(
                forURIRepresentation: note.objectID.uriRepresentation()))
            try theirs.existingObject(with: theirID).setValue("Theirs", forKey: "title")
            try theirs.save()
            note.setValue("Mine", forKey: "title")
            try mine.save()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("resolveConflicts:error:]: unrecognized selector sent to instance"), "\(output)")
    }
}
