import Foundation

/// A store that runs batch operations itself, in one transaction (the SQLite store). Other
/// stores get batch requests row by row from the coordinator's generic path.
protocol BatchStoreBackend: StoreBackend {
    /// Runs a batch operation in one transaction. Throws ``StoreFetchUnsupported`` (having
    /// written nothing) when a predicate or expression cannot be evaluated by the store;
    /// the caller then selects the rows in memory.
    /// A store that tracks persistent history records what the operation wrote as one
    /// transaction by `origin`, in the same SQLite transaction.
    func executeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin) throws -> StoreBatchOutcome
}
