import Foundation

/// The in-memory store (`NSInMemoryStoreType`): rows in dictionaries, same semantics as
/// the SQLite store (primary keys per inheritance root, optimistic locking, to-many
/// relationships answered from the rows or the link table), gone when the process ends.
final class InMemoryStoreBackend: StoreBackend {
    let storeType = NSInMemoryStoreType
    var metadata: [String: Any] = [:]

    private var model: NSManagedObjectModel!
    /// Rows by inheritance root, then primary key.
    private var rows: [ObjectIdentifier: [Int64: StoreRow]] = [:]
    private var maxKeys: [ObjectIdentifier: Int64] = [:]
    private var links: Set<StoreChanges.Link> = []
    private var order: [LinkOwner: [StoreKey]] = [:]

    private struct LinkOwner: Hashable {
        let relationship: ObjectIdentifier
        let source: StoreKey
    }

    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws {
        self.model = model
        metadata = [
            NSStoreTypeKey: storeType,
            NSStoreUUIDKey: UUID().uuidString,
            NSStoreModelVersionHashesKey: model.entityVersionHashesByName,
            NSStoreModelVersionIdentifiersKey: Array(model.versionIdentifiers),
        ]
    }

    private func table(_ entity: NSEntityDescription) -> ObjectIdentifier {
        ObjectIdentifier(entity.runtime.root)
    }

    private func matches(_ row: StoreRow, _ plan: FetchPlan) -> Bool {
        plan.includesSubentities ? row.entity.isKindOf(entity: plan.entity) : row.entity === plan.entity
    }

    func fetch(_ plan: FetchPlan) throws -> [StoreRow] {
        guard plan.predicate == nil, plan.sorts.isEmpty else { throw StoreFetchUnsupported() }
        var result = (rows[table(plan.entity)] ?? [:]).values.filter { matches($0, plan) }
        result.sort { $0.pk < $1.pk }
        if plan.offset > 0 { result = Array(result.dropFirst(plan.offset)) }
        if plan.limit > 0 { result = Array(result.prefix(plan.limit)) }
        return result
    }

    func count(_ plan: FetchPlan) throws -> Int {
        try fetch(plan).count
    }

    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? {
        rows[table(entity)]?[pk]
    }

    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] {
        let source = StoreKey(entityID: relationship.entity.runtime.entityID, pk: pk)
        if let ordered = order[LinkOwner(relationship: ObjectIdentifier(relationship), source: source)] {
            return ordered
        }
        if let inverse = relationship.inverseRelationship, !inverse.isToMany,
           let destination = relationship.destinationEntity {
            // One-to-many: the children's to-one slots point back at us.
            return (rows[table(destination)] ?? [:]).values
                .filter { $0.entity.isKindOf(entity: destination) }
                .filter { row in
                    guard let key = row.values.storeKey(at: inverse.slot) else { return false }
                    return key.pk == pk
                }
                .sorted { $0.pk < $1.pk }
                .map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) }
        }
        // Links are recorded under one side of a many-to-many; read them from either.
        let inverse = relationship.inverseRelationship
        return links.compactMap { link -> StoreKey? in
            if link.relationship === relationship, link.source.pk == pk { return link.destination }
            if let inverse, link.relationship === inverse, link.destination.pk == pk { return link.source }
            return nil
        }.sorted { $0.pk < $1.pk }
    }

    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        let key = table(entity)
        let first = (maxKeys[key] ?? 0) + 1
        maxKeys[key] = first + Int64(count) - 1
        return first
    }

    func save(_ changes: StoreChanges) throws {
        try changes.checkVersions { rows[table($0.entity)]?[$0.pk]?.version }
        for write in changes.inserts + changes.updates {
            rows[table(write.entity), default: [:]][write.pk] = write.values
        }
        for delete in changes.deletes {
            rows[table(delete.entity)]?.removeValue(forKey: delete.pk)
        }
        for link in changes.linksRemoved { links.remove(link) }
        for link in changes.linksAdded { links.insert(link) }
        for ordering in changes.orderings {
            order[LinkOwner(relationship: ObjectIdentifier(ordering.relationship), source: ordering.source)] = ordering.destinations
        }
    }

    func close() {
        rows = [:]
        links = []
        order = [:]
    }
}
