import Foundation

/// What a batch request did in one store.
struct StoreBatchOutcome {
    /// The objects the request's result names, in order: those inserted or upserted, those
    /// updated, those the request itself deleted (not the ones the delete rules reached).
    var result: [StoreKey] = []
    /// Every row the request wrote.
    var changes = BatchChanges()
}

/// Every row a batch request wrote, by kind: a delete's cascaded rows are among `deleted`,
/// and rows whose to-one relationship a delete nullified are among `updated`.
///
/// This is what persistent history records of a batch request: a store
/// that tracks history writes it in the transaction that wrote the rows (see
/// `SQLiteStoreBackend.executeBatch(_:origin:)`).
struct BatchChanges {
    var inserted: [StoreKey] = []
    var updated: [StoreKey] = []
    var deleted: [StoreKey] = []
    /// For updated rows, when known: the slots written (persistent history's updated
    /// properties). Filled only by stores that track history.
    var updatedSlots: [StoreKey: [Int32]] = [:]

    /// The `Z_ENT`s of the rows changed in place or removed (their cached rows are stale).
    var staleEntityIDs: Set<Int> {
        Set(updated.map(\.entityID)).union(deleted.map(\.entityID))
    }
}
