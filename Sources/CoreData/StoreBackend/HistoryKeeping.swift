import Foundation

/// A store that can keep persistent history (the SQLite and PostgreSQL stores): it records one
/// transaction per save when ``tracksHistory`` is on, and answers history requests.
protocol HistoryKeeping: AnyObject {
    /// Whether the store was opened with `NSPersistentHistoryTrackingKey`.
    var tracksHistory: Bool { get }
    /// Whether the store holds history yet was opened without tracking it, and so was
    /// opened read-only (Apple's rule: history may not get gaps).
    var forcedReadOnlyByHistory: Bool { get }
    /// The transactions in `range`, oldest first, with their changes when `withChanges`.
    func historyTransactions(in range: HistoryRange, withChanges: Bool) throws -> [HistoryRecord]
    /// Deletes the transactions in `range` and their changes; returns how many went.
    func deleteHistory(in range: HistoryRange) throws -> Int
    /// The number of the newest transaction, 0 when there is none.
    func lastHistoryTransactionNumber() throws -> Int64
    /// The number below which history was deleted (transactions up to it are gone), 0
    /// when none was.
    func deletedHistoryThrough() throws -> Int64
}
