import Foundation
import CoreData
import CoreDataTestSupport

// Two store classes written the way apps write them for Apple's Core Data: an incremental
// store over a JSON file and an atomic store over a property list, both for the library
// model below. Neither knows the framework's internals; they use only Apple's API.

/// Author —books→ Book (one-to-many, cascade), Book —tags↔ Tag (many-to-many).
enum LibraryModel {
    static func make() -> NSManagedObjectModel {
        let author = entity("Author", [attribute("name", .stringAttributeType, optional: false),
                                       attribute("born", .dateAttributeType)])
        let book = entity("Book", [attribute("title", .stringAttributeType, optional: false),
                                   attribute("pages", .integer64AttributeType),
                                   attribute("rating", .doubleAttributeType),
                                   attribute("inPrint", .booleanAttributeType)])
        let tag = entity("Tag", [attribute("label", .stringAttributeType)])
        let books = relationship("books", to: book, toMany: true)
        books.deleteRule = .cascadeDeleteRule
        let writer = relationship("author", to: author)
        connect(books, writer)
        let tags = relationship("tags", to: tag, toMany: true)
        let tagged = relationship("books", to: book, toMany: true)
        connect(tags, tagged)
        author.properties += [books]
        book.properties += [writer, tags]
        tag.properties += [tagged]
        let model = NSManagedObjectModel()
        model.entities = [author, book, tag]
        return model
    }
}

/// Property values as JSON and property lists hold them: dates as seconds since 2001.
enum RecordValues {
    static func encode(_ value: Any?, _ attribute: NSAttributeDescription) -> Any {
        guard let value else { return NSNull() }
        if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
        return value
    }

    static func decode(_ value: Any?, _ attribute: NSAttributeDescription) -> Any {
        guard let value, !(value is NSNull) else { return NSNull() }
        if attribute.attributeType == .dateAttributeType, let seconds = value as? Double {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return value
    }
}

// MARK: - An incremental store over a JSON file

/// Keeps `{"metadata": {...}, "records": {"<Entity>": {"<reference>": {property: value}}}}`
/// in its file; to-one relationships as the destination's reference, many-to-many ones as
/// arrays of references (one-to-many ones are found through the inverse to-one).
class JSONIncrementalStore: NSIncrementalStore, @unchecked Sendable {
    class var storeType: String { "JSONIncrementalStore" }

    private(set) var records: [String: [String: [String: Any]]] = [:]
    private let lock = NSLock()
    private var log: [String] = []
    private(set) var registered: [NSManagedObjectID: Int] = [:]

    var calls: [String] { lock.lock(); defer { lock.unlock() }; return log }
    func note(_ call: String) { lock.lock(); log.append(call); lock.unlock() }
    func resetCalls() { lock.lock(); log.removeAll(); lock.unlock() }

    private var model: NSManagedObjectModel { persistentStoreCoordinator!.managedObjectModel }

    override func loadMetadata() throws {
        note("loadMetadata")
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0 else {
            metadata = [NSStoreTypeKey: Self.storeType, NSStoreUUIDKey: Self.identifierForNewStore(at: url)]
            return
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        metadata = json["metadata"] as? [String: Any] ?? [:]
        records = json["records"] as? [String: [String: [String: Any]]] ?? [:]
    }

    private func write() throws {
        let json: [String: Any] = ["metadata": metadata ?? [:], "records": records]
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: url!, options: .atomic)
    }

