import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Crash points (issue 17 item 1). For each way of writing to a SQLite store (a save of
// inserts, updates, deletes or relationship changes, the three batch requests, a
// lightweight migration; all of them with persistent history on, so history writes are in
// every one), the campaign runs the write once to number its I/O points (every write,
// sync, truncate and delete SQLite makes, closing the store included), then once per point
// and per failure kind from a fresh copy of the same store:
//
// - an I/O error at that point (the process goes on, and saves again),
// - a process crash there (later I/O never happens; what was written stays),
// - a power cut there (later I/O never happens, and what no sync made durable is lost).
//
// After each, with every connection closed: SQLite's integrity check passes; the key
// counters stay above every key in use; history names no inserted or updated row the store
// lacks; the store is exactly as before the write (every row of every table but the key
// counters, history included) or as after it (the same objects, compared by content, as an
// undisturbed write, and as many rows in every table: a save numbers its new objects in no
// fixed order); a write reported saved is there after a process crash; after an I/O error
// the retried write leaves the store as an undisturbed one; the store opens, reads back
// with every inverse relationship consistent, and takes one more save.

/// The model of the campaign, and its next version (one more attribute: lightweight).
private let crashModel = GraphModel.make()
private let crashModelV2: NSManagedObjectModel = {
    let model = GraphModel.make()
    let note = model.entitiesByName["Note"]!
    let summary = NSAttributeDescription()
    summary.name = "summary"
    summary.attributeType = .stringAttributeType
    summary.isOptional = true
    summary.defaultValue = "none"
    note.properties += [summary]
    return model
}()

/// One way of writing, run against the seeded store in `folder`: opens the stack, prepares,
/// calls `attempt.arm()` just before the write under test, writes, closes.
private struct CrashScenario: Sendable {
    let name: String
    /// The model the store has after the write.
    let modelAfter: @Sendable () -> NSManagedObjectModel
    let run: @Sendable (_ store: URL, _ attempt: CrashAttempt) throws -> Void
}

/// What a scenario is told: when to arm, and whether to retry a write that failed (an I/O
/// error the process survives, as an app would retry a save).
private final class CrashAttempt: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time, on the thread that runs it and the
    // context queues it waits for.
    let arm: () -> Void
    let retries: Bool
    /// Whether the first write threw.
    var failed = false

    init(retries: Bool, arm: @escaping () -> Void) {
        self.retries = retries
        self.arm = arm
    }

    /// Runs the write; records a failure and, when retrying, writes once more.
    func write(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            failed = true
            guard retries else { return }
            try body()
        }
    }
}

/// A container over the store at `url`, with persistent history on.
private func openContainer(_ url: URL, model: NSManagedObjectModel = crashModel) throws -> NSPersistentContainer {
    let container = NSPersistentContainer(name: "Crash", managedObjectModel: model)
    let description = NSPersistentStoreDescription(url: url)
    description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

/// Closes every store of the container (its connections with it).
private func close(_ container: NSPersistentContainer) {
    let coordinator = container.persistentStoreCoordinator
    for store in coordinator.persistentStores { try? coordinator.remove(store) }
}

private func fetch(_ entity: String, _ format: String, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: entity)
    request.predicate = NSPredicate(format: format)
    return try context.fetch(request)
}

private func one(_ entity: String, _ format: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
    try #require(try fetch(entity, format, in: context).first, "no \(entity) where \(format)")
}

