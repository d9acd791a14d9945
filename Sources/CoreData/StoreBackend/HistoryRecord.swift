import Foundation

/// One transaction of a store's persistent history, as stored: plain values that the
/// History layer turns into `NSPersistentHistoryTransaction`s.
struct HistoryRecord {
    /// One changed object of a transaction.
    struct Change {
        /// The change's own number (`ACHANGE.Z_PK`).
        let id: Int64
        /// 0 insert, 1 update, 2 delete (`NSPersistentHistoryChangeType`'s raw values).
        let type: Int
        /// `Z_ENT` and `Z_PK` of the changed object.
        let entityID: Int
        let pk: Int64
        /// For an update: the names of the changed properties.
        let updatedProperties: [String]?
        /// For a delete: the preserved attribute values (`preservesValueInHistoryOnDeletion`).
        let tombstone: [String: Any]?
    }
    /// The transaction's number (`ATRANSACTION.Z_PK`), increasing with each save.
    let number: Int64
    let timestamp: Date
    let author: String?
    let bundleID: String?
    let processID: String?
    let contextName: String?
    var changes: [Change]
}

/// Which part of a store's history a request reads or deletes.
enum HistoryRange {
    /// Every transaction.
    case all
    /// Transactions numbered above this one.
    case afterTransaction(Int64)
    /// Transactions made after this moment.
    case afterDate(Date)
    /// Transactions numbered up to and including this one.
    case throughTransaction(Int64)
    /// Transactions made before this moment.
    case beforeDate(Date)
}
