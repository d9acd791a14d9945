import CoreData

// SwiftData's history API (Apple's 2024 release) over the store's persistent history: every
// save of a container's store is recorded as a transaction with one change per inserted,
// updated or deleted record.

/// A point in a store's history: the transactions after it are the ones not seen yet.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// What the token holds.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The token's value.
    var tokenValue: TokenType? { get }
}

/// One save as history records it.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the transaction's token.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type of the transaction's number.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// When the save committed.
    var timestamp: Date { get }
    /// The records the save inserted, updated and deleted.
    var changes: [HistoryChange] { get }
    /// The point in history just after this transaction.
    var token: TokenType { get }
    /// The transaction's number in its store.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the store the save wrote.
    var storeIdentifier: String { get }
    /// The saving context's ``ModelContext/author``.
    var author: String? { get }
}

/// A record a transaction inserted.
public protocol HistoryInsert<Model>: Sendable {
    /// The model class of the record.
    associatedtype Model: PersistentModel
    /// The type of the transaction's number.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type of the change's number.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The change's number.
    var changeIdentifier: ChangeIdentifier { get }
    /// The number of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The record's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
}

/// A record a transaction updated, with the attributes it changed.
public protocol HistoryUpdate<Model>: Sendable {
    /// The model class of the record.
    associatedtype Model: PersistentModel
    /// The type of the transaction's number.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type of the change's number.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// A changed property, as a key path.
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable
    /// The change's number.
    var changeIdentifier: ChangeIdentifier { get }
    /// The number of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The record's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The properties the update changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A record a transaction deleted, with the values kept of it.
public protocol HistoryDelete<Model>: Sendable {
    /// The model class of the record.
    associatedtype Model: PersistentModel
    /// The type of the transaction's number.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The type of the change's number.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The change's number.
    var changeIdentifier: ChangeIdentifier { get }
    /// The number of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The record's identifier.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The values of the deleted record's `.preserveValueOnDeletion` attributes.
    var tombstone: HistoryTombstone<Model> { get }
}

/// One change of a transaction.
public enum HistoryChange: Sendable {
    /// A record was inserted.
    case insert(any HistoryInsert)
    /// A record was updated.
    case update(any HistoryUpdate)
    /// A record was deleted.
    case delete(any HistoryDelete)

    /// The identifier of the changed record.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let change): change.changedPersistentIdentifier
        case .update(let change): change.changedPersistentIdentifier
        case .delete(let change): change.changedPersistentIdentifier
        }
    }
}

/// The values a deleted record kept: its attributes marked
/// `@Attribute(.preserveValueOnDeletion)`, by key path.
///
/// ```swift
/// if case .delete(let deletion as DefaultHistoryDelete<Trip>) = change {
///     let name = deletion.tombstone[\.name] as? String
/// }
/// ```
public struct HistoryTombstone<Model: PersistentModel>: Sequence, @unchecked Sendable {
    // @unchecked Sendable: the values are immutable Sendable values (strings, numbers,
    // dates, data, UUIDs, URLs) converted when the tombstone is made.
    let values: [String: any Sendable]

    /// Iterates the kept values (in the order of the property names).
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Any]>
        /// The next kept value.
        public mutating func next() -> Any? { base.next() }
    }

    /// The kept value of a property, or nil when the record kept none.
    public subscript(keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        guard let name = KeyPathTable.shared.name(of: keyPath, in: Model.self) else { return nil }
        return values[name]
    }

    /// An iterator over the kept values.
    public func makeIterator() -> Iterator {
        Iterator(base: values.keys.sorted().map { values[$0]! as Any }.makeIterator())
    }
}

/// The point in history just after a transaction: its store's identifier and the
/// transaction's number.
public struct DefaultHistoryToken: HistoryToken {
    /// Transaction numbers by store identifier.
    public typealias TokenType = [String: Int64]
    /// The token's value: the last transaction number seen, by store identifier.
    public let tokenValue: TokenType?

    init(_ value: TokenType) { tokenValue = value }

    /// The newest transaction number the token holds.
    public var id: Int { Int(tokenValue?.values.max() ?? 0) }

    /// A token is before another when, store by store (in identifier order), its first
    /// differing transaction number is smaller.
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        let left = lhs.tokenValue ?? [:], right = rhs.tokenValue ?? [:]
        for store in Set(left.keys).union(right.keys).sorted() {
            let a = left[store] ?? 0, b = right[store] ?? 0
            if a != b { return a < b }
        }
        return false
    }
}

/// A record a transaction inserted.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable {
    /// The type of the transaction's number.
    public typealias TransactionIdentifier = Int64
    /// The type of the change's number.
    public typealias ChangeIdentifier = Int64
    /// The change's number.
    public let changeIdentifier: ChangeIdentifier
    /// The number of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier
    /// The record's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
}