    private func entity(of request: NSFetchRequest<NSFetchRequestResult>) -> NSEntityDescription {
        request.entity ?? model.entitiesByName[request.entityName!]!
    }

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        switch request.requestType {
        case .fetchRequestType:
            let fetch = request as! NSFetchRequest<NSFetchRequestResult>
            let entity = entity(of: fetch)
            note("fetch \(entity.name!)")
            let family = fetch.includesSubentities ? [entity] + entity.subentities : [entity]
            let ids = family.flatMap { member in
                (records[member.name!] ?? [:]).keys.sorted().map { newObjectID(for: member, referenceObject: $0) }
            }
            switch fetch.resultType {
            case .managedObjectIDResultType: return ids
            case .countResultType: return [ids.count]
            default: return ids.map { context!.object(with: $0) }
            }
        case .saveRequestType:
            let save = request as! NSSaveChangesRequest
            note("save")
            for object in (save.insertedObjects ?? []).union(save.updatedObjects ?? []) {
                records[object.entity.name!, default: [:]][reference(of: object)] = values(of: object)
            }
            for object in save.deletedObjects ?? [] {
                records[object.entity.name!]?[reference(of: object)] = nil
            }
            try write()
            return [Any]()
        default:
            throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError)
        }
    }

    private func reference(of object: NSManagedObject) -> String {
        referenceObject(for: object.objectID) as! String
    }

    private func values(of object: NSManagedObject) -> [String: Any] {
        var values: [String: Any] = [:]
        for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
            values[name] = RecordValues.encode(object.value(forKey: name), attribute)
        }
        for (name, relationship) in object.entity.relationshipsByName {
            if !relationship.isToMany {
                values[name] = (object.value(forKey: name) as? NSManagedObject).map(reference(of:)) ?? NSNull()
            } else if relationship.inverseRelationship?.isToMany ?? true {
                let members = object.value(forKey: name) as? Set<NSManagedObject> ?? []
                values[name] = members.map(reference(of:)).sorted()
            }
        }
        return values
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let reference = referenceObject(for: objectID) as! String
        note("values \(objectID.entity.name!) \(reference)")
        guard let record = records[objectID.entity.name!]?[reference] else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError)
        }
        var values: [String: Any] = [:]
        for (name, attribute) in objectID.entity.attributesByName where !attribute.isTransient {
            values[name] = RecordValues.decode(record[name], attribute)
        }
        for (name, relationship) in objectID.entity.relationshipsByName where !relationship.isToMany {
            if let destination = record[name] as? String {
                values[name] = newObjectID(for: relationship.destinationEntity!, referenceObject: destination)
            } else {
                values[name] = NSNull()
            }
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: 1)
    }

    override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                           with context: NSManagedObjectContext?) throws -> Any {
        let reference = referenceObject(for: objectID) as! String
        note("relationship \(relationship.name) \(reference)")
        let destination = relationship.destinationEntity!
        let record = records[objectID.entity.name!]?[reference] ?? [:]
        if !relationship.isToMany {
            return (record[relationship.name] as? String).map { newObjectID(for: destination, referenceObject: $0) } ?? NSNull()
        }
        if let members = record[relationship.name] as? [String] {
            return members.map { newObjectID(for: destination, referenceObject: $0) }
        }
        // One-to-many: the destinations whose to-one points back here.
        let inverse = relationship.inverseRelationship!.name
        return (records[destination.name!] ?? [:]).filter { $0.value[inverse] as? String == reference }
            .keys.sorted().map { newObjectID(for: destination, referenceObject: $0) }
    }

    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        note("obtainPermanentIDs \(array.count)")
        return array.map { newObjectID(for: $0.entity, referenceObject: UUID().uuidString) }
    }

    override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
        lock.lock()
        for objectID in objectIDs { registered[objectID, default: 0] += 1 }
        lock.unlock()
    }

    override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        lock.lock()
        for objectID in objectIDs { registered[objectID, default: 0] -= 1 }
        lock.unlock()
    }

    var registeredCount: Int { lock.lock(); defer { lock.unlock() }; return registered.values.reduce(0, +) }
}

// MARK: - An atomic store over a property list

/// Keeps `{"metadata": {...}, "objects": [{"entity", "id", "values", "relations"}]}` in a
/// binary property list, read whole by `load()` and written whole by `save()`.
class PlistAtomicStore: NSAtomicStore, @unchecked Sendable {
    class var storeType: String { "PlistAtomicStore" }

    private let lock = NSLock()
    private var removed: [String] = []
    var removedReferences: [String] { lock.lock(); defer { lock.unlock() }; return removed }
    private(set) var saves = 0

