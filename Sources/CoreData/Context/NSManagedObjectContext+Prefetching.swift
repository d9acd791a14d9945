import Foundation

// MARK: - relationshipKeyPathsForPrefetching

extension NSManagedObjectContext {
    /// Loads the relationships a fetch request names for prefetching (`"list"`,
    /// `"items.tags"`) for all fetched objects at once: per step of a key path, one query
    /// for the member keys of a to-many (per 500 sources) and one for the rows of the
    /// destinations not cached yet (per 500). The destinations come back realized and
    /// the to-many relationships loaded, so reading them issues no further statements.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject]) throws {
        for keyPath in keyPaths {
            let steps = keyPath.split(separator: ".").map(String.init)
            var current = objects
            for step in steps {
                current = try prefetchStep(step, for: current)
                if current.isEmpty { break }
            }
        }
    }

    /// Loads one relationship of `objects`; returns the distinct destinations.
    private func prefetchStep(_ key: String, for objects: [NSManagedObject]) throws -> [NSManagedObject] {
        guard let coordinator = persistentStoreCoordinator else { return [] }
        var destinations: [NSManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        func collect(_ object: NSManagedObject) {
            if seen.insert(ObjectIdentifier(object)).inserted { destinations.append(object) }
        }
        // To-many members of saved sources, grouped by store and relationship.
        var pendingToMany: [RelationshipInStore: (NSPersistentStore, NSRelationshipDescription, [NSManagedObject])] = [:]
        for object in objects where object.context === self {
            guard let relationship = object.property(forKey: key) as? NSRelationshipDescription else {
                throw CoreDataError.make(NSCoreDataError,
                    "relationshipKeyPathsForPrefetching names \(key), which is not a relationship of \(object.entity.name ?? "?").")
            }
            try object.fireFaultThrowing()
            if !relationship.isToMany {
                if let destination = object.toOneValue(slot: relationship.slot) { collect(destination) }
                continue
            }
            if object.hasLoadedToMany(relationship) || object.isInsertedFlag {
                object.toManyMembers(slot: relationship.slot, relationship: relationship).forEach(collect)
                continue
            }
            guard let store = object.objectID.persistentStore else { continue }
            let group = RelationshipInStore(store: ObjectIdentifier(store), relationship: ObjectIdentifier(relationship))
            pendingToMany[group, default: (store, relationship, [])].2.append(object)
        }
        for (store, relationship, sources) in pendingToMany.values {
            let keys = try coordinator.relatedKeys(relationship, ofKeys: sources.compactMap(\.objectID.primaryKey), in: store)
            for source in sources {
                let members = (keys[source.objectID.primaryKey ?? 0] ?? []).compactMap {
                    registeredObjectOrFault(entityID: $0.entityID, pk: $0.pk, store: store,
                                            fallback: relationship.destinationEntity)
                }
                source.installLoadedToMany(relationship, members: members)
                members.forEach(collect)
            }
        }
        try realize(destinations.filter(\.isFault), coordinator: coordinator)
        return destinations
    }

    /// Fires faults from rows read in batches (one statement per family and store).
    private func realize(_ faults: [NSManagedObject], coordinator: NSPersistentStoreCoordinator) throws {
        let groups = Dictionary(grouping: faults.filter { $0.objectID.primaryKey != nil && $0.objectID.persistentStore != nil }) {
            FamilyInStore(store: ObjectIdentifier($0.objectID.persistentStore!), root: ObjectIdentifier($0.entity.runtime.root))
        }
        for group in groups.values {
            guard let store = group[0].objectID.persistentStore else { continue }
            try coordinator.cacheRows(entity: group[0].entity.runtime.root, pks: group.compactMap(\.objectID.primaryKey), in: store)
        }
        for object in faults where object.isFault { try object.fireFaultThrowing() }
    }

    private struct RelationshipInStore: Hashable {
        let store: ObjectIdentifier
        let relationship: ObjectIdentifier
    }

    private struct FamilyInStore: Hashable {
        let store: ObjectIdentifier
        let root: ObjectIdentifier
    }
}

extension NSManagedObject {
    /// Whether a to-many slot holds its members (loaded, inserted or set).
    func hasLoadedToMany(_ relationship: NSRelationshipDescription) -> Bool {
        storage.set(at: relationship.slot) != nil
    }

    /// Loads a to-many slot with members read elsewhere (prefetching), as if the fault had
    /// fired: no dirty bits, the members become the committed contents.
    func installLoadedToMany(_ relationship: NSRelationshipDescription, members: [NSManagedObject]) {
        guard !hasLoadedToMany(relationship), let set = storage.mutableSet(at: relationship.slot) else { return }
        for member in members { set.add(member) }
        committedToMany[relationship.slot] = members
    }
}
