import Foundation

/// One save, prepared: permanent keys for inserted objects, a change set per store, and
/// what to do to the objects once the stores accepted it. Nothing in the context changes
/// until `commit()`, so a failed `write()` leaves the context as it was.
final class SaveBatch {
    private unowned let context: NSManagedObjectContext
    private let coordinator: NSPersistentStoreCoordinator
    private let inserts: [NSManagedObject]
    private let updates: [NSManagedObject]
    private let deletes: [NSManagedObject]
    private let locked: [NSManagedObject]
    /// New permanent IDs of inserted objects that still had temporary ones: element `i`
    /// is `inserts[i]`'s (nil when it keeps its ID).
    private var insertIDs: [NSManagedObjectID?] = []
    /// ``insertIDs`` by object, built when first asked for the ID of an object other than
    /// the insert at hand (a relationship's destination).
    private lazy var newIDs: [ObjectIdentifier: NSManagedObjectID] = {
        var byObject: [ObjectIdentifier: NSManagedObjectID] = [:]
        for (object, objectID) in zip(inserts, insertIDs) { if let objectID { byObject[ObjectIdentifier(object)] = objectID } }
        return byObject
    }()
    private var changes: [ObjectIdentifier: (NSPersistentStore, StoreChanges)] = [:]
    /// The committed rows of `inserts` (element `i` is `inserts[i]`'s) and of `updates`.
    private var insertRows: [StoreRow?] = []
    private var updateRows: [StoreRow?] = []

    init(context: NSManagedObjectContext, coordinator: NSPersistentStoreCoordinator, changes: SaveChanges) throws {
        self.context = context
        self.coordinator = coordinator
        self.inserts = changes.inserts
        self.updates = changes.updates
        self.deletes = changes.deletes
        self.locked = changes.locked
        try assignKeys()
        try build()
    }

    private func assignKeys() throws {
        insertIDs = try coordinator.serving(context) { try context.permanentIDs(allocatingFor: inserts) }
    }

    private func id(of object: NSManagedObject) -> NSManagedObjectID {
        newIDs[ObjectIdentifier(object)] ?? object.objectID
    }

    private func key(of object: NSManagedObject) -> StoreKey? {
        let objectID = id(of: object)
        return objectID.primaryKey.map { StoreKey(entityID: object.entity.runtime.entityID, pk: $0) }
    }

    /// Who saves, for stores that record persistent history.
    private var origin: HistoryOrigin { HistoryOrigin(author: context.transactionAuthor, contextName: context.name) }

    private func withChanges(_ store: NSPersistentStore, _ body: (inout StoreChanges) -> Void) {
        // Mutate in place: copying the entry out and back made every append copy the
        // store's whole change arrays (quadratic saves).
        body(&changes[ObjectIdentifier(store), default: (store, StoreChanges(origin: origin))].1)
    }

    private func build() throws {
        insertRows = Array(repeating: nil, count: inserts.count)
        for (i, object) in inserts.enumerated() {
            let objectID = insertIDs[i] ?? object.objectID
            guard let store = objectID.persistentStore, let pk = objectID.primaryKey else { continue }
            let row = try makeRow(object, pk: pk, version: 1)
            insertRows[i] = row
            let slots = object.entity.runtime.storedSlots
            withChanges(store) {
                $0.inserts.append(.init(entity: object.entity, pk: pk, values: row, changedSlots: slots, expectedVersion: 0,
                                        object: object))
            }
            addLinks(of: object, pk: pk, store: store)
        }
        updateRows = Array(repeating: nil, count: updates.count)
        for (i, object) in updates.enumerated() {
            guard let store = object.objectID.persistentStore, let pk = object.objectID.primaryKey else { continue }
            let version = object.committedRow?.version ?? 0
            let row = try makeRow(object, pk: pk, version: version + 1)
            updateRows[i] = row
            let slots = object.entity.runtime.slotProperties
                .filter { EntityRuntime.isStored($0) && object.differsFromCommitted($0) }.map(\.slot)
            withChanges(store) {
                $0.updates.append(.init(entity: object.entity, pk: pk, values: row, changedSlots: slots, expectedVersion: version,
                                        object: object))
            }
            addLinks(of: object, pk: pk, store: store)
        }
        for object in deletes {
            guard let store = object.objectID.persistentStore, let pk = object.objectID.primaryKey else { continue }
            // Another writer deleted the row (a merge policy let that stand): nothing to do
            // in the store; `commit()` still lets the object go.
            if context.changes.isGoneFromStore(object) { continue }
            withChanges(store) {
                $0.deletes.append(.init(entity: object.entity, pk: pk, expectedVersion: object.committedRow?.version ?? 0,
                                        object: object))
            }
            removeAllLinks(of: object, store: store)
        }
        for object in locked {
            guard let store = object.objectID.persistentStore, let pk = object.objectID.primaryKey else { continue }
            withChanges(store) {
                $0.locks.append(.init(entity: object.entity, pk: pk, expectedVersion: object.committedRow?.version ?? 0,
                                      object: object))
            }
        }
    }

