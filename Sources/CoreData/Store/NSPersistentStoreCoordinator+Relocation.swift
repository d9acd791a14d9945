import Foundation

// MARK: - Moving stores: setURL(_:for:) and migratePersistentStore

extension NSPersistentStoreCoordinator {
    /// ``setURL(_:for:)``.
    func relocate(_ store: NSPersistentStore, to url: URL) -> Bool {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard persistentStores.contains(where: { $0 === store }) else { return false }
        guard let current = store.backend as? SQLiteStoreBackend else {
            store.url = url
            return true
        }
        guard SQLiteStoreBackend.isInMemoryPath(url) || FileManager.default.fileExists(atPath: url.path) else { return false }
        let replacement = SQLiteStoreBackend(url: url, options: store.options ?? [:])
        do {
            try replacement.load(model: managedObjectModel, entities: entities(of: store))
        } catch {
            return false
        }
        current.close()
        store.backend = replacement
        store.url = url
        forgetRows(of: store)
        // The old file's watcher went with the old backend: watch the new file.
        try? startRemoteChangeNotifications(for: store)
        return true
    }

    /// ``migratePersistentStore(_:to:options:withType:)``.
    func migrate(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]?,
                 storeType: String) throws -> NSPersistentStore {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let index = persistentStores.firstIndex(where: { $0 === store }) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "The store to migrate is not added to this coordinator.")
        }
        switch StoreTypeRegistry.kind(of: storeType) {
        case .sqlite?:
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
            if !SQLiteStoreBackend.isInMemoryPath(url), size > 0 {
                throw CoreDataError.store(NSPersistentStoreOperationError,
                    "A store already exists at \(url.path); destroy it first to migrate there.", url: url)
            }
        case .inMemory?, .postgreSQL?:
            break
        case .registered?:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "A store can be migrated to a SQLite or in-memory store, not to the custom type \(storeType).")
        case nil:
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "Unknown store type \(storeType).")
        }
        let configuration = store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : store.configurationName
        let target = try makeStore(ofType: storeType, configurationName: configuration, at: url, options: options)
        let entities = entities(of: store)
        do {
            try target.backend.load(model: managedObjectModel, entities: entities)
            var metadata = target.backend.metadata
            for (key, value) in store.backend.metadata where key != NSStoreTypeKey { metadata[key] = value }
            target.backend.metadata = metadata
            try Self.copyContents(of: store.backend, to: target.backend, entities: entities)
        } catch {
            target.backend.close()
            if storeType == NSSQLiteStoreType, !SQLiteStoreBackend.isInMemoryPath(url) {
                try? SQLiteStoreBackend.destroyFiles(at: url)
            }
            throw error
        }
        store.willRemove(from: self)
        persistentStores.remove(at: index)
        forgetRows(of: store)
        store.backend.close()
        store.persistentStoreCoordinator = nil
        target.persistentStoreCoordinator = self
        persistentStores.insert(target, at: index)
        target.didAdd(to: self)
        return target
    }

    /// The entities a store holds (its configuration's).
    func entities(of store: NSPersistentStore) -> [NSEntityDescription] {
        managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []
    }

    /// Writes every row, link and order of `source` into the empty `target`, in one save,
    /// keeping primary keys (and reserving them, so that new objects get new ones).
    static func copyContents(of source: StoreBackend, to target: StoreBackend, entities: [NSEntityDescription]) throws {
        var changes = StoreChanges()
        var seenRoots = Set<ObjectIdentifier>()
        for entity in entities {
            let root = entity.runtime.root
            guard seenRoots.insert(ObjectIdentifier(root)).inserted else { continue }
            let rows = try source.fetch(FetchPlan(entity: root, includesSubentities: true))
            if let last = rows.map(\.pk).max(), last > 0 {
                _ = try target.allocateKeys(entity: root, count: Int(last))
            }
            for row in rows {
                changes.inserts.append(.init(entity: row.entity, pk: row.pk, values: row,
                                             changedSlots: row.entity.runtime.storedSlots, expectedVersion: 0))
            }
            // Each relationship of the family once (sub-entities repeat inherited ones).
            var seenRelationships = Set<ObjectIdentifier>()
            for member in root.runtime.family {
                for case let relationship as NSRelationshipDescription in member.properties
                where relationship.isToMany && !relationship.isTransient {
                    guard seenRelationships.insert(ObjectIdentifier(relationship)).inserted else { continue }
                    let owns = StoreChanges.ownsLinks(relationship)
                    guard owns || relationship.isOrdered else { continue }
                    let sources = rows.filter { $0.entity.isKindOf(entity: relationship.entity) }
                    let related = try source.relatedKeys(relationship: relationship, pks: sources.map(\.pk))
                    for row in sources {
                        let members = related[row.pk] ?? []
                        let key = row.key
                        if owns {
                            for member in members {
                                changes.linksAdded.append(.init(relationship: relationship, source: key, destination: member))
                            }
                        }
                        if relationship.isOrdered, !members.isEmpty {
                            changes.orderings.append((relationship, key, members))
                        }
                    }
                }
            }
        }
        try target.save(changes)
    }
}