/// Folders root > a > b, notes n1…n4, tags t1…t4 (t1 broader than t3), an image on n1 and
/// a file on n2.
private func seed(_ context: NSManagedObjectContext) throws {
    @discardableResult func insert(_ entity: String, _ values: [String: Any]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValuesForKeys(values)
        return object
    }
    let root = insert("Folder", ["name": "root"])
    let a = insert("Folder", ["name": "a", "parent": root])
    let b = insert("Folder", ["name": "b", "parent": a])
    let tags = (1...4).map { insert("Tag", ["name": "t\($0)"]) }
    tags[0].mutableSetValue(forKey: "narrower").add(tags[2])
    let folders = [root, a, b, b]
    let notes = (1...4).map { insert("Note", ["title": "n\($0)", "folder": folders[$0 - 1]]) }
    notes[0].mutableOrderedSetValue(forKey: "tags").addObjects(from: [tags[0], tags[1]])
    notes[1].mutableOrderedSetValue(forKey: "tags").addObjects(from: [tags[1], tags[2]])
    insert("ImageAttachment", ["fileName": "n1.png", "width": 640, "note": notes[0]])
    insert("FileAttachment", ["fileName": "n2.pdf", "size": 2048, "note": notes[1]])
    try context.save()
}

/// A scenario that makes changes in a background context, then saves.
private func saving(_ name: String, _ change: @escaping @Sendable (NSManagedObjectContext) throws -> Void) -> CrashScenario {
    CrashScenario(name: name, modelAfter: { crashModel }) { url, attempt in
        let container = try openContainer(url)
        defer { close(container) }
        let context = container.newBackgroundContext()
        context.transactionAuthor = "crash-points"
        try context.performAndWait {
            try change(context)
            attempt.arm()
            try attempt.write { try context.save() }
        }
    }
}

/// A scenario that executes one batch request.
private func batch(_ name: String, _ request: @escaping @Sendable () -> NSPersistentStoreRequest) -> CrashScenario {
    CrashScenario(name: name, modelAfter: { crashModel }) { url, attempt in
        let container = try openContainer(url)
        defer { close(container) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            attempt.arm()
            try attempt.write { _ = try context.execute(request()) }
        }
    }
}

private let scenarios: [CrashScenario] = [
    saving("insert") { context in
        let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context)
        folder.setValue("new", forKey: "name")
        folder.setValue(try one("Folder", "name == 'root'", in: context), forKey: "parent")
        let old = try one("Tag", "name == 't4'", in: context)
        for index in 1...3 {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("new\(index)", forKey: "title")
            note.setValue(folder, forKey: "folder")
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("new-t\(index)", forKey: "name")
            note.mutableOrderedSetValue(forKey: "tags").addObjects(from: [tag, old])
            let file = NSEntityDescription.insertNewObject(forEntityName: "FileAttachment", into: context)
            file.setValue("new\(index).txt", forKey: "fileName")
            file.setValue(index * 100, forKey: "size")
            file.setValue(note, forKey: "note")
        }
    },
    saving("update") { context in
        for note in try fetch("Note", "TRUEPREDICATE", in: context) {
            note.setValue("\(note.value(forKey: "title") as? String ?? "")-edited", forKey: "title")
        }
        let image = try one("ImageAttachment", "fileName == 'n1.png'", in: context)
        image.setValue(1280, forKey: "width")
        try one("Folder", "name == 'b'", in: context).setValue("b-renamed", forKey: "name")
    },
    saving("delete") { context in
        context.delete(try one("Folder", "name == 'a'", in: context))   // cascades to b
        context.delete(try one("Note", "title == 'n2'", in: context))   // cascades to its file
        context.delete(try one("Tag", "name == 't4'", in: context))
    },
    saving("relationships") { context in
        let n1 = try one("Note", "title == 'n1'", in: context), n3 = try one("Note", "title == 'n3'", in: context)
        let t1 = try one("Tag", "name == 't1'", in: context), t2 = try one("Tag", "name == 't2'", in: context)
        let t4 = try one("Tag", "name == 't4'", in: context)
        let tags = n1.mutableOrderedSetValue(forKey: "tags")
        tags.remove(t1)
        tags.insert(t4, at: 0)
        n3.mutableOrderedSetValue(forKey: "tags").addObjects(from: [t2, t1])
        t4.mutableSetValue(forKey: "broader").add(t2)
        n3.setValue(try one("Folder", "name == 'root'", in: context), forKey: "folder")
        try one("Folder", "name == 'b'", in: context).setValue(try one("Folder", "name == 'root'", in: context), forKey: "parent")
        let image = try one("ImageAttachment", "fileName == 'n1.png'", in: context)
        image.setValue(n3, forKey: "note")
    },
    batch("batch update") {
        let request = NSBatchUpdateRequest(entityName: "Note")
        request.predicate = NSPredicate(format: "title != 'n4'")
        request.propertiesToUpdate = ["title": "batched"]
        return request
    },
    batch("batch delete") {
        NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Attachment"))
    },
    batch("batch insert") {
        NSBatchInsertRequest(entityName: "Tag", objects: (1...40).map { ["name": "batch-\($0)"] })
    },
    CrashScenario(name: "lightweight migration", modelAfter: { crashModelV2 }) { url, attempt in
        attempt.arm()
        try attempt.write { close(try openContainer(url, model: crashModelV2)) }
    },
]