    /// The link and ordering changes of an object's changed to-many relationships;
    /// `pk` is its primary key in `store`.
    private func addLinks(of object: NSManagedObject, pk: Int64, store: NSPersistentStore) {
        let runtime: EntityRuntime = object.entity.runtime
        for slot in runtime.persistentToManySlots where object.storage.isDirty(at: slot) {
            guard let relationship = runtime.slotProperties[Int(slot)] as? NSRelationshipDescription else { continue }
            let source = StoreKey(entityID: runtime.entityID, pk: pk)
            let current = object.toManyMembers(slot: relationship.slot, relationship: relationship)
            if StoreChanges.ownsLinks(relationship) {
                let committed = object.committedToMany[relationship.slot] ?? []
                let currentIDs = Set(current.map(ObjectIdentifier.init))
                let committedIDs = Set(committed.map(ObjectIdentifier.init))
                withChanges(store) { changes in
                    for member in current where !committedIDs.contains(ObjectIdentifier(member)) {
                        if let destination = key(of: member) {
                            changes.linksAdded.append(.init(relationship: relationship, source: source, destination: destination))
                        }
                    }
                    for member in committed where !currentIDs.contains(ObjectIdentifier(member)) {
                        if let destination = key(of: member) {
                            changes.linksRemoved.append(.init(relationship: relationship, source: source, destination: destination))
                        }
                    }
                }
            }
            if relationship.isOrdered {
                let destinations = current.compactMap(key(of:))
                withChanges(store) { $0.orderings.append((relationship, source, destinations)) }
            }
        }
    }

    private func removeAllLinks(of object: NSManagedObject, store: NSPersistentStore) {
        guard let source = key(of: object) else { return }
        for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties
        where StoreChanges.ownsLinks(relationship) && !relationship.isTransient {
            let members = object.committedToMany[relationship.slot]
                ?? object.toManyMembers(slot: relationship.slot, relationship: relationship)
            withChanges(store) { changes in
                for member in members {
                    if let destination = key(of: member) {
                        changes.linksRemoved.append(.init(relationship: relationship, source: source, destination: destination))
                    }
                }
            }
        }
    }

    /// The object's values as a store row: destinations by their (new) keys; deleted ones
    /// are left out, their inverse nullified by the delete rules.
    private func makeRow(_ object: NSManagedObject, pk: Int64, version: Int64) throws -> StoreRow {
        try object.persistentRow(pk: pk, version: version, strict: true) { destination in
            destination.isDeletedFlag ? nil : self.key(of: destination).map(RowReference.key)
        }
    }

    /// Sends each store its change set. Optimistic-locking failures become
    /// ``OptimisticLockingFailure`` with an `NSMergeConflict` per row, for the context's
    /// merge policy.
    func write() throws {
        for (store, storeChanges) in changes.values {
            if store.backend.readsObjectsOnSave { givePermanentIDs(inStore: store) }
            do {
                try coordinator.serving(context) { try coordinator.apply(storeChanges, to: store) }
            } catch let conflict as StoreConflict {
                throw OptimisticLockingFailure(conflicts: try context.mergeConflicts(
                    for: conflict, in: store, among: updates + deletes + locked))
            }
        }
    }

    /// Gives the inserted objects bound for `store` their permanent IDs before the store
    /// sees them: a custom store reads `objectID` from the objects of a save (Apple assigns
    /// them before `execute(_:with:)` with the save request). They keep them if the save
    /// then fails, as on Apple.
    private func givePermanentIDs(inStore store: NSPersistentStore) {
        for (i, object) in inserts.enumerated() {
            guard let objectID = insertIDs[i], objectID.persistentStore === store else { continue }
            context.reassign(object, to: objectID)
            insertIDs[i] = nil
            newIDs.removeValue(forKey: ObjectIdentifier(object))
        }
    }

    /// The stores took the changes: objects get permanent IDs, new snapshots, no dirty
    /// bits; deleted ones leave the context.
    func commit() {
        var moves: [(object: NSManagedObject, objectID: NSManagedObjectID)] = []
        moves.reserveCapacity(inserts.count)
        for (i, object) in inserts.enumerated() {
            if let objectID = insertIDs[i] { moves.append((object, objectID)) }
            object.isInsertedFlag = false
        }
        context.reassign(moves)
        for (object, row) in zip(inserts, insertRows) { object.markSaved(as: row) }
        for (object, row) in zip(updates, updateRows) { object.markSaved(as: row) }
        for object in deletes {
            object.isDeletedFlag = false
            context.unregister(object)
        }
        context.changes.clearSaved()
    }
}

extension NSManagedObject {
    /// After a save: `row` is the committed snapshot, loaded to-many members the
    /// committed members, and no property is dirty.
    func markSaved(as row: StoreRow?) {
        committedRow = row
        for case let relationship as NSRelationshipDescription in entity.runtime.slotProperties
        where relationship.isToMany {
            if let set = storage.set(at: relationship.slot) {
                committedToMany[relationship.slot] = set.members(as: NSManagedObject.self)
            }
        }
        storage.clearDirty()
        storage.clearEventDirty()
    }
}
