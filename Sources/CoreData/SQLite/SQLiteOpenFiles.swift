import Foundation

/// The database files this process has open through SQLite's default file layer, counted
/// by file identity (device and inode), so that a reader can tell whether opening the file
/// beside SQLite could release the process's locks on it
/// (``SQLiteConnection/openForReading(path:busyTimeout:)``).
///
/// Process-wide, as POSIX locks are.
enum SQLiteOpenFiles {
    /// A file's identity: the same file under any path (links, `..`, symbolic links).
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var counts: [FileID: Int] = [:]

    /// The identity of the file at `path`, or nil when there is none (`:memory:`, a
    /// missing file).
    static func id(of path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// A connection to the file opened.
    static func opened(_ id: FileID) {
        lock.withLock { counts[id, default: 0] += 1 }
    }

    /// A connection to the file closed.
    static func closed(_ id: FileID) {
        lock.withLock {
            let remaining = (counts[id] ?? 1) - 1
            counts[id] = remaining > 0 ? remaining : nil
        }
    }

    /// Whether a connection of this process has the file at `path` open.
    static func isOpen(_ path: String) -> Bool {
        guard let id = id(of: path) else { return false }
        return lock.withLock { counts[id] != nil }
    }
}
