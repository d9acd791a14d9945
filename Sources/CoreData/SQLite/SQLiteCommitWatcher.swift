import Foundation
internal import CCoreDataSQLite

/// Watches a database file for transactions committed by any connection (this process or
/// another) and calls a handler, on a private queue, after each one it notices.
///
/// Two Linux pieces work together:
/// - **inotify** on the database's folder wakes the watcher whenever the database, its
///   `-wal` or its `-journal` is written (a commit writes its frames to the `-wal`, or its
///   pages to the database in rollback-journal mode). A checkpoint writes too, and so do
///   uncommitted frames: a wake alone proves nothing.
/// - **`PRAGMA data_version`** on the watcher's own read-only connection then tells whether
///   another connection really committed since the last look
///   (<https://www.sqlite.org/pragma.html#pragma_data_version>). Every other connection
///   counts, the store's own included, so the watcher reports every write to the file.
///
/// A commit's last frame is written a moment before the writer publishes it in the WAL
/// index, so each wake is followed by two more looks, a few and a few tens of milliseconds
/// after the latest event: a commit is never missed, and is seen well within 100 ms.
/// Several commits seen in one look are reported once (`probe` tells the handler how far
/// the store got).
///
/// Not a Core Data type: the store tells it what to run after a commit (`probe`, a SQL
/// query answering one integer, run on the watcher's connection).
final class SQLiteCommitWatcher: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is used only on `queue`.
    private let queue: DispatchQueue
    private let source: DispatchSourceRead
    private var connection: SQLiteConnection?
    private let probe: String?
    private let names: Set<String>
    private let onCommit: @Sendable (_ probed: Int64?) -> Void
    private var dataVersion: Int64 = 0
    private var latestEvent: DispatchTime = .now()
    private var recheckStep: Int?
    /// After the latest event: when to look again (nanoseconds).
    private static let rechecks: [UInt64] = [4_000_000, 40_000_000]

    /// Starts watching the database at `path`.
    ///
    /// - Parameters:
    ///   - probe: SQL answering one integer, run after each commit seen; its value (nil when
    ///     it answers no row or fails) goes to `onCommit`.
    ///   - onCommit: called on the watcher's private queue.
    /// - Throws: `SQLiteError` when the database cannot be opened for reading, an
    ///   `NSError` in `NSPOSIXErrorDomain` when inotify refuses.
    init(path: String, probe: String?, onCommit: @escaping @Sendable (_ probed: Int64?) -> Void) throws {
        let file = URL(fileURLWithPath: path).standardizedFileURL
        let folder = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        names = [name, name + "-wal", name + "-journal"]
        self.probe = probe
        self.onCommit = onCommit
        queue = DispatchQueue(label: "CoreData.SQLiteCommitWatcher")

        let descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw Self.posixError("inotify_init1") }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let error = Self.posixError("inotify_add_watch")
            close(descriptor)
            throw error
        }
        do {
            let connection = try SQLiteConnection(path: file.path, readOnly: true, create: false, busyTimeout: 1)
            self.connection = connection
            dataVersion = (try? Self.dataVersion(connection)) ?? 0
        } catch {
            close(descriptor)
            throw error
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in drain(descriptor) }
        source.setCancelHandler { [self] in
            close(descriptor)
            connection = nil
        }
        source.resume()
    }

    deinit { source.cancel() }

    /// Stops watching; the handler is not called after the watcher's queue has finished
    /// what it was doing.
    func cancel() {
        source.cancel()
    }

    /// The probe's value now, read on the watcher's connection (nil when it has none).
    func currentProbe() -> Int64? {
        queue.sync { runProbe() }
    }

    // MARK: - Events

    private func drain(_ descriptor: Int32) {
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
            while offset + 16 <= count {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self)
                if length > 0, names.contains(String(cString: nameStart)) { relevant = true }
                offset += 16 + length
            }
        }
        guard relevant, !source.isCancelled else { return }
        latestEvent = .now()
        look()
        if recheckStep == nil {
            recheckStep = 0
            queue.asyncAfter(deadline: latestEvent + .nanoseconds(Int(Self.rechecks[0]))) { [weak self] in self?.recheck() }
        }
    }

    /// A later look after the latest event (see the type's comment).
    private func recheck() {
        guard let step = recheckStep, !source.isCancelled else { recheckStep = nil; return }
        let due = latestEvent + .nanoseconds(Int(Self.rechecks[step]))
        if DispatchTime.now() < due {
            queue.asyncAfter(deadline: due) { [weak self] in self?.recheck() }
            return
        }
        look()
        if step + 1 < Self.rechecks.count {
            recheckStep = step + 1
            queue.asyncAfter(deadline: latestEvent + .nanoseconds(Int(Self.rechecks[step + 1]))) { [weak self] in self?.recheck() }
        } else {
            recheckStep = nil
        }
    }

    /// Reports a commit when `data_version` moved since the last look.
    private func look() {
        guard let connection, let version = try? Self.dataVersion(connection), version != dataVersion else { return }
        dataVersion = version
        onCommit(runProbe())
    }

    private func runProbe() -> Int64? {
        guard let probe, let connection, let statement = try? connection.prepare(probe),
              (try? statement.step()) == true else { return nil }
        return statement.int64(0)
    }

    private static func dataVersion(_ connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.cached("PRAGMA data_version")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    private static func posixError(_ call: String) -> NSError {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [
            NSLocalizedDescriptionKey: "\(call) failed: \(String(cString: strerror(code)))",
        ])
    }
}
