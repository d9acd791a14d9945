import Foundation

// MARK: - Batch requests, in SQL

extension SQLiteStoreBackend: BatchStoreBackend {
    /// Runs a batch insert, update or delete in one transaction, with prepared statements;
    /// every row written gets `Z_OPT` 1 (insert) or one more than it had. Updates and
    /// deletes are the shared SQL store's (`SQLStoreCore+Batch.swift`); inserts are SQLite's.
    func executeBatch(_ operation: StoreBatchOperation, origin: HistoryOrigin) throws -> StoreBatchOutcome {
        let connection = try requireConnection()
        try checkWritable()
        // External data files of deleted rows and replaced values, removed once the
        // transaction commits.
        var orphanedFiles: [String] = []
        let outcome = try writeFailure {
            try connection.transaction {
                if case .insert(let insert) = operation {
                    let outcome = try batchInsert(insert, on: connection)
                    // Persistent history: one transaction, in the SQLite transaction that
                    // wrote the rows (SQLStoreCore+Batch.swift).
                    try recordBatchHistory(outcome.changes, tombstones: [:], origin: origin, on: connection)
                    return outcome
                }
                // Update and delete: the statements both SQL stores run (SQLStoreCore+Batch.swift).
                guard let write = try writeBatch(operation, origin: origin, on: connection) else { return StoreBatchOutcome() }
                orphanedFiles = write.orphanedFiles
                return write.outcome
            }
        }
        externalData.remove(orphanedFiles)
        return outcome
    }

    /// The external data files (``ExternalDataStorage``) the rows `pks` of table `t` name
    /// in `columns` (by default, every column that may name one).
    func externalFiles(inTable t: Int, _ pks: [Int64], columns: [String]?,
                       on connection: SQLiteConnection) throws -> [String] {
        let columns = columns ?? schema.externalColumns(ofTable: t)
        guard !columns.isEmpty else { return [] }
        var names: [String] = []
        var start = 0
        while start < pks.count {
            let chunk = pks[start..<min(pks.count, start + Self.batchKeyChunk)]
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = try connection.cached(
                "SELECT \(columns.joined(separator: ", ")) FROM \(schema.tables[t].name) WHERE Z_PK IN (\(marks))")
            defer { statement.reset() }
            for (i, pk) in chunk.enumerated() { try statement.bind(Int32(i + 1), pk) }
            while try statement.step() {
                for i in 0..<Int32(columns.count) {
                    if let data = statement.data(i), let name = ExternalDataStorage.referencedFile(data) { names.append(name) }
                }
            }
        }
        return names
    }

    /// A batch request keeps an externally storable value in its row, marked as inline
    /// (``ExternalDataStorage``), as the save path does for small values.
    func batchExternalValue(_ bytes: UnsafeRawBufferPointer) -> SQLBinding {
        .blob(ExternalDataStorage.inline(bytes))
    }
}
