import Foundation
internal import CCoreDataSQLite

// MARK: - Store files (used by the coordinator without adding a store)

extension SQLiteStoreBackend {
    /// The metadata of the store at `url` (`NSStoreUUID`, `NSStoreType`, version hashes,
    /// app keys), read without adding the store.
    static func readMetadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(url.path).", url: url)
        }
        do {
            let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false, busyTimeout: 1)
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

    /// Replaces the metadata of the SQLite store at `url` without adding it. Its type, and
    /// its UUID and model version hashes unless `metadata` names others, stay; the rest is
    /// `metadata`.
    static func writeMetadata(_ metadata: [String: Any], at url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(url.path).", url: url)
        }
        do {
            let connection = try SQLiteConnection(path: url.path, create: false, busyTimeout: 1)
            let stored = try SQLiteMetadata.read(from: connection)
            let merged = SQLiteMetadata.keepingStoreKeys(metadata, from: stored)
            try connection.transaction { try SQLiteMetadata.write(merged, to: connection) }
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && !(error is SQLiteError) {
            throw error
        } catch {
            throw openError(error, url: url)
        }
    }

    /// Deletes a store's database, `-wal`, `-shm` and `-journal` files.
    ///
    /// When the database is a SQLite file it is first emptied through the backup API
    /// (copying an empty database over it), which takes SQLite's locks: a connection that
    /// still has the store open then sees an empty database instead of a deleted file.
    static func destroyFiles(at url: URL) throws {
        let path = url.path
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path) {
            if let target = try? SQLiteConnection(path: path, create: false, busyTimeout: 1),
               let pageSize = try? target.scalarString("PRAGMA page_size"),
               let empty = try? SQLiteConnection(path: ":memory:") {
                try? empty.execute("PRAGMA page_size = \(Int(pageSize) ?? 4096)")
                try? target.restore(from: empty)
            }
        }
        for companion in companionPaths(of: path) where fileManager.fileExists(atPath: companion) {
            do {
                try fileManager.removeItem(atPath: companion)
            } catch {
                throw CoreDataError.store(
                    NSPersistentStoreOperationError, "The store file \(companion) cannot be deleted.",
                    url: url, underlying: error)
            }
        }
    }

    /// Copies the store at `source` to `destination` through SQLite's backup API, so that
    /// content still in the source's WAL is copied too. The destination's folder is
    /// created when missing; an existing destination is replaced.
    static func copyStore(from source: URL, to destination: URL) throws {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw CoreDataError.store(
                CocoaError.Code.fileReadNoSuchFile.rawValue, "There is no store at \(source.path).", url: source)
        }
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let from = try SQLiteConnection(path: source.path, readOnly: true, create: false, busyTimeout: 1)
            _ = try from.scalarString("SELECT COUNT(*) FROM sqlite_master")
            if FileManager.default.fileExists(atPath: destination.path) {
                // A destination that is not a database cannot take a backup: start afresh.
                let valid = (try? SQLiteConnection(path: destination.path, create: false)
                    .scalarString("SELECT COUNT(*) FROM sqlite_master")) != nil
                if !valid { try destroyFiles(at: destination) }
            }
            let to = try SQLiteConnection(path: destination.path, busyTimeout: 1)
            try to.restore(from: from)
            _ = try to.scalarString("PRAGMA journal_mode = WAL")
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
