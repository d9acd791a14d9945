import Foundation

/// One save (or other write) recorded in a store's persistent history: when, by whom and
/// what it changed.
///
/// Transactions come from executing an ``NSPersistentHistoryChangeRequest``. Merge one into
/// a context with its ``objectIDNotification()``:
///
/// ```swift
/// for transaction in transactions {
///     context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
/// }
/// ```
///
/// ## Topics
/// ### What was saved
/// - ``changes``
/// - ``objectIDNotification()``
/// ### Where and when
/// - ``timestamp``
/// - ``transactionNumber``
/// - ``token``
/// - ``storeID``
/// ### Who saved
/// - ``author``
/// - ``contextName``
/// - ``bundleID``
/// - ``processID``
/// ### Fetch requests
/// - ``entityDescription``
/// - ``entityDescription(with:)``
/// - ``fetchRequest``
open class NSPersistentHistoryTransaction: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    /// When the transaction was committed.
    open private(set) var timestamp: Date
    /// The transaction's number in its store: later transactions have larger numbers.
    open private(set) var transactionNumber: Int64
    /// The identifier (`NSStoreUUIDKey`) of the store the transaction was written to.
    open private(set) var storeID: String
    /// The bundle identifier of the app that saved (its process name when it has none).
    open private(set) var bundleID: String
    /// The name of the process that saved.
    open private(set) var processID: String
    /// The saving context's `name`, if it had one.
    open private(set) var contextName: String?
    /// The saving context's `transactionAuthor`, if it had one.
    open private(set) var author: String?
    /// A token that covers this transaction and those before it, in this store.
    open var token: NSPersistentHistoryToken { NSPersistentHistoryToken(storeTokens: [storeID: transactionNumber]) }

    /// The changes, when the request asked for them (`.transactionsAndChanges`).
    open var changes: [NSPersistentHistoryChange]? {
        changeRecords.map { records in records.map { NSPersistentHistoryChange(record: $0, transaction: self) } }
    }

    let changeRecords: [ResolvedHistoryChange]?

    init(record: HistoryRecord, storeID: String, changes: [ResolvedHistoryChange]?) {
        timestamp = record.timestamp
        transactionNumber = record.number
        self.storeID = storeID
        bundleID = record.bundleID ?? ""
        processID = record.processID ?? ""
        contextName = record.contextName
        author = record.author
        changeRecords = changes
        super.init()
    }

    // MARK: - Fetch requests

    /// The entity that describes transactions to a fetch request (keys `author`,
    /// `bundleID`, `contextName`, `processID`, `storeID`, `timestamp`, `transactionNumber`).
    open class var entityDescription: NSEntityDescription? { HistoryEntities.transaction }

    /// ``entityDescription``; the context plays no part.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A new fetch request on ``entityDescription``, for a history request's `fetchRequest`:
    ///
    /// ```swift
    /// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
    /// let transactions = NSPersistentHistoryTransaction.fetchRequest!
    /// transactions.predicate = NSPredicate(format: "author != %@", "app")
    /// request.fetchRequest = transactions
    /// ```
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        entityDescription.map(HistoryEntities.fetchRequest(for:))
    }

    /// The same transaction carrying only `changes` (nil: none).
    func keepingChanges(_ changes: [ResolvedHistoryChange]?) -> NSPersistentHistoryTransaction {
        NSPersistentHistoryTransaction(copying: self, changes: changes)
    }

    private init(copying other: NSPersistentHistoryTransaction, changes: [ResolvedHistoryChange]?) {
        timestamp = other.timestamp
        transactionNumber = other.transactionNumber
        storeID = other.storeID
        bundleID = other.bundleID
        processID = other.processID
        contextName = other.contextName
        author = other.author
        changeRecords = changes
        super.init()
    }

    /// The transaction itself: transactions are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// A `NSManagedObjectContextDidSave` notification carrying the IDs of the inserted,
    /// updated and deleted objects (``NSInsertedObjectIDsKey`` and its siblings), for
    /// `NSManagedObjectContext.mergeChanges(fromContextDidSave:)`.
    open func objectIDNotification() -> Notification {
        var inserted = Set<NSManagedObjectID>(), updated = Set<NSManagedObjectID>(), deleted = Set<NSManagedObjectID>()
        for change in changeRecords ?? [] {
            switch change.type {
            case .insert: inserted.insert(change.objectID)
            case .update: updated.insert(change.objectID)
            case .delete: deleted.insert(change.objectID)
            }
        }
        return Notification(name: .NSManagedObjectContextDidSave, object: nil, userInfo: [
            NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
        ])
    }

    /// The transaction's number, store, author and time, for debugging.
    open override var description: String {
        "<NSPersistentHistoryTransaction \(transactionNumber) store: \(storeID) author: \(author ?? "nil") context: \(contextName ?? "nil") at: \(timestamp)>"
    }
}

/// A stored change with its object ID and properties resolved against the model.
struct ResolvedHistoryChange {
    let id: Int64
    let type: NSPersistentHistoryChangeType
    let objectID: NSManagedObjectID
    let updatedProperties: Set<NSPropertyDescription>?
    let tombstone: [AnyHashable: Any]?
}
