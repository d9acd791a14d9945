import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Models, stores and policies shared by the migration manager and mapping model tests.

/// A thread-safe list of the policy calls of one migration (policies find it in the
/// manager's `userInfo["log"]`).
final class MigrationCallLog: @unchecked Sendable {
    // @unchecked Sendable: every access holds `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    /// The entries, consecutive repeats folded into `entry ×n`.
    var folded: [String] {
        lock.lock()
        defer { lock.unlock() }
        var result: [(String, Int)] = []
        for entry in entries {
            if let last = result.last, last.0 == entry { result[result.count - 1].1 += 1 } else { result.append((entry, 1)) }
        }
        return result.map { $0.1 == 1 ? $0.0 : "\($0.0) ×\($0.1)" }
    }
}

/// Records every override point, answers `fullNameFrom:last:`, and cancels or throws when
/// the manager's `userInfo` asks it to.
class MigrationRecordingPolicy: NSEntityMigrationPolicy {
    private func log(_ manager: NSMigrationManager, _ text: String) {
        (manager.userInfo?["log"] as? MigrationCallLog)?.add(text)
    }

    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        log(manager, "begin \(mapping.name!)")
        #expect(manager.currentEntityMapping === mapping)
    }

    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        log(manager, "create \(mapping.name!)")
        if manager.userInfo?["cancel"] as? Bool == true {
            manager.cancelMigrationWithError(NSError(domain: "MigrationTests", code: 7))
        }
        if manager.userInfo?["throw"] as? Bool == true {
            throw NSError(domain: "MigrationTests", code: 9)
        }
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }

    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        log(manager, "endInstanceCreation \(mapping.name!)")
    }

    override func createRelationships(
        forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        log(manager, "createRelationships \(mapping.name!)")
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        log(manager, "endRelationshipCreation \(mapping.name!)")
    }

    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        log(manager, "performCustomValidation \(mapping.name!)")
    }

    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        log(manager, "end \(mapping.name!)")
        let made = manager.destinationInstances(forEntityMappingName: mapping.name!, sourceInstances: nil)
        let sources = manager.sourceInstances(forEntityMappingName: mapping.name!, destinationInstances: made)
        log(manager, "\(mapping.name!): \(sources.count) → \(made.count)")
    }

    override func performFunction(_ selector: Selector, with arguments: [Any?]) throws -> Any? {
        switch selector.name {
        case "fullNameFrom:last:":
            return "\(arguments[0] as? String ?? "") \(arguments[1] as? String ?? "")"
        default:
            return try super.performFunction(selector, with: arguments)
        }
    }
}

/// Upper-cases every string attribute of the objects the default policy creates.
final class MigrationUppercasingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        for destination in manager.destinationInstances(forEntityMappingName: mapping.name!, sourceInstances: [sInstance]) {
            for (name, attribute) in destination.entity.attributesByName where attribute.attributeType == .stringAttributeType {
                destination.setValue((destination.value(forKey: name) as? String)?.uppercased(), forKey: name)
            }
        }
    }
}

/// Answers `FUNCTION($entityPolicy, "shout:", text)` with the text upper-cased, plus "!".
final class MigrationShoutingPolicy: NSEntityMigrationPolicy {
    override func performFunction(_ selector: Selector, with arguments: [Any?]) throws -> Any? {
        guard selector.name == "shout:", let text = arguments.first as? String else {
            return try super.performFunction(selector, with: arguments)
        }
        return text.uppercased() + "!"
    }
}

/// The class of the Animal entity in the test that finds a policy by its bare name.
final class MigrationAnimal: NSManagedObject {}

/// Always fails.
final class MigrationFailingPolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        throw NSError(domain: "MigrationTests", code: 13, userInfo: [NSLocalizedDescriptionKey: "policy refused"])
    }
}

