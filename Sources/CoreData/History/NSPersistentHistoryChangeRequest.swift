import Foundation

/// A request that reads or deletes persistent history, executed with
/// `NSManagedObjectContext.execute(_:)`.
///
/// Stores record history when opened with `NSPersistentHistoryTrackingKey` set to `true`.
/// Read what happened after a token, a date or a transaction; delete what came before:
///
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// request.resultType = .transactionsAndChanges
/// let result = try context.execute(request) as? NSPersistentHistoryResult
/// let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
///
/// try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: lastToken))
/// ```
///
/// ## Topics
/// ### Reading
/// - ``fetchHistory(after:)-(NSPersistentHistoryToken?)``
/// - ``fetchHistory(after:)-(Date)``
/// - ``fetchHistory(after:)-(NSPersistentHistoryTransaction?)``
/// - ``fetchHistory(withFetch:)``
/// ### Deleting
/// - ``deleteHistory(before:)-(NSPersistentHistoryToken?)``
/// - ``deleteHistory(before:)-(Date)``
/// - ``deleteHistory(before:)-(NSPersistentHistoryTransaction?)``
/// ### Options
/// - ``resultType``
/// - ``token``
/// - ``fetchRequest``
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then only read.

    /// What the request covers, and whether it deletes.
    enum Operation {
        case fetch(HistoryBound)
        case delete(HistoryBound)
    }
    /// A point in history: everything, a token, a date or a transaction.
    enum HistoryBound {
        case everything
        case token(NSPersistentHistoryToken)
        case date(Date)
        case transaction(storeID: String, number: Int64)
    }
    var operation: Operation = .fetch(.everything)

    /// What the result holds; `.transactionsAndChanges` unless set.
    open var resultType: NSPersistentHistoryResultType = .transactionsAndChanges

    /// Narrows a fetch: a request on ``NSPersistentHistoryTransaction/entityDescription``
    /// keeps the transactions its predicate accepts; one on
    /// ``NSPersistentHistoryChange/entityDescription`` keeps the changes it accepts (and the
    /// transactions that still have changes). Sort descriptors order the transactions (or,
    /// for `.changesOnly`, the changes); `fetchLimit` and `fetchOffset` apply after that.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    /// The token the request was made with, if any.
    open var token: NSPersistentHistoryToken? {
        switch operation {
        case .fetch(.token(let token)), .delete(.token(let token)): return token
        default: return nil
        }
    }

    /// A request for every history request kind; use the class methods to make one.
    public required override init() {
        super.init()
    }

    // MARK: - Reading

    /// A request for the transactions after `token` (every transaction when nil).
    open class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self {
        let request = self.init()
        request.operation = .fetch(token.map { .token($0) } ?? .everything)
        return request
    }

    /// A request for the transactions committed after `date`.
    open class func fetchHistory(after date: Date) -> Self {
        let request = self.init()
        request.operation = .fetch(.date(date))
        return request
    }

    /// A request for the transactions after `transaction` in its store (every transaction
    /// when nil).
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self {
        let request = self.init()
        request.operation = .fetch(transaction.map { .transaction(storeID: $0.storeID, number: $0.transactionNumber) } ?? .everything)
        return request
    }

    /// A request for the transactions (or changes) `fetchRequest` selects, from the whole
    /// history.
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> Self {
        let request = self.init()
        request.fetchRequest = fetchRequest
        return request
    }

    // MARK: - Deleting

    /// A request that deletes the transactions up to and including `token` (every
    /// transaction when nil).
    open class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self {
        let request = self.init()
        request.operation = .delete(token.map { .token($0) } ?? .everything)
        return request
    }

    /// A request that deletes the transactions committed before `date`.
    open class func deleteHistory(before date: Date) -> Self {
        let request = self.init()
        request.operation = .delete(.date(date))
        return request
    }

    /// A request that deletes `transaction` and those before it in its store (every
    /// transaction when nil).
    open class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self {
        let request = self.init()
        request.operation = .delete(transaction.map { .transaction(storeID: $0.storeID, number: $0.transactionNumber) } ?? .everything)
        return request
    }

    /// A copy with the same range, result type and stores.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.init()
        copy.operation = operation
        copy.resultType = resultType
        copy.fetchRequest = fetchRequest
        copy.affectedStores = affectedStores
        return copy
    }
}
