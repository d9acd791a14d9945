import Foundation

// MARK: - Executing history requests

extension NSPersistentHistoryChangeRequest: ContextExecutableRequest {
    /// Reads or deletes the history of the request's stores (all of the coordinator's SQL
    /// stores when `affectedStores` is nil), oldest transaction first, store by store.
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        guard let coordinator = context.persistentStoreCoordinator else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "The context has no persistent store coordinator to read history from.")
        }
        coordinator.stateLock.lock()
        defer { coordinator.stateLock.unlock() }
        let stores = affectedStores ?? coordinator.persistentStores
        var historyStores: [(NSPersistentStore, any HistoryKeeping)] = []
        for store in stores {
            guard let keeper = store.backend as? any HistoryKeeping, keeper.tracksHistory else {
                if affectedStores == nil && !(store.backend is any HistoryKeeping) { continue }
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                    "The store \(store.url?.path ?? "?") was not opened with NSPersistentHistoryTrackingKey, so it keeps no persistent history.")
            }
            historyStores.append((store, keeper))
        }
        switch operation {
        case .fetch(let bound):
            var transactions: [NSPersistentHistoryTransaction] = []
            for (store, keeper) in historyStores {
                guard let range = try range(after: bound, in: store, keeper) else { continue }
                let withChanges = fetchRequest != nil
                    || (resultType != .transactionsOnly && resultType != .count && resultType != .statusOnly)
                for record in try keeper.historyTransactions(in: range, withChanges: withChanges) {
                    transactions.append(Self.transaction(record, store: store, model: coordinator.managedObjectModel,
                                                         withChanges: withChanges))
                }
            }
            if let fetchRequest {
                return NSPersistentHistoryResult(result: try narrowed(transactions, by: fetchRequest), resultType: resultType)
            }
            return NSPersistentHistoryResult(result: result(of: transactions), resultType: resultType)
        case .delete(let bound):
            var deleted = 0
            for (store, keeper) in historyStores {
                guard let range = try range(before: bound, in: store) else { continue }
                deleted += try keeper.deleteHistory(in: range)
            }
            let answer: Any = switch resultType {
            case .count: deleted
            default: true
            }
            return NSPersistentHistoryResult(result: answer, resultType: resultType)
        }
    }

    /// The code Apple's Core Data reports when a token names none of the request's stores
    /// (it has no public constant).
    static let storeNotInTokenError = 134501

    /// The result when a ``fetchRequest`` narrows the history: its predicate picks
    /// transactions or changes (by its entity), its sort descriptors, offset and limit order
    /// and cut them.
    private func narrowed(_ transactions: [NSPersistentHistoryTransaction],
                          by request: NSFetchRequest<NSFetchRequestResult>) throws -> Any {
        func keep<T>(_ items: [T]) throws -> [T] {
            var kept = items
            if let predicate = request.predicate {
                do {
                    kept = try kept.filter { try predicate.evaluateOrThrow(with: $0) }
                } catch {
                    throw CoreDataError.make(NSPersistentStoreOperationError,
                        "The history fetch request's predicate \(predicate) cannot be evaluated: \(error).")
                }
            }
            if let descriptors = request.sortDescriptors { kept = NSSortDescriptor.sort(kept, by: descriptors) }
            kept = Array(kept.dropFirst(request.fetchOffset))
            if request.fetchLimit > 0 { kept = Array(kept.prefix(request.fetchLimit)) }
            return kept
        }
        let onChanges = request.entity === HistoryEntities.change || request.entityName == HistoryEntities.change.name
        guard onChanges else {
            let kept = try keep(transactions)
            return resultType == .transactionsOnly || resultType == .transactionsAndChanges
                ? kept.map { $0.keepingChanges(resultType == .transactionsAndChanges ? $0.changeRecords : nil) }
                : result(of: kept)
        }
        let changes = try keep(transactions.flatMap { $0.changes ?? [] })
        switch resultType {
        case .changesOnly: return changes
        case .count: return changes.count
        case .statusOnly: return true
        case .objectIDs:
            var seen = Set<NSManagedObjectID>()
            return changes.map(\.changedObjectID).filter { seen.insert($0).inserted }
        case .transactionsOnly, .transactionsAndChanges:
            let keptIDs = Set(changes.map(\.changeID))
            return transactions.compactMap { transaction -> NSPersistentHistoryTransaction? in
                let records = (transaction.changeRecords ?? []).filter { keptIDs.contains($0.id) }
                guard !records.isEmpty else { return nil }
                return transaction.keepingChanges(resultType == .transactionsAndChanges ? records : nil)
            }
        }
    }

    /// What the result holds for `transactions`, by ``resultType``.
    private func result(of transactions: [NSPersistentHistoryTransaction]) -> Any {
        switch resultType {
        case .statusOnly: return true
        case .count: return transactions.count
        case .transactionsOnly, .transactionsAndChanges: return transactions
        case .changesOnly: return transactions.flatMap { $0.changes ?? [] }
        case .objectIDs:
            var seen = Set<NSManagedObjectID>()
            var ids: [NSManagedObjectID] = []
            for change in transactions.flatMap({ $0.changes ?? [] }) where seen.insert(change.changedObjectID).inserted {
                ids.append(change.changedObjectID)
            }
            return ids
        }
    }

    /// The transactions of `store` after `bound`; nil when the bound is another store's
    /// transaction. A token older than the history kept gives
    /// `NSPersistentHistoryTokenExpiredError`.
    private func range(after bound: HistoryBound, in store: NSPersistentStore, _ keeper: any HistoryKeeping) throws -> HistoryRange? {
        switch bound {
        case .everything: return .all
        case .date(let date): return .afterDate(date)
        case .transaction(let storeID, let number):
            return storeID == store.identifier ? .afterTransaction(number) : nil
        case .token(let token):
            guard let identifier = store.identifier, let number = token.storeTokens[identifier] else {
                if token.storeTokens.isEmpty { return .all }
                throw CoreDataError.make(Self.storeNotInTokenError,
                    "The store \(store.identifier ?? "?") is not in the history token \(token).")
            }
            if number < (try keeper.deletedHistoryThrough()) {
                throw CoreDataError.make(NSPersistentHistoryTokenExpiredError,
                    "The history after the token \(token) was deleted from the store \(store.url?.path ?? "?").")
            }
            return .afterTransaction(number)
        }
    }

    /// The transactions of `store` before `bound`; nil when there are none to delete there.
    private func range(before bound: HistoryBound, in store: NSPersistentStore) throws -> HistoryRange? {
        switch bound {
        case .everything: return .all
        case .date(let date): return .beforeDate(date)
        case .transaction(let storeID, let number):
            return storeID == store.identifier ? .throughTransaction(number) : nil
        case .token(let token):
            guard let identifier = store.identifier, let number = token.storeTokens[identifier] else { return nil }
            return .throughTransaction(number)
        }
    }

    /// A stored transaction as Apple's object, its changes resolved against the model.
    static func transaction(_ record: HistoryRecord, store: NSPersistentStore, model: NSManagedObjectModel,
                            withChanges: Bool) -> NSPersistentHistoryTransaction {
        let changes: [ResolvedHistoryChange]? = withChanges ? record.changes.compactMap { change in
            guard let entity = model.entity(forID: change.entityID),
                  let type = NSPersistentHistoryChangeType(rawValue: change.type) else { return nil }
            let objectID = NSManagedObjectID(entity: entity, store: store, reference: .permanent(change.pk))
            let updated = change.updatedProperties.map { names in
                Set(names.compactMap { entity.propertiesByName[$0] })
            }
            let tombstone = change.tombstone.map { values in
                var result: [AnyHashable: Any] = [:]
                for (key, value) in values { result[key] = value }
                return result
            }
            return ResolvedHistoryChange(id: change.id, type: type, objectID: objectID,
                                         updatedProperties: updated, tombstone: tombstone)
        } : nil
        return NSPersistentHistoryTransaction(record: record, storeID: store.identifier ?? "", changes: changes)
    }
}
