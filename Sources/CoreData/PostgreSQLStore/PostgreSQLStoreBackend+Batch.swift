import Foundation

// MARK: - Batch requests, in SQL

extension PostgreSQLStoreBackend: BatchStoreBackend {
    /// Batch updates and deletes run here, in SQL; batch inserts go row by row through the
    /// store's save (the coordinator's path).
    func runsBatch(_ operation: StoreBatchOperation) -> Bool {
        if case .insert = operation { return false }
        return true
    }

    /// Runs a batch update or delete in one transaction, with the statements the SQLite store
    /// runs (`SQLStoreCore+Batch.swift`): every row written gets one more `Z_OPT` than it had,
    /// persistent history records the rows as one transaction numbered in commit order, and
    /// listeners hear the commit (`NOTIFY`). Run again like a save when the server refuses it
    /// as a serialization failure or a deadlock.
    ///
    /// - Throws: ``StoreFetchUnsupported`` (nothing written) when the predicate or an
    ///   expression cannot be evaluated in PostgreSQL as memory would;
    ///   `NSPersistentStoreSaveError` with the server's message.
    func executeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin) throws -> StoreBatchOutcome {
        try checkWritable()
        return try writeTransaction(recordsHistory: true, action: "Running a batch request in") { connection in
            guard let write = try writeBatch(operation, origin: origin, on: connection) else { return StoreBatchOutcome() }
            let changes = write.outcome.changes
            if !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) {
                // Delivered to every listener when the transaction commits, never if it fails.
                try notifyCommit(write.historyNumber, on: connection)
            }
            return write.outcome
        }
    }

    /// None: PostgreSQL keeps every binary value in its row.
    func externalFiles(inTable t: Int, _ pks: [Int64], columns: [String]?,
                       on connection: PostgreSQLConnection) throws -> [String] { [] }

    /// The bytes as they are (`BYTEA`, unmarked), as the save path binds them.
    func batchExternalValue(_ bytes: UnsafeRawBufferPointer) -> SQLBinding {
        .blob(Data(bytes))
    }
}
