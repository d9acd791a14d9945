import Foundation

/// A store that runs batch operations itself, in one transaction (the SQL stores). Other
/// stores, and operations a store does not run (``runsBatch(_:)``), get batch requests row by
/// row from the coordinator's generic path.
protocol BatchStoreBackend: StoreBackend {
    /// Runs a batch operation in one transaction. Throws ``StoreFetchUnsupported`` (having
    /// written nothing) when a predicate or expression cannot be evaluated by the store;
    /// the caller then selects the rows in memory.
    /// A store that tracks persistent history records what the operation wrote as one
    /// transaction by `origin`, in the same SQLite transaction.
    func executeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin) throws -> StoreBatchOutcome
    /// Whether the store runs `operation` itself; when false, the coordinator writes it row
    /// by row through the store's save.
    func runsBatch(_ operation: StoreBatchOperation) -> Bool
}

extension BatchStoreBackend {
    /// Every operation, by default.
    func runsBatch(_ operation: StoreBatchOperation) -> Bool { true }
}