/// A record a transaction updated.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable {
    /// The type of the transaction's number.
    public typealias TransactionIdentifier = Int64
    /// The type of the change's number.
    public typealias ChangeIdentifier = Int64
    /// The change's number.
    public let changeIdentifier: ChangeIdentifier
    /// The number of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier
    /// The record's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The properties the update changed.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]

    /// Updates are equal when they are the same change.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    /// Hashes the change's numbers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}

/// A record a transaction deleted.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, Hashable {
    /// The type of the transaction's number.
    public typealias TransactionIdentifier = Int64
    /// The type of the change's number.
    public typealias ChangeIdentifier = Int64
    /// The change's number.
    public let changeIdentifier: ChangeIdentifier
    /// The number of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier
    /// The record's identifier.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The values the record kept.
    public let tombstone: HistoryTombstone<Model>

    /// Deletions are equal when they are the same change.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    /// Hashes the change's numbers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}

/// One save of a container's store, as ``ModelContext/fetchHistory(_:)`` returns it.
///
/// ```swift
/// var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
/// descriptor.predicate = #Predicate { $0.token > lastToken }
/// for transaction in try context.fetchHistory(descriptor) {
///     for change in transaction.changes { print(change.changedPersistentIdentifier) }
///     lastToken = transaction.token
/// }
/// ```
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The type of the transaction's number.
    public typealias TransactionIdentifier = Int64
    /// The type of the transaction's token.
    public typealias TokenType = DefaultHistoryToken

    /// The transaction's number.
    public var id: Int64 { transactionIdentifier }
    /// When the save committed.
    public let timestamp: Date
    /// The records the save inserted, updated and deleted.
    public let changes: [HistoryChange]
    /// The point in history just after this transaction.
    public let token: DefaultHistoryToken
    /// The transaction's number in its store.
    public let transactionIdentifier: Int64
    /// The identifier of the store the save wrote.
    public let storeIdentifier: String
    /// The saving program's bundle identifier.
    public let bundleIdentifier: String
    /// The saving process's identifier.
    public let processIdentifier: String
    /// The saving context's author.
    public let author: String?

    /// Transactions are equal when they are the same transaction of the same store.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.transactionIdentifier == rhs.transactionIdentifier && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the store and number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(transactionIdentifier)
        hasher.combine(storeIdentifier)
    }
}

/// Which transactions ``ModelContext/fetchHistory(_:)`` returns (or
/// ``ModelContext/deleteHistory(_:)`` deletes): those matching a predicate, in an order, at
/// most a number of them.
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// The condition the transactions must meet; nil for all of them.
    public var predicate: Predicate<TransactionType>?
    /// The most transactions to return; 0 for no limit.
    public var fetchLimit: UInt64 = 0
    /// The order of the results; empty for the order they were committed in.
    public var sortBy: [SortDescriptor<TransactionType>] = []

    /// A descriptor with a predicate.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
    }

    /// A descriptor with a predicate and an order.
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

