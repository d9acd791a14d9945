import Foundation
internal import CCoreDataSQLite

// MARK: - Store files (used by the coordinator without adding a store)

extension SQLiteStoreBackend {
    /// Whether the file at `url` is a SQLite database: it starts with SQLite's header
    /// string, or is empty (an empty file is an empty database to SQLite).
    static func looksLikeDatabase(at url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header.isEmpty || header == Data("SQLite format 3\u{0}".utf8)
    }

    /// The metadata of the store at `url` (`NSStoreUUID`, `NSStoreType`, version hashes,
    /// app keys), read without adding the store and without writing anything in or beside
    /// it (but SQLite's read marks in the `-shm` of a store this process has open), and
    /// without releasing the file locks of the process's other connections to it
    /// (``SQLiteConnection/openForReading(path:busyTimeout:)``).
    static func readMetadata(at url: URL, options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(url.path).", url: url)
        }
        do {
            let connection = try SQLiteConnection.openForReading(path: url.path, busyTimeout: busyTimeout(options))
            return try SQLiteMetadata.read(from: connection)
        } catch {
            throw openError(error, url: url)
        }
    }

    /// Whether a store URL names no file but an in-memory SQLite database: `/dev/null`, the
    /// idiom Apple documents for stores that tests throw away.
    static func isInMemoryPath(_ url: URL) -> Bool {
        url.isFileURL && url.standardizedFileURL.path == "/dev/null"
    }

    /// Empties a store in place, as Apple's `destroyPersistentStore` does: the database
    /// file stays, holding no tables. The empty database is copied over it through the
    /// backup API, which takes SQLite's locks, so a connection that still has the store open
    /// sees an empty database instead of a deleted file; the WAL is then checkpointed and
    /// truncated, and a leftover `-journal` removed. A file that is not a SQLite database
    /// is truncated to zero bytes (an empty database too).
    static func emptyStore(at url: URL, busyTimeout: TimeInterval = defaultBusyTimeout) throws {
        let path = url.path
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: path) else { return }
        var emptied = false
        if let target = try? SQLiteConnection(path: path, create: false, busyTimeout: busyTimeout),
           let pageSize = try? target.scalarString("PRAGMA page_size"),
           let empty = try? SQLiteConnection(path: ":memory:") {
            try? empty.execute("PRAGMA page_size = \(Int(pageSize) ?? 4096)")
            if (try? target.restore(from: empty)) != nil {
                emptied = true
                _ = try? target.scalarString("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        if !emptied {
            guard Foundation.truncate(path, 0) == 0 else {
                throw CoreDataError.store(
                    NSPersistentStoreOperationError, "The store file \(path) cannot be emptied.", url: url)
            }
            for companion in [path + "-wal", path + "-shm"] where fileManager.fileExists(atPath: companion) {
                _ = Foundation.truncate(companion, 0)
            }
        }
        let journal = path + "-journal"
        if fileManager.fileExists(atPath: journal) { try? fileManager.removeItem(atPath: journal) }
        // An empty store references no external data.
        try? fileManager.removeItem(at: ExternalDataStorage(storeURL: url).folder)
    }

    /// Deletes a store's database, `-wal`, `-shm` and `-journal` files (after emptying the
    /// database, so that a connection still open sees an empty one): for
    /// `replacePersistentStore` over something that is not a database.
    static func destroyFiles(at url: URL, busyTimeout: TimeInterval = defaultBusyTimeout) throws {
        let path = url.path
        let fileManager = FileManager.default
        try? emptyStore(at: url, busyTimeout: busyTimeout)
        for companion in companionPaths(of: path) where fileManager.fileExists(atPath: companion) {
            do {
                try fileManager.removeItem(atPath: companion)
            } catch {
                throw CoreDataError.store(
                    NSPersistentStoreOperationError, "The store file \(companion) cannot be deleted.",
                    url: url, underlying: error)
            }
        }
        try? fileManager.removeItem(at: ExternalDataStorage(storeURL: url).supportFolder)
    }

    /// Replaces the metadata of the SQLite store at `url` without adding it. Its type, and
    /// its UUID and model version hashes unless `metadata` names others, stay; the rest is
    /// `metadata`.
    static func writeMetadata(_ metadata: [String: Any], at url: URL, busyTimeout: TimeInterval = defaultBusyTimeout) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(url.path).", url: url)
        }
        do {
            let connection = try SQLiteConnection(path: url.path, create: false, busyTimeout: busyTimeout)
            let stored = try SQLiteMetadata.read(from: connection)
            let merged = SQLiteMetadata.keepingStoreKeys(metadata, from: stored)
            try connection.transaction { try SQLiteMetadata.write(merged, to: connection) }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && !(error is SQLiteError) {
            throw error
        } catch {
            throw openError(error, url: url)
        }
    }

    /// Copies the store at `source` to `destination` through SQLite's backup API, so that
    /// content still in the source's WAL is copied too. The destination's folder is
    /// created when missing; an existing destination is replaced.
    static func copyStore(from source: URL, to destination: URL, busyTimeout: TimeInterval = defaultBusyTimeout) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(source.path).", url: source)
        }
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let from = try SQLiteConnection(path: source.path, readOnly: true, create: false, busyTimeout: busyTimeout)
            _ = try from.scalarString("SELECT COUNT(*) FROM sqlite_master")
            if FileManager.default.fileExists(atPath: destination.path) {
                // A destination that is not a database cannot take a backup: start afresh.
                let valid = (try? SQLiteConnection(path: destination.path, create: false)
                    .scalarString("SELECT COUNT(*) FROM sqlite_master")) != nil
                if !valid { try destroyFiles(at: destination, busyTimeout: busyTimeout) }
            }
            let to = try SQLiteConnection(path: destination.path, busyTimeout: busyTimeout)
            try to.restore(from: from)
            _ = try to.scalarString("PRAGMA journal_mode = WAL")
            try ExternalDataStorage.copyFolder(from: source, to: destination)
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && !(error is SQLiteError) {
            throw error
        } catch {
            throw CoreDataError.store(
                NSPersistentStoreOperationError,
                "The store at \(source.path) cannot be copied to \(destination.path).",
                url: destination, underlying: (error as? SQLiteError)?.nsError ?? error)
        }
    }
}
