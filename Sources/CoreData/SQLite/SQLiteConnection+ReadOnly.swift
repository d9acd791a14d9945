import Foundation
internal import CCoreDataSQLite

// MARK: - Reading a database without writing anything

extension SQLiteConnection {
    /// Opens the database at `path` to read it without writing a byte: nothing is created
    /// beside it (no `-wal`, no `-shm`), no file is changed, and it works in a folder the
    /// process cannot write. What a WAL file beside it holds is read too.
    ///
    /// SQLite's plain read-only mode (`SQLITE_OPEN_READONLY`) is not enough for a database
    /// in WAL mode: it creates the `-wal` and `-shm` files when they are missing (and fails
    /// when it cannot), and a reader writes its read marks into `-shm`. So a WAL-mode file
    /// is opened one of two ways (<https://www.sqlite.org/wal.html#noshm>,
    /// <https://www.sqlite.org/uri.html#uriimmutable>):
    /// - with a `-wal` beside it: `mode=ro` on the `unix-none` VFS (no file locks), and
    ///   `locking_mode = EXCLUSIVE` before the first read, which makes SQLite build the WAL
    ///   index in heap memory from the `-wal` and never open `-shm`;
    /// - without one (everything is in the database): `immutable=1`, which SQLite opens
    ///   read-only without locks and without looking for a WAL (the first way would
    ///   create an empty `-wal`).
    ///
    /// A file in rollback-journal mode is opened with plain `mode=ro`, which writes nothing
    /// and takes SQLite's usual shared locks (waiting up to `busyTimeout` for a writer).
    /// In every case no checkpoint runs when the connection closes
    /// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`).
    ///
    /// - Note: a WAL-mode file is read without locks, as of the moment it is opened: a
    ///   program that writes and checkpoints it meanwhile is not seen, and may make a read
    ///   fail. This suits stores that nothing else writes (shipped in a read-only folder,
    ///   or inspected by a tool).
    static func openReadingOnly(path: String, busyTimeout: TimeInterval) throws -> SQLiteConnection {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let walMode = isWALModeFile(absolute)
        let hasWAL = walMode && FileManager.default.fileExists(atPath: absolute + "-wal")
        let parameters = !walMode ? "mode=ro" : hasWAL ? "mode=ro&vfs=unix-none" : "mode=ro&immutable=1"
        let wal = walMode && hasWAL
        let connection = try SQLiteConnection(
            path: fileURI(absolute, parameters: parameters), readOnly: true, create: false,
            busyTimeout: busyTimeout, uri: true)
        var applied: Int32 = 0
        let rc = cdsqlite_db_config_flag(connection.handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &applied)
        guard rc == SQLITE_OK, applied == 1 else { throw SQLiteError(connection: connection.handle, resultCode: rc) }
        if wal {
            let mode = try connection.scalarString("PRAGMA locking_mode = EXCLUSIVE")
            guard mode?.lowercased() == "exclusive" else {
                throw SQLiteError(resultCode: SQLITE_CANTOPEN, message: "SQLite did not take the exclusive locking mode")
            }
        }
        return connection
    }

    /// Opens the database at `path` to read it while other connections may have it open,
    /// in this process or another: through SQLite's own file layer whenever a connection may
    /// hold locks on the file, else as ``openReadingOnly(path:busyTimeout:)`` does.
    ///
    /// SQLite's file locks are POSIX locks: they belong to the process, and closing *any*
    /// descriptor of the file releases all of them. SQLite's default file layer shares one
    /// descriptor between a process's connections and keeps it open while it holds locks;
    /// a descriptor opened beside it (`FileHandle`, the `unix-none` file layer) is not so
    /// careful. Once this process's locks are gone, another process closing its last
    /// connection takes the file for its own, checkpoints the WAL and deletes the `-wal`
    /// and `-shm` files under this process's connections, whose next read then fails
    /// (`SQLITE_IOERR_SHORT_READ`) or misses committed pages.
    ///
    /// So when a connection of this process has the file open through that layer
    /// (``SQLiteOpenFiles``), the database is opened read-only through it too, which shares
    /// the descriptor (and records its read marks in the `-shm` the open connection uses).
    /// Otherwise this process holds no lock on the file that a closed descriptor could
    /// lose, and nothing is written at all.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_>
    static func openForReading(path: String, busyTimeout: TimeInterval) throws -> SQLiteConnection {
        if SQLiteOpenFiles.isOpen(path) {
            return try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: busyTimeout)
        }
        return try openReadingOnly(path: path, busyTimeout: busyTimeout)
    }

    /// Whether the file's header says WAL mode (bytes 18 and 19, the write and read
    /// versions, are 2). A file too short to tell, or unreadable, is not.
    static func isWALModeFile(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 20), header.count == 20 else { return false }
        return header[18] == 2 || header[19] == 2
    }

    /// A `file:` URI naming `path` (absolute), with `%`, `?` and `#` escaped as SQLite's
    /// URI rules require, then `?parameters`.
    static func fileURI(_ path: String, parameters: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file://\(escaped)?\(parameters)"
    }
}