extension ModelContext {
    /// The transactions of the container's store history that a descriptor selects, oldest
    /// first unless it orders them otherwise.
    ///
    /// - Throws: ``SwiftDataError/unsupportedPredicate`` for a transaction type other than
    ///   ``DefaultHistoryTransaction``; Core Data's `NSError` from the store.
    ///
    /// - Note: Apple parity: the predicate runs in memory over the store's transactions
    ///   (the store's own history query is by token or date).
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        guard T.self == DefaultHistoryTransaction.self else {
            throw SwiftDataError(.unsupportedPredicate, "history is fetched as DefaultHistoryTransaction, not \(T.self)")
        }
        var transactions = try historyTransactions().map { convert($0) as! T }
        if let predicate = descriptor.predicate {
            transactions = try transactions.filter { try predicate.evaluate($0) }
        }
        if !descriptor.sortBy.isEmpty {
            transactions = Self.sorted(transactions, by: descriptor.sortBy)
        }
        if descriptor.fetchLimit > 0, UInt64(transactions.count) > descriptor.fetchLimit {
            transactions = Array(transactions.prefix(Int(descriptor.fetchLimit)))
        }
        return transactions
    }

    /// Deletes the transactions a descriptor selects from the store's history.
    ///
    /// - Throws: ``SwiftDataError/unsupportedPredicate`` when the selected transactions are
    ///   not the oldest ones of their store (the store deletes history from its start up
    ///   to a transaction, as with `$0.token <= token` or `$0.timestamp < date`).
    ///
    /// - Note: Apple parity: only a selection that starts at the oldest transaction can be
    ///   deleted.
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        var selection = descriptor
        selection.fetchLimit = 0
        selection.sortBy = []
        let selected = try fetchHistory(selection).compactMap { $0 as? DefaultHistoryTransaction }
        guard !selected.isEmpty else { return }
        let all = try historyTransactions()
        for store in Set(selected.map(\.storeIdentifier)) {
            let chosen = Set(selected.filter { $0.storeIdentifier == store }.map(\.transactionIdentifier))
            let ofStore = all.filter { $0.storeID == store }
            guard let last = ofStore.last(where: { chosen.contains($0.transactionNumber) }) else { continue }
            let prefix = ofStore.filter { $0.transactionNumber <= last.transactionNumber }
            guard prefix.allSatisfy({ chosen.contains($0.transactionNumber) }) else {
                throw SwiftDataError(.unsupportedPredicate,
                    "deleteHistory deletes a store's oldest transactions up to one; the descriptor selects "
                        + "transactions with unselected ones before them")
            }
            _ = try managedObjectContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: last))
        }
    }

    /// The store's history, oldest first.
    private func historyTransactions() throws -> [NSPersistentHistoryTransaction] {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
        let result = try managedObjectContext.execute(request) as? NSPersistentHistoryResult
        return (result?.result as? [NSPersistentHistoryTransaction] ?? [])
            .sorted { $0.transactionNumber < $1.transactionNumber }
    }

    private func convert(_ transaction: NSPersistentHistoryTransaction) -> DefaultHistoryTransaction {
        var changes: [HistoryChange] = []
        for change in transaction.changes ?? [] {
            guard let name = change.changedObjectID.entity.name,
                  let type = container.typesByEntityName[name] else { continue }
            changes.append(Self.historyChange(change, of: type, transaction: transaction.transactionNumber))
        }
        return DefaultHistoryTransaction(
            timestamp: transaction.timestamp, changes: changes,
            token: DefaultHistoryToken([transaction.storeID: transaction.transactionNumber]),
            transactionIdentifier: transaction.transactionNumber, storeIdentifier: transaction.storeID,
            bundleIdentifier: transaction.bundleID, processIdentifier: transaction.processID,
            author: transaction.author)
    }

    private static func historyChange<M: PersistentModel>(_ change: NSPersistentHistoryChange, of _: M.Type,
                                                          transaction: Int64) -> HistoryChange {
        let id = PersistentIdentifier(change.changedObjectID)
        switch change.changeType {
        case .insert:
            return .insert(DefaultHistoryInsert<M>(changeIdentifier: change.changeID, transactionIdentifier: transaction,
                                                   changedPersistentIdentifier: id))
        case .update:
            let names = Set((change.updatedProperties ?? []).map(\.name))
            var keyPaths: [any PartialKeyPath<M> & Sendable] = []
            for property in M.schemaMetadata where names.contains(property.name) {
                if let keyPath = property.keypath as? PartialKeyPath<M> { keyPaths.append(sendableKeyPath(keyPath)) }
            }
            return .update(DefaultHistoryUpdate<M>(changeIdentifier: change.changeID, transactionIdentifier: transaction,
                                                   changedPersistentIdentifier: id, updatedAttributes: keyPaths))
        case .delete:
            var values: [String: any Sendable] = [:]
            for (key, value) in change.tombstone ?? [:] {
                if let value = sendableValue(value) { values["\(key)"] = value }
            }
            return .delete(DefaultHistoryDelete<M>(changeIdentifier: change.changeID, transactionIdentifier: transaction,
                                                   changedPersistentIdentifier: id,
                                                   tombstone: HistoryTombstone(values: values)))
        }
    }

    /// A key path of a model's stored property, as the `Sendable` key path Apple's API
    /// types it: key paths to stored properties capture nothing and never change.
    private static func sendableKeyPath<M>(_ keyPath: PartialKeyPath<M>) -> any PartialKeyPath<M> & Sendable {
        unsafeBitCast(keyPath, to: (any PartialKeyPath<M> & Sendable).self)
    }

    /// A tombstone value as a Sendable Swift value.
    private static func sendableValue(_ value: Any) -> (any Sendable)? {
        switch value {
        case let value as String: return value
        case let value as Date: return value
        case let value as Data: return value
        case let value as UUID: return value
        case let value as URL: return value
        case let value as Decimal: return value
        case let value as NSNumber:
            let type = String(cString: value.objCType)
            if type == "c" || type == "B" { return value.boolValue }
            if type == "d" || type == "f" { return value.doubleValue }
            return value.intValue
        case let value as Int: return value
        case let value as Int64: return value
        case let value as Double: return value
        case let value as Bool: return value
        default: return nil
        }
    }
}
