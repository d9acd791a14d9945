import Foundation

/// The coordinator's view of an app's `NSAtomicStore`: rows are read from its cache nodes,
/// fetches select among them (predicates and sorts are evaluated in memory by the context),
/// and a save updates the nodes through the store's methods, then calls its `save()`.
///
/// Optimistic locking works as in the in-memory store: the adapter keeps a version per node
/// (1 when loaded), so two contexts that change the same object conflict.
final class AtomicStoreBackend: CustomStoreBackend, StoreBackend {
    private unowned let atomic: NSAtomicStore
    private var versions: [NSAtomicStore.NodeKey: Int64] = [:]

    init(store: NSAtomicStore) {
        self.atomic = store
        super.init(store: store, references: store.references)
    }

    // MARK: - Opening

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        noteLoaded(model: model)
        try atomic.loadMetadata()
        try atomic.load()
        try checkMetadata()
    }

    func close() {
        versions = [:]
        releaseScratchContext()
    }

    // MARK: - Reading nodes

    private func nodeKey(_ entity: NSEntityDescription, _ pk: Int64) -> NSAtomicStore.NodeKey {
        NSAtomicStore.NodeKey(root: entity.runtime.rootID, pk: pk)
    }

    private func row(of node: NSAtomicStoreCacheNode) throws -> StoreRow? {
        guard let key = atomic.nodeKey(of: node.objectID) else { return nil }
        return try row(for: node.objectID, pk: key.pk, version: versions[key] ?? 1,
                       value: { node.value(forKey: $0.name) },
                       missingToOne: { try self.inverseOwner(of: node, through: $0) })
    }

    /// For a to-one relationship a node leaves out: the node of the destination entity whose
    /// inverse to-many relationship holds this node (stores often keep only one side).
    private func inverseOwner(of node: NSAtomicStoreCacheNode, through relationship: NSRelationshipDescription) throws -> Any? {
        guard let inverse = relationship.inverseRelationship, inverse.isToMany,
              let destination = relationship.destinationEntity else { return nil }
        for candidate in atomic.nodes.values where candidate.objectID.entity.isKindOf(entity: destination) {
            guard let members = candidate.value(forKey: inverse.name) else { continue }
            let keys = try keys(inCollection: members, ordered: false)
            if let mine = key(of: node.objectID), keys.contains(mine) { return candidate }
        }
        return nil
    }

    // MARK: - Fetching

    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard plan.predicate == nil, plan.sorts.isEmpty else { throw StoreFetchUnsupported() }
        var rows = try atomic.nodes.values
            .filter { node in
                let entity = node.objectID.entity
                return plan.includesSubentities ? entity.isKindOf(entity: plan.entity) : entity === plan.entity
            }
            .compactMap(row(of:))
        rows.sort { $0.pk < $1.pk }
        if plan.offset > 0 { rows = Array(rows.dropFirst(plan.offset)) }
        if plan.limit > 0 { rows = Array(rows.prefix(plan.limit)) }
        return rows
    }

    func count(_ plan: FetchPlan) throws -> Int { try fetch(plan).count }

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        guard let node = atomic.nodes[nodeKey(entity, pk)] else { return nil }
        return try row(of: node)
    }

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        guard let node = atomic.nodes[nodeKey(relationship.entity, pk)] else { return [] }
        if let value = node.value(forKey: relationship.name) {
            return try keys(inCollection: value, ordered: relationship.isOrdered)
        }
        // The store keeps the other side only: the destinations whose inverse names us.
        guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity,
              let mine = key(of: node.objectID) else { return [] }
        var result: [StoreKey] = []
        for candidate in atomic.nodes.values where candidate.objectID.entity.isKindOf(entity: destination) {
            guard let value = candidate.value(forKey: inverse.name) else { continue }
            let named: [StoreKey]
            if inverse.isToMany {
                named = try keys(inCollection: value, ordered: false)
            } else {
                named = try objectID(named: value).flatMap(key(of:)).map { [$0] } ?? []
            }
            if named.contains(mine), let key = key(of: candidate.objectID) { result.append(key) }
        }
        return result.sorted { $0.pk < $1.pk }
    }

    // MARK: - Saving

    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "The atomic store \(Swift.type(of: atomic)) makes its own object IDs (newReferenceObject(for:)).")
    }

    func obtainKeys(for objects: [AnyObject]) throws -> [StoreKey]? {
        try objects.map { object in
            guard let managed = object as? NSManagedObject else {
                throw CoreDataError.make(NSCoreDataError, "Only managed objects get permanent IDs.")
            }
            let objectID = atomic.objectID(for: managed.entity, withReferenceObject: atomic.newReferenceObject(for: managed))
            guard let key = key(of: objectID) else {
                throw CoreDataError.make(NSCoreDataError, "The store \(Swift.type(of: atomic)) made no permanent ID for \(managed.objectID).")
            }
            return key
        }
    }

    var readsObjectsOnSave: Bool { true }

    func save(_ changes: StoreChanges) throws {
        try changes.checkVersions { check in
            let key = nodeKey(check.entity, check.pk)
            return atomic.nodes[key] == nil ? nil : versions[key] ?? 1
        }
        let savedNodes = atomic.nodes
        let savedVersions = versions
        do {
            try apply(changes)
            try atomic.save()
        } catch {
            atomic.replaceNodes(savedNodes)
            versions = savedVersions
            throw error
        }
    }

    private func apply(_ changes: StoreChanges) throws {
        func managed(_ object: AnyObject?) throws -> NSManagedObject {
            guard let managed = object as? NSManagedObject else {
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                    "The atomic store \(Swift.type(of: atomic)) saves managed objects; these changes came without them.")
            }
            return managed
        }
        // Every new node first, so that updating a node can find the nodes of the other
        // objects inserted in the same save.
        var updated: [(NSAtomicStoreCacheNode, NSManagedObject)] = []
        for insert in changes.inserts {
            let object = try managed(insert.object)
            let node = atomic.newCacheNode(for: object)
            atomic.addCacheNodes([node])
            versions[nodeKey(insert.entity, insert.pk)] = 1
            updated.append((node, object))
        }
        for update in changes.updates {
            let object = try managed(update.object)
            let key = nodeKey(update.entity, update.pk)
            let node = atomic.nodes[key] ?? {
                let made = atomic.newCacheNode(for: object)
                atomic.addCacheNodes([made])
                return made
            }()
            versions[key] = update.expectedVersion + 1
            updated.append((node, object))
        }
        for (node, object) in updated { atomic.updateCacheNode(node, from: object) }
        let removed = changes.deletes.compactMap { atomic.nodes[nodeKey($0.entity, $0.pk)] }
        if !removed.isEmpty { atomic.willRemoveCacheNodes(Set(removed)) }
        for delete in changes.deletes {
            let key = nodeKey(delete.entity, delete.pk)
            atomic.dropNode(key)
            versions.removeValue(forKey: key)
        }
    }
}
