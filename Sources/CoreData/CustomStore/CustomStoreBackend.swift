import Foundation

/// What the two adapters over store classes written by apps (``IncrementalStoreBackend``,
/// ``AtomicStoreBackend``) share: the store's metadata, the context a request is made for,
/// the check of the metadata a store loads, and the conversion of a store's values (by
/// property name) into the coordinator's rows.
///
/// The adapters implement `StoreBackend`, so the coordinator, the row cache and every
/// context use a custom store exactly as they use the built-in ones.
class CustomStoreBackend {
    /// The store class instance this adapter serves (it owns the adapter).
    unowned let store: NSPersistentStore
    /// The store's identities.
    let references: ReferenceObjects
    var metadata: [String: Any] = [:]
    private(set) var model: NSManagedObjectModel?
    /// The context used when a call reaches the store outside any context's request (a
    /// migration reading every row): made on first use, reset after each use.
    private var scratchContext: NSManagedObjectContext?

    init(store: NSPersistentStore, references: ReferenceObjects) {
        self.store = store
        self.references = references
    }

    /// The type the store was added as, else its metadata's.
    var storeType: String {
        store.addedAsType ?? (metadata[NSStoreTypeKey] as? String) ?? ""
    }

    func noteLoaded(model: NSManagedObjectModel) { self.model = model }

    // MARK: - Metadata

