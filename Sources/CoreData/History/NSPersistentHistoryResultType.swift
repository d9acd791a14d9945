import Foundation

/// What a persistent history request returns in its result's `result` (Apple's raw values).
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// Only whether the request succeeded: `true`.
    case statusOnly = 0
    /// The IDs of the changed objects (`[NSManagedObjectID]`), once each, in change order.
    case objectIDs = 1
    /// How many transactions matched (a fetch) or were deleted (a delete), as an `Int`.
    case count = 2
    /// The transactions, without their changes (`[NSPersistentHistoryTransaction]`).
    case transactionsOnly = 3
    /// The changes, in order (`[NSPersistentHistoryChange]`).
    case changesOnly = 4
    /// The transactions, each with its changes.
    case transactionsAndChanges = 5
}
