import Foundation

// MARK: - Batch requests

extension NSPersistentStoreCoordinator {
    /// Runs a batch operation in `store` when the store runs it itself (the SQL stores),
    /// then forgets the cached rows of the entities it changed. Returns nil when the store
    /// does not run it (the caller then uses the row-by-row path below).
    ///
    /// - Throws: `StoreFetchUnsupported` when the store cannot evaluate the operation's
    ///   predicate or expressions (nothing was written); the store's errors.
    func executeBatch(_ operation: StoreBatchOperation, in store: NSPersistentStore) throws -> StoreBatchOutcome? {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let backend = store.backend as? BatchStoreBackend, backend.runsBatch(operation) else { return nil }
        let outcome = try backend.executeBatch(operation, origin: requestingOrigin)
        forgetRows(of: store, roots: roots(of: outcome.changes.staleEntityIDs))
        return outcome
    }

    /// Who persistent history says made a batch request's changes: the context the
    /// coordinator is serving.
    var requestingOrigin: HistoryOrigin {
        (requestingContext as? any HistoryAuthoring)?.historyOrigin ?? HistoryOrigin()
    }

    private func roots(of entityIDs: Set<Int>) -> Set<ObjectIdentifier> {
        Set(entityIDs.compactMap { managedObjectModel.entity(forID: $0)?.runtime.rootID })
    }

    // MARK: Row by row (stores without batch operations)

    /// A batch insert written through the store's save: one change set, whose rows the
    /// cache keeps. Uniqueness constraints upsert as in ``executeBatch(_:in:)``, against the
    /// stored rows and the rows inserted before in the same batch.
    func insertRowByRow(_ insert: StoreBatchInsert, in store: NSPersistentStore) throws -> StoreBatchOutcome {
        stateLock.lock()
        defer { stateLock.unlock() }
        let entity = insert.entity
        let backend = store.backend
        var pending: [StoreChanges.Write] = []
        var changes = StoreChanges(origin: requestingOrigin)
        var outcome = StoreBatchOutcome()
        // Constraint values → the write (or stored row) holding them.
        var known: [[AnyHashable]: StoreRow] = [:]
        func constraintKeys(_ row: StoreRow) -> [[AnyHashable]] {
            insert.constraints.enumerated().compactMap { index, slots in
                var key: [AnyHashable] = [index]
                for slot in slots {
                    guard let attribute = entity.runtime.slotProperties[Int(slot)] as? NSAttributeDescription,
                          let value = attribute.swiftValue(of: row.values.value(at: slot)) as? AnyHashable else { return nil }
                    key.append(value)
                }
                return key
            }
        }
        if !insert.constraints.isEmpty {
            for row in try backend.fetch(FetchPlan(entity: entity.runtime.root)) {
                for key in constraintKeys(row) where known[key] == nil { known[key] = row }
            }
        }
        let scratch = StoreRow(entity: entity, pk: 0, version: 1)
        var named: [Int32] = []
        var updatedRows: [StoreKey: (row: StoreRow, expected: Int64, slots: Set<Int32>)] = [:]
        var updateOrder: [StoreKey] = []
        while true {
            named.removeAll(keepingCapacity: true)
            guard try insert.next(scratch, &named) else { break }
            if let match = constraintKeys(scratch).lazy.compactMap({ known[$0] }).first {
                // The matched row takes the named values; a row inserted in this batch is
                // still pending and changes in place.
                for slot in named { Self.copy(slot, from: scratch, to: match) }
                if !pending.contains(where: { $0.values === match }) {
                    if updatedRows[match.key] == nil {
                        let updated = StoreRow(entity: match.entity, pk: match.pk, version: match.version + 1)
                        updated.values.copyAll(from: match.values)
                        updatedRows[match.key] = (updated, match.version, [])
                        updateOrder.append(match.key)
                        for key in constraintKeys(updated) { known[key] = updated }
                    }
                    if let updated = updatedRows[match.key]?.row {
                        for slot in named { Self.copy(slot, from: scratch, to: updated) }
                    }
                    updatedRows[match.key]?.slots.formUnion(named)
                }
                outcome.result.append(match.key)
                continue
            }
            let pk = try backend.allocateKeys(entity: entity, count: 1)
            let row = StoreRow(entity: entity, pk: pk, version: 1)
            row.values.copyAll(from: scratch.values)
            pending.append(.init(entity: entity, pk: pk, values: row, changedSlots: entity.runtime.storedSlots,
                                 expectedVersion: 0))
            for key in constraintKeys(row) { known[key] = row }
            outcome.result.append(row.key)
            outcome.changes.inserted.append(row.key)
        }
        changes.inserts = pending
        for key in updateOrder {
            guard let entry = updatedRows[key] else { continue }
            changes.updates.append(.init(entity: entry.row.entity, pk: key.pk, values: entry.row,
                                         changedSlots: entry.slots.sorted(), expectedVersion: entry.expected))
            outcome.changes.updated.append(key)
        }
        try apply(changes, to: store)
        return outcome
    }

    /// A batch delete written through the store's save: the rows the delete rules reach,
    /// nullified inverses and links, in one change set.
    func deleteRowByRow(_ requested: [StoreKey], in store: NSPersistentStore) throws -> StoreBatchOutcome {
        stateLock.lock()
        defer { stateLock.unlock() }
        let backend = store.backend
        let model = managedObjectModel
        var existing: [StoreKey] = []
        for key in requested {
            guard let entity = model.entity(forID: key.entityID), let row = try backend.row(entity: entity, pk: key.pk) else { continue }
            existing.append(row.key)
        }
        let work = try BatchDeletion(deleting: existing, entities: { model.entity(forID: $0) }, backend: backend,
                                     collectLinks: true)
        var changes = StoreChanges(origin: requestingOrigin)
        var outcome = StoreBatchOutcome()
        outcome.result = existing
        for key in work.deleted {
            guard let entity = model.entity(forID: key.entityID), let row = try backend.row(entity: entity, pk: key.pk) else { continue }
            changes.deletes.append(.init(entity: row.entity, pk: key.pk, expectedVersion: row.version))
            outcome.changes.deleted.append(key)
        }
        var cleared: [StoreKey: (row: StoreRow, expected: Int64, slots: [Int32])] = [:]
        var order: [StoreKey] = []
        for (relationship, keys) in work.nullified {
            for key in keys {
                if cleared[key] == nil {
                    guard let entity = model.entity(forID: key.entityID),
                          let row = try backend.row(entity: entity, pk: key.pk) else { continue }
                    let updated = StoreRow(entity: row.entity, pk: row.pk, version: row.version + 1)
                    updated.values.copyAll(from: row.values)
                    cleared[key] = (updated, row.version, [])
                    order.append(key)
                }
                cleared[key]?.row.values.setNull(at: relationship.slot)
                cleared[key]?.slots.append(relationship.slot)
            }
        }
        for key in order {
            guard let entry = cleared[key] else { continue }
            changes.updates.append(.init(entity: entry.row.entity, pk: key.pk, values: entry.row,
                                         changedSlots: entry.slots, expectedVersion: entry.expected))
            outcome.changes.updated.append(key)
        }
        changes.linksRemoved = work.unlinked
        try apply(changes, to: store)
        return outcome
    }

    /// Copies one slot's value between rows of the same layout.
    private static func copy(_ slot: Int32, from source: StoreRow, to target: StoreRow) {
        target.values.copy(CollectionOfOne(slot), from: source.values)
    }
}