enum MigrationFixtures {
    /// Person/Pet (v1) and Contact/Animal (v2), in `Zoo.xcdatamodeld`.
    static let zooV1 = """
        <entity name="Person"><attribute name="given" attributeType="String"/><attribute name="family" attributeType="String"/>
          <attribute name="age" optional="YES" attributeType="Integer 16"/>
          <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/></entity>
        <entity name="Pet"><attribute name="name" attributeType="String"/>
          <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/></entity>
        """
    static let zooV2 = """
        <entity name="Contact"><attribute name="fullName" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 64"/>
          <relationship name="animals" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Animal" inverseName="keeper" inverseEntity="Animal"/></entity>
        <entity name="Animal"><attribute name="name" attributeType="String"/><attribute name="nameLength" optional="YES" attributeType="Integer 32"/>
          <relationship name="keeper" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Contact" inverseName="animals" inverseEntity="Contact"/></entity>
        """
    /// Author/Book (v1) and the same with a `pages` attribute on Book (v2), in `Library.xcdatamodeld`.
    static let libraryV1 = """
        <entity name="Author"><attribute name="name" attributeType="String"/>
          <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
        <entity name="Book"><attribute name="title" attributeType="String"/>
          <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
        """
    static let libraryV2 = """
        <entity name="Author"><attribute name="name" attributeType="String"/>
          <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
        <entity name="Book"><attribute name="title" attributeType="String"/><attribute name="pages" optional="YES" attributeType="Integer 32"/>
          <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
        """

    /// Writes `<name>.xcdatamodeld` with versions `<name>` and `<name> 2` into `folder` and
    /// returns the two models, loaded as an app loads them.
    static func bundle(_ name: String, in folder: TemporaryDirectory, v1: String, v2: String) throws
        -> (v1: NSManagedObjectModel, v2: NSManagedObjectModel) {
        let bundle = folder.file("\(name).xcdatamodeld")
        for (version, body) in [(name, v1), ("\(name) 2", v2)] {
            let url = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n\(body)\n</model>\n"
            try xml.write(to: url.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        try ModelFiles.writeCurrentVersion("\(name) 2.xcdatamodel", in: bundle)
        let first = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("\(name).xcdatamodel")))
        let second = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("\(name) 2.xcdatamodel")))
        return (first, second)
    }

    /// Fills a store of `model` through a context and closes it.
    static func makeStore(at url: URL, model: NSManagedObjectModel,
                          _ fill: (NSManagedObjectContext) throws -> Void) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            try fill(context)
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// Ann Lee (30) with pets Rex and Tom, Bob Ray (nil age) with pet Kit.
    static func fillZoo(_ context: NSManagedObjectContext) {
        for (first, last, age, pets) in [("Ann", "Lee", 30 as Int?, ["Rex", "Tom"]), ("Bob", "Ray", nil, ["Kit"])] {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(first, forKey: "given")
            person.setValue(last, forKey: "family")
            person.setValue(age, forKey: "age")
            for name in pets {
                let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
                pet.setValue(name, forKey: "name")
                pet.setValue(person, forKey: "owner")
            }
        }
    }

    /// Two authors with three books.
    static func fillLibrary(_ context: NSManagedObjectContext) {
        for (name, titles) in [("Le Guin", ["Earthsea", "Lathe"]), ("Banks", ["Excession"])] {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            author.setValue(name, forKey: "name")
            for title in titles {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(author, forKey: "author")
            }
        }
    }

    /// Every object of the store at `url` as sorted text lines (attributes, then each
    /// relationship's members by their first string attribute).
    static func contents(of url: URL, model: NSManagedObjectModel) throws -> [String] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            var lines: [String] = []
            for entity in model.entities {
                for object in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity.name!)) {
                    var line = entity.name!
                    for name in entity.attributesByName.keys.sorted() {
                        line += " \(name)=\(object.value(forKey: name).map { "\($0)" } ?? "nil")"
                    }
                    for (name, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
                        let key = relationship.destinationEntity!.attributesByName
                            .filter { $0.value.attributeType == .stringAttributeType }.keys.sorted().first!
                        let members: [NSManagedObject]
                        if relationship.isToMany {
                            members = Array(object.value(forKey: name) as? Set<NSManagedObject> ?? [])
                        } else {
                            members = (object.value(forKey: name) as? NSManagedObject).map { [$0] } ?? []
                        }
                        line += " \(name)->[\(members.map { "\($0.value(forKey: key) ?? "nil")" }.sorted().joined(separator: ","))]"
                    }
                    lines.append(line)
                }
            }
            return lines.sorted()
        }
    }
}
