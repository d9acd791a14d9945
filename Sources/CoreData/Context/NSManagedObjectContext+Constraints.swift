import Foundation

// MARK: - Uniqueness constraints at save

extension NSEntityDescription {
    /// The constraints this entity must satisfy: its own and its superentities', each
    /// with the entity that declares it (the scope of the uniqueness).
    var effectiveUniquenessConstraints: [(declaring: NSEntityDescription, names: [String])] {
        var result: [(NSEntityDescription, [String])] = []
        var current: NSEntityDescription? = self
        while let entity = current {
            for constraint in entity.uniquenessConstraints {
                let names = constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
                if !names.isEmpty { result.append((entity, names)) }
            }
            current = entity.superentity
        }
        return result
    }
}

extension NSManagedObjectContext {
    /// Finds objects about to be saved that break a uniqueness constraint, among
    /// themselves or against the store, and lets the merge policy resolve them through
    /// `resolve(mergeConflicts:)` (`NSErrorMergePolicy` throws
    /// `NSManagedObjectConstraintMergeError`).
    func resolveUniquenessConflicts() throws {
        let candidates = changes.savedObjects
        let constrained = candidates.filter { !$0.entity.effectiveUniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return }
        let changing = Set(candidates.map(ObjectIdentifier.init) + changes.deletedObjects.map(ObjectIdentifier.init))
        var conflicts: [NSConstraintConflict] = []
        var checked = Set<String>()
        for object in constrained {
            for (declaring, names) in object.entity.effectiveUniquenessConstraints {
                let id = "\(ObjectIdentifier(declaring))|\(names.joined(separator: ","))"
                guard checked.insert(id).inserted else { continue }
                let members = constrained.filter { $0.entity.isKindOf(entity: declaring) }
                conflicts += try uniquenessConflicts(members, declaring: declaring, names: names, changing: changing)
            }
        }
        guard !conflicts.isEmpty else { return }
        try resolvingMergePolicy.resolve(mergeConflicts: conflicts)
    }

    private func uniquenessConflicts(_ objects: [NSManagedObject], declaring: NSEntityDescription,
                                     names: [String], changing: Set<ObjectIdentifier>) throws -> [NSConstraintConflict] {
        func key(_ values: [Any?]) -> [AnyHashable]? {
            var result: [AnyHashable] = []
            for value in values {
                guard let value = NSAttributeDescription.unwrap(value) else { return nil }
                if let object = value as? NSManagedObject { result.append(object.objectID) }
                else if let hashable = value as? AnyHashable { result.append(hashable) }
                else { result.append("\(value)") }
            }
            return result
        }
        var groups: [[AnyHashable]: [NSManagedObject]] = [:]
        var order: [[AnyHashable]] = []
        for object in objects {
            guard let values = key(names.map { object.value(forKey: $0) }) else { continue }
            if groups[values] == nil { order.append(values) }
            groups[values, default: []].append(object)
        }
        var conflicts: [NSConstraintConflict] = []
        for values in order {
            let group = groups[values]!
            if group.count > 1 {
                conflicts.append(NSConstraintConflict(constraint: names, databaseObject: nil, databaseSnapshot: nil,
                                                      conflictingObjects: group,
                                                      conflictingSnapshots: group.map { $0.committedValues(forKeys: nil) }))
            }
            let first = group[0]
            for row in try storeRows(declaring, names: names, values: names.map { first.value(forKey: $0) }) {
                guard let store = row.store else { continue }
                let holder = register(row: row.row, store: store, asFault: true)
                if changing.contains(ObjectIdentifier(holder)) { continue }
                let snapshot = holder.committedRow.map { _ in holder.committedValues(forKeys: nil) }
                    ?? storeSnapshot(row.row)
                conflicts.append(NSConstraintConflict(constraint: names, databaseObject: holder, databaseSnapshot: snapshot,
                                                      conflictingObjects: group,
                                                      conflictingSnapshots: group.map { $0.committedValues(forKeys: nil) }))
            }
        }
        return conflicts
    }

    /// The store rows of `entity` (and its sub-entities) whose constraint values equal
    /// `values`: the store narrows them with a predicate when it can, then each row's
    /// values are compared here.
    private func storeRows(_ entity: NSEntityDescription, names: [String], values: [Any?]) throws
        -> [(row: StoreRow, store: NSPersistentStore?)] {
        guard let coordinator = persistentStoreCoordinator else { return [] }
        let terms = zip(names, values).map { name, value -> NSPredicate in
            NSPredicate(format: "%K == %@", argumentArray: [name, (value as? NSManagedObject)?.objectID ?? value ?? NSNull()])
        }
        var plan = FetchPlan(entity: entity, includesSubentities: true,
                             predicate: NSCompoundPredicate(andPredicateWithSubpredicates: terms))
        var result: [(StoreRow, NSPersistentStore?)] = []
        for store in coordinator.persistentStores {
            let members = coordinator.managedObjectModel.entities(forConfigurationName: store.configurationName) ?? []
            guard members.contains(where: { $0 === entity || $0 === entity.runtime.root }) else { continue }
            var rows: [StoreRow]
            do {
                rows = try coordinator.fetchRows(plan, in: store)
            } catch is StoreFetchUnsupported {
                plan.predicate = nil
                rows = try coordinator.fetchRows(plan, in: store)
            }
            for row in rows where Self.row(row, matches: values, names: names) { result.append((row, store)) }
        }
        return result
    }

    private static func row(_ row: StoreRow, matches values: [Any?], names: [String]) -> Bool {
        for (name, value) in zip(names, values) {
            guard let attribute = row.entity.attributesByName[name],
                  let slot = row.entity.runtime.slotByName[name],
                  let current = NSAttributeDescription.unwrap(value),
                  let storedValue = attribute.swiftValue(of: row.values.value(at: slot)) else { return false }
            if let a = storedValue as? NSNumber, let b = NSAttributeDescription.double(current) {
                if a.doubleValue != b { return false }
            } else if "\(storedValue)" != "\(current)" {
                return false
            }
        }
        return true
    }

    private func storeSnapshot(_ row: StoreRow) -> [String: Any] {
        var result: [String: Any] = [:]
        for case let attribute as NSAttributeDescription in row.entity.runtime.slotProperties where !attribute.isTransient {
            result[attribute.name] = attribute.swiftValue(of: row.values.value(at: attribute.slot)) ?? NSNull()
        }
        return result
    }
}
