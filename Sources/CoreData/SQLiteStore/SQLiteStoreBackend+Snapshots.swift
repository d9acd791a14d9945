import Foundation

// MARK: - Snapshots for query generations

extension SQLiteStoreBackend: SnapshotReading {
    /// A reader over the store as it is now: a second, read-only connection that begins a
    /// transaction and reads once, which makes SQLite keep that version of the database
    /// for it (a WAL read mark; <https://www.sqlite.org/isolation.html>) whatever other
    /// connections commit, until the reader is released. The reader shares this backend's
    /// schema and row plans, and keeps its own statements.
    ///
    /// Nil for a store in memory and for one not in WAL mode (a rollback journal keeps no
    /// older version: a reader would block every writer).
    func openSnapshot() throws -> StoreBackend? {
        guard let connection, !Self.isInMemoryPath(url),
              try connection.scalarString("PRAGMA journal_mode")?.lowercased() == "wal" else { return nil }
        return try readFailure { () throws -> SQLiteStoreBackend in
            let snapshot = try SQLiteConnection(path: url.path, readOnly: true, create: false, busyTimeout: busyTimeout)
            let reader = try makeReader(snapshot)
            try snapshot.execute("BEGIN DEFERRED")
            _ = try snapshot.scalarString("SELECT COUNT(*) FROM Z_METADATA")
            return reader
        }
    }

    /// The backend whose identity object IDs carry: this one, or for a snapshot reader the
    /// store's own backend (objects in predicates belong to the store, not to the reader).
    var identity: StoreBackend { snapshotSource ?? self }
}