    /// Checks the metadata a store loaded: it must name the store's type and a UUID.
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` (134000) when either is missing,
    ///   `NSPersistentStoreTypeMismatchError` (134010) when the type is not the one the
    ///   store was added as.
    func checkMetadata() throws {
        let className = String(describing: Swift.type(of: store))
        guard let type = metadata[NSStoreTypeKey] as? String, !type.isEmpty else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "The store \(className) loaded metadata without NSStoreTypeKey: set it in loadMetadata() (or load()).",
                userInfo: ["metadata": metadata])
        }
        guard let uuid = metadata[NSStoreUUIDKey] as? String, !uuid.isEmpty else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "The store \(className) loaded metadata without NSStoreUUIDKey: set it in loadMetadata() (or load()).",
                userInfo: ["metadata": metadata])
        }
        if let added = store.addedAsType, added != type {
            throw CoreDataError.make(NSPersistentStoreTypeMismatchError,
                "The store \(className) was added as type \(added) but its metadata says \(type).",
                userInfo: ["metadata": metadata])
        }
    }

    // MARK: - The requesting context

    /// Runs `body` with the context the coordinator is serving, or a scratch context of
    /// the store's coordinator when no context asked.
    func withContext<T>(_ body: (NSManagedObjectContext) throws -> T) throws -> T {
        if let context = store.persistentStoreCoordinator?.requestingContext as? NSManagedObjectContext {
            return try body(context)
        }
        guard let coordinator = store.persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store is not added to a coordinator.")
        }
        let scratch = scratchContext ?? {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            scratchContext = context
            return context
        }()
        defer { scratch.reset() }
        return try body(scratch)
    }

    func releaseScratchContext() { scratchContext = nil }

    // MARK: - Identities

    /// The key of an object ID of this store (nil for a temporary ID or another store's).
    func key(of objectID: NSManagedObjectID) -> StoreKey? {
        guard objectID.storeReference?.identifier == ObjectIdentifier(store), let pk = objectID.primaryKey else { return nil }
        let entity = references.entity(for: pk, family: objectID.entity) ?? objectID.entity
        return StoreKey(entityID: entity.runtime.entityID, pk: pk)
    }

    /// The object ID of a key of this store.
    func objectID(entity: NSEntityDescription, pk: Int64) -> NSManagedObjectID {
        let concrete = references.entity(for: pk, family: entity) ?? entity
        return NSManagedObjectID(entity: concrete, store: store, reference: .permanent(pk))
    }

    /// The object ID a store's value names: an object ID, a managed object, or (for atomic
    /// stores) a cache node. Nil for `NSNull`.
    func objectID(named value: Any) throws -> NSManagedObjectID? {
        switch value {
        case is NSNull: return nil
        case let objectID as NSManagedObjectID: return objectID
        case let object as NSManagedObject: return object.objectID
        case let node as NSAtomicStoreCacheNode: return node.objectID
        default:
            throw CoreDataError.make(NSCoreDataError,
                "The store \(Swift.type(of: store)) answered \(Swift.type(of: value)) where an object ID, a managed object or NSNull belongs.")
        }
    }

    /// The keys of a store's to-many value: an array, set or ordered set of object IDs,
    /// managed objects or cache nodes. Unordered collections come back by key.
    func keys(inCollection value: Any, ordered: Bool) throws -> [StoreKey] {
        let members: [Any]
        var isOrdered = true
        switch value {
        case is NSNull: return []
        case let array as [Any]: members = array
        case let set as Set<AnyHashable>: members = set.map(\.base); isOrdered = false
        case let set as NSSet: members = set.allObjects; isOrdered = false
        case let orderedSet as NSOrderedSet: members = orderedSet.array
        case let array as NSArray: members = array.map { $0 }
        default:
            throw CoreDataError.make(NSCoreDataError,
                "The store \(Swift.type(of: store)) answered \(Swift.type(of: value)) for a to-many relationship; expected an array or set of object IDs.")
        }
        var keys: [StoreKey] = []
        keys.reserveCapacity(members.count)
        for member in members {
            guard let objectID = try objectID(named: member) else { continue }
            guard let key = key(of: objectID) else {
                throw CoreDataError.make(NSCoreDataError,
                    "The store \(Swift.type(of: store)) named \(objectID), which is not one of its permanent object IDs.")
            }
            keys.append(key)
        }
        if !(ordered && isOrdered) && !isOrdered { keys.sort { ($0.pk, $0.entityID) < ($1.pk, $1.entityID) } }
        return keys
    }

    /// The result of a store's `execute(_:with:)` as the array Apple's contract asks for.
    func array(from result: Any, for request: String) throws -> [Any] {
        if let array = result as? [Any] { return array }
        if let array = result as? NSArray { return array.map { $0 } }
        throw CoreDataError.make(NSCoreDataError,
            "The store \(Swift.type(of: store)) returned \(Swift.type(of: result)) for \(request); execute(_:with:) must return an array.")
    }

    // MARK: - Values to rows

    /// A row from a store's values by property name.
    ///
    /// - Parameters:
    ///   - value: the store's value for a property (nil when it has none; `NSNull` for nil).
    ///   - missingToOne: asked for a to-one relationship `value` has no entry for.
    func row(for objectID: NSManagedObjectID, pk: Int64, version: Int64,
             value: (NSPropertyDescription) throws -> Any?,
             missingToOne: (NSRelationshipDescription) throws -> Any?) throws -> StoreRow {
        let entity = objectID.entity
        let row = StoreRow(entity: entity, pk: pk, version: version)
        for property in entity.runtime.slotProperties where EntityRuntime.isStored(property) {
            switch property {
            case let attribute as NSAttributeDescription:
                guard let raw = try value(attribute), !(raw is NSNull) else { continue }
                if attribute.slotType == .box {
                    if let data = Transformer.encode(raw, for: attribute) {
                        row.values.setData(data, at: attribute.slot)
                        continue
                    }
                } else if attribute.store(raw, into: row.values, slot: attribute.slot) {
                    continue
                }
                throw CoreDataError.make(NSCoreDataError,
                    "The store \(Swift.type(of: store)) answered \(Swift.type(of: raw)) for \(entity.name ?? "?").\(attribute.name), a \(attribute.attributeType) attribute.")
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                let raw = try value(relationship) ?? missingToOne(relationship)
                guard let raw, let destination = try self.objectID(named: raw) else { continue }
                guard let key = key(of: destination) else {
                    throw CoreDataError.make(NSCoreDataError,
                        "The store \(Swift.type(of: store)) named \(destination) for \(entity.name ?? "?").\(relationship.name), which is not one of its permanent object IDs.")
                }
                row.values.setKey(key, at: relationship.slot)
            default:
                continue
            }
        }
        return row
    }
}