    private var model: NSManagedObjectModel { persistentStoreCoordinator!.managedObjectModel }

    override func load() throws {
        guard let url, FileManager.default.fileExists(atPath: url.path) else { return }
        let data = try Data(contentsOf: url)
        guard let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        metadata = plist["metadata"] as? [String: Any] ?? metadata
        let objects = plist["objects"] as? [[String: Any]] ?? []
        var nodes: [String: NSAtomicStoreCacheNode] = [:]
        for object in objects {
            let entity = model.entitiesByName[object["entity"] as! String]!
            let reference = object["id"] as! String
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: reference))
            for (name, value) in object["values"] as? [String: Any] ?? [:] {
                node.setValue(RecordValues.decode(value, entity.attributesByName[name]!), forKey: name)
            }
            nodes[reference] = node
        }
        for object in objects {
            let node = nodes[object["id"] as! String]!
            for (name, value) in object["relations"] as? [String: Any] ?? [:] {
                if let one = value as? String {
                    node.setValue(nodes[one], forKey: name)
                } else if let many = value as? [String] {
                    node.setValue(Set(many.compactMap { nodes[$0] }), forKey: name)
                }
            }
        }
        addCacheNodes(Set(nodes.values))
    }

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        UUID().uuidString
    }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        for (name, attribute) in managedObject.entity.attributesByName where !attribute.isTransient {
            node.setValue(managedObject.value(forKey: name), forKey: name)
        }
        for (name, relationship) in managedObject.entity.relationshipsByName {
            if relationship.isToMany {
                let members = managedObject.value(forKey: name) as? Set<NSManagedObject> ?? []
                node.setValue(Set(members.compactMap { cacheNode(for: $0.objectID) }), forKey: name)
            } else {
                let destination = managedObject.value(forKey: name) as? NSManagedObject
                node.setValue(destination.flatMap { cacheNode(for: $0.objectID) }, forKey: name)
            }
        }
    }

    override func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        lock.lock()
        removed += cacheNodes.map { referenceObject(for: $0.objectID) as! String }
        lock.unlock()
    }

    override func save() throws {
        saves += 1
        var objects: [[String: Any]] = []
        for node in cacheNodes() {
            let entity = node.objectID.entity
            var values: [String: Any] = [:]
            var relations: [String: Any] = [:]
            for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                if let value = node.value(forKey: name), !(value is NSNull) { values[name] = RecordValues.encode(value, attribute) }
            }
            for (name, relationship) in entity.relationshipsByName {
                if relationship.isToMany {
                    let members = node.value(forKey: name) as? Set<NSAtomicStoreCacheNode> ?? []
                    relations[name] = members.map { referenceObject(for: $0.objectID) as! String }.sorted()
                } else if let destination = node.value(forKey: name) as? NSAtomicStoreCacheNode {
                    relations[name] = referenceObject(for: destination.objectID) as! String
                }
            }
            objects.append(["entity": entity.name!, "id": referenceObject(for: node.objectID) as! String,
                            "values": values, "relations": relations])
        }
        let plist: [String: Any] = ["metadata": metadata ?? [:], "objects": objects]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: url!, options: .atomic)
    }

    override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        return plist?["metadata"] as? [String: Any] ?? [:]
    }
}

// MARK: - Stacks

/// A coordinator with one store of a registered custom type at `url`, and a context on it.
struct CustomStack {
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    init(type: String, url: URL, model: NSManagedObjectModel) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        store = try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: url, options: nil)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    func newContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// An author with books, saved.
    @discardableResult
    func saveAuthor(_ name: String, books: [(String, Int64)], in context: NSManagedObjectContext? = nil) throws -> NSManagedObject {
        let context = context ?? self.context
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue(name, forKey: "name")
        author.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "born")
        for (title, pages) in books {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            book.setValue(pages, forKey: "pages")
            book.setValue(4.5, forKey: "rating")
            book.setValue(true, forKey: "inPrint")
            book.setValue(author, forKey: "author")
        }
        try context.save()
        return author
    }
}