// MARK: - What the store holds

/// Every table of the store, each row as text, rows sorted; `Z_PRIMARYKEY` left out (its
/// counters may run ahead of the rows: a key allocated for a save that never committed) and
/// history timestamps masked (they differ from run to run).
private func dump(_ url: URL) throws -> [String: [String]] {
    let database = try RawDatabase(url)
    var tables: [String: [String]] = [:]
    for table in try database.tables() where !table.hasPrefix("sqlite_") && table != "Z_PRIMARYKEY" {
        let columns = try database.rows("PRAGMA table_info(\(table))").map { $0[1] as? String ?? "" }
        let rows = try database.rows("SELECT * FROM \(table)")
        tables[table] = rows.map { row in
            zip(columns, row).map { column, value in
                column == "ZTIMESTAMP" ? "\(column)=*" : "\(column)=\(value.map { "\($0)" } ?? "NULL")"
            }.joined(separator: " ")
        }.sorted()
    }
    return tables
}

/// What is wrong with the store file at the raw level: SQLite's integrity check, each
/// inheritance root's key counter below a key in use, and history that names an inserted or
/// updated row the store does not have (and no later change deleted).
private func rawProblems(_ url: URL) throws -> [String] {
    let database = try RawDatabase(url)
    var problems: [String] = []
    let check = try database.rows("PRAGMA integrity_check").compactMap { $0.first as? String }
    if check != ["ok"] { return ["integrity_check: \(check.joined(separator: "; "))"] }
    let tables = try database.tables()
    var tableOfEntity: [Int64: String] = [:]
    let entities = try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY")
    let superOf = Dictionary(uniqueKeysWithValues: entities.map { ($0[0] as? Int64 ?? 0, $0[2] as? Int64 ?? 0) })
    let nameOf = Dictionary(uniqueKeysWithValues: entities.map { ($0[0] as? Int64 ?? 0, $0[1] as? String ?? "") })
    for row in entities {
        guard let id = row[0] as? Int64 else { continue }
        var root = id
        while let parent = superOf[root], parent != 0 { root = parent }
        let table = "Z" + (nameOf[root] ?? "").uppercased()
        if tables.contains(table) { tableOfEntity[id] = table }
        guard row[2] as? Int64 == 0, let max = row[3] as? Int64, tables.contains(table) else { continue }
        let used = try database.scalar("SELECT MAX(Z_PK) FROM \(table)") as? Int64 ?? 0
        if used > max { problems.append("Z_PRIMARYKEY: \(nameOf[id] ?? "?") Z_MAX \(max) below key \(used) in use") }
    }
    if tables.contains("ACHANGE") {
        let changes = try database.rows("SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK FROM ACHANGE")
        let deleted = Set(changes.filter { $0[0] as? Int64 == 2 }.map { "\($0[1] ?? "")/\($0[2] ?? "")" })
        for change in changes where change[0] as? Int64 != 2 {
            guard let entity = change[1] as? Int64, let pk = change[2] as? Int64, let table = tableOfEntity[entity],
                  !deleted.contains("\(entity)/\(pk)") else { continue }
            if try database.scalar("SELECT COUNT(*) FROM \(table) WHERE Z_PK = \(pk)") as? Int64 != 1 {
                problems.append("history names \(nameOf[entity] ?? "?") \(pk), which is not in \(table)")
            }
        }
    }
    return problems
}

