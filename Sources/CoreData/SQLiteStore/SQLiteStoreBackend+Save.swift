import Foundation
internal import CCoreDataSQLite

// MARK: - Saving

extension SQLiteStoreBackend {
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 {
        let connection = try requireConnection()
        guard count > 0 else { return 0 }
        try checkWritable()
        let root = Int64(entity.runtime.root.runtime.entityID)
        return try writeFailure {
            try connection.transaction {
                let update = try connection.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?")
                try update.bind(1, Int64(count))
                try update.bind(2, root)
                try update.run()
                let select = try connection.cached("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
                try select.bind(1, root)
                defer { select.reset() }
                guard try select.step() else {
                    throw CoreDataError.make(NSPersistentStoreOperationError, "Z_PRIMARYKEY has no row for \(entity.runtime.root.name ?? "?").")
                }
                return select.int64(0) - Int64(count) + 1
            }
        }
    }

    /// Applies a change set in one transaction (``SQLStoreCore/applyChanges(_:on:)``): a row
    /// in conflict rolls it back and throws `StoreConflict`. External data files the save
    /// wrote are removed if it fails; those it replaced, once it commits.
    func save(_ changes: StoreChanges) throws {
        let connection = try requireConnection()
        try checkWritable()
        externalFilesWritten = []
        externalFilesReplaced = []
        defer {
            // Whatever the outcome, the files of the values the store no longer references:
            // the replaced ones after a commit, the new ones after a rollback.
            externalData.remove(externalFilesWritten)
            externalFilesWritten = []
            externalFilesReplaced = []
        }
        try writeFailure {
            try connection.transaction { _ = try applyChanges(changes, on: connection) }
        }
        // Committed: the new files stay, the replaced ones go (in the defer above).
        externalFilesWritten = externalFilesReplaced
        storedMetadata = metadata as NSDictionary
    }

    func checkWritable() throws {
        if isReadOnly {
            throw CoreDataError.store(NSPersistentStoreSaveError, "The store at \(url.path) was opened read-only.", url: url)
        }
    }

    /// Runs a write; SQLite failures become `NSPersistentStoreSaveError` (a uniqueness
    /// constraint: `NSManagedObjectConstraintMergeError`), with the SQLite error attached.
    /// `StoreConflict` passes through, and Cocoa errors too, with the store's path added.
    func writeFailure<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let sqlite as SQLiteError {
            let code = sqlite.resultCode == SQLITE_CONSTRAINT ? NSManagedObjectConstraintMergeError
                : sqlite.isBusy ? NSPersistentStoreTimeoutError
                : sqlite.isCorrupt ? CocoaError.Code.fileReadCorruptFile.rawValue : NSPersistentStoreSaveError
            throw Self.sqliteError(code, "Saving to the store at \(url.path) failed.", sqlite, url: url)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain {
            throw CoreDataError.naming(error, url: url, "cannot be saved to")
        }
    }

    // MARK: External data

    /// Binds a binary value that may be stored externally: marked inline, or written to a
    /// new file that the save removes again if it fails.
    func bindExternal(_ bytes: UnsafeRawBufferPointer, to statement: SQLiteStatement, at index: Int32) throws {
        let (column, file) = try externalData.encode(bytes)
        if let file { externalFilesWritten.append(file) }
        try column.withUnsafeBytes { try statement.bindBlob(index, $0.baseAddress, count: $0.count) }
    }

    /// Notes the external files the columns `fields` of row `pk` reference now, to remove
    /// them once the save that replaces or deletes them commits.
    func willReplaceExternalData(of fields: [Field], table: String, pk: Int64, on connection: SQLiteConnection) throws {
        let columns = fields.compactMap { field -> String? in
            if case .value(.externalBlob) = field.kind { return field.column }
            return nil
        }
        guard !columns.isEmpty else { return }
        let statement = try connection.cached("SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE Z_PK = ?")
        try statement.bind(1, pk)
        defer { statement.reset() }
        guard try statement.step() else { return }
        for i in 0..<Int32(columns.count) {
            if let data = statement.data(i), let name = ExternalDataStorage.referencedFile(data) {
                externalFilesReplaced.append(name)
            }
        }
    }
}