/// The number of rows of each table but `Z_PRIMARYKEY`.
private func rowCounts(_ url: URL) throws -> [String: Int] {
    let database = try RawDatabase(url)
    var counts: [String: Int] = [:]
    for table in try database.tables() where !table.hasPrefix("sqlite_") && table != "Z_PRIMARYKEY" {
        counts[table] = Int(try database.scalar("SELECT COUNT(*) FROM \(table)") as? Int64 ?? -1)
    }
    return counts
}

/// The objects of the store as Core Data reads them, independent of keys: each object by its
/// attributes and its relationships (destinations by their first text attribute, ordered
/// relationships in order), sorted; plus every relationship whose inverse disagrees. With
/// `thenSave`, then inserts a folder and saves (the next save after a crash).
private func graph(_ url: URL, model: NSManagedObjectModel, thenSave: Bool = false) throws -> (objects: [String], brokenInverses: [String]) {
    let container = try openContainer(url, model: model)
    defer { close(container) }
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        /// A relationship's value as its destinations, in order when it has one.
        func members(_ value: Any?) -> [NSManagedObject] {
            switch value {
            case let object as NSManagedObject: [object]
            case let ordered as NSOrderedSet: ordered.array.compactMap { $0 as? NSManagedObject }
            case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
            case let set as Set<NSManagedObject>: Array(set)
            case let array as [NSManagedObject]: array
            default: []
            }
        }
        func label(_ object: NSManagedObject) -> String {
            for name in object.entity.attributesByName.keys.sorted() {
                if let text = object.value(forKey: name) as? String { return text }
            }
            return "?"
        }
        var objects: [String] = [], broken: [String] = []
        for entity in model.entities where !entity.isAbstract {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                var parts = [entity.name!]
                for name in entity.attributesByName.keys.sorted() {
                    parts.append("\(name)=\(object.value(forKey: name).map { "\($0)" } ?? "nil")")
                }
                for (name, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
                    let destinations = members(object.value(forKey: name))
                    let labels = destinations.map(label)
                    parts.append("\(name)=[\((relationship.isOrdered ? labels : labels.sorted()).joined(separator: ","))]")
                    guard let inverse = relationship.inverseRelationship else { continue }
                    for destination in destinations {
                        let pointsBack = members(destination.value(forKey: inverse.name)).contains { $0 === object }
                        if !pointsBack { broken.append("\(label(object)).\(name) → \(label(destination)), but not back") }
                    }
                }
                objects.append(parts.joined(separator: " "))
            }
        }
        if thenSave {
            let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context)
            folder.setValue("after", forKey: "name")
            try context.save()
        }
        return (objects.sorted(), broken)
    }
}

/// Whether the folder of ``graph(_:model:thenSave:)`` is in the file.
private func nextSaveLanded(_ url: URL) throws -> Bool {
    try RawDatabase(url).scalar("SELECT COUNT(*) FROM ZFOLDER WHERE ZNAME = 'after'") as? Int64 == 1
}

// MARK: - The campaign

@Suite struct CrashPointTests {
    /// The files of a folder, by name.
    private static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Makes `folder` hold exactly `files`.
    private static func restore(_ files: [String: Data], into folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
    }

    /// Runs `scenario` against a fresh copy of the seeded store with `mode` at `point`
    /// (`.count`: undisturbed); returns whether the write threw, and the points it counted.
    private static func attempt(_ scenario: CrashScenario, _ mode: CrashPlan.Mode, at point: Int64,
                                seeded: [String: Data], folder: URL) throws -> (failed: Bool, points: Int64) {
        try restore(seeded, into: folder)
        let plan = CrashPlan(folder: folder)
        let attempt = CrashAttempt(retries: mode == .error) { plan.arm(mode, at: point) }
        do {
            try scenario.run(folder.appendingPathComponent("Crash.sqlite"), attempt)
        } catch {
            attempt.failed = true   // failed before the write (a crash while opening, say)
        }
        let points = plan.points
        // A connection left open would keep the crashed state in its cache, and its locks.
        #expect(plan.openFiles == 0, "\(scenario.name), \(mode) at \(point): \(plan.openFiles) files left open")
        try plan.disarm()
        return (attempt.failed, points)
    }

    @Test("a failure at any I/O point of any write leaves the store before or after it, sound, and writable")
    func everyCrashPoint() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("Crash.sqlite")
        do {
            let container = try openContainer(store)
            defer { close(container) }
            let context = container.newBackgroundContext()
            try context.performAndWait { try seed(context) }
        }
        let seeded = try Self.files(in: folder.url)
        let before = try dump(store)
        try Self.restore(seeded, into: folder.url)

        var tried = 0, failures = 0, perScenario: [String] = []
        func fail(_ message: String) {
            failures += 1
            Issue.record(Comment(rawValue: message))
        }
        for scenario in scenarios {
            // Undisturbed, to number the points and learn the store after the write.
            let (failed, points) = try Self.attempt(scenario, .count, at: 0, seeded: seeded, folder: folder.url)
            #expect(!failed, "\(scenario.name) fails undisturbed")
            #expect(points > 0, "\(scenario.name) does no I/O")
            let afterCounts = try rowCounts(store)
            #expect(try dump(store) != before, "\(scenario.name) changes nothing")
            let afterProblems = try rawProblems(store)
            #expect(afterProblems.isEmpty, "\(scenario.name): \(afterProblems)")
            let afterGraph = try graph(store, model: scenario.modelAfter())
            #expect(afterGraph.brokenInverses.isEmpty, "\(scenario.name): \(afterGraph.brokenInverses)")
            perScenario.append("\(scenario.name) \(points)")

            for mode in [CrashPlan.Mode.error, .crash, .powerLoss] {
                for point in 1...points {
                    tried += 1
                    let what = "\(scenario.name), \(mode) at point \(point) of \(points)"
                    let (failed, _) = try Self.attempt(scenario, mode, at: point, seeded: seeded, folder: folder.url)
                    let problems = try rawProblems(store)
                    if !problems.isEmpty { fail("\(what): \(problems)"); continue }
                    // Exactly as before: every row of every table. After: the same objects
                    // as an undisturbed write (keys may differ: the order in which a save
                    // numbers new objects is not fixed), and as many rows in every table.
                    let isBefore = try dump(store) == before
                    let counts = try rowCounts(store)
                    let read = try graph(store, model: isBefore ? crashModel : scenario.modelAfter(), thenSave: true)
                    let isAfter = !isBefore && read.objects == afterGraph.objects && counts == afterCounts
                    if mode == .error {
                        // Retried after the error: as after an undisturbed write.
                        if !isAfter { fail("\(what): after the retry the store differs from an undisturbed write") }
                    } else if !isBefore && !isAfter {
                        fail("\(what): neither before nor after the write")
                    } else if mode == .crash && !failed && !isAfter {
                        fail("\(what): the write succeeded but is not in the store")
                    }
                    if !read.brokenInverses.isEmpty { fail("\(what): inverses disagree: \(read.brokenInverses)") }
                    if try !nextSaveLanded(store) { fail("\(what): the next save is lost") }
                }
            }
        }
        print("crash points: \(tried) tried (\(perScenario.joined(separator: ", ")) points × I/O error, process crash, power loss), \(failures) failures")
        #expect(tried > 0)
    }
}
