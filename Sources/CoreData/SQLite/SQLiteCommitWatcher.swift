import Foundation
internal import CCoreDataSQLite

/// Watches a database file for transactions committed by any connection (this process or
/// another) and calls a handler, on a private queue, after each one it notices.
///
/// Two Linux pieces work together:
/// - **inotify** on the database's folder (through the process's shared instance,
///   ``FolderEvents``) wakes the watcher whenever the database, its
///   `-wal` or its `-journal` is written (a commit writes its frames to the `-wal`, or its
///   pages to the database in rollback-journal mode). A checkpoint writes too, and so do
///   uncommitted frames: a wake alone proves nothing.
/// - **`PRAGMA data_version`** on the watcher's own read-only connection then tells whether
///   another connection really committed since the last look
///   (<https://www.sqlite.org/pragma.html#pragma_data_version>). Every other connection
///   counts, the store's own included, so the watcher reports every write to the file.
///
/// A commit's last frame is written a moment before the writer publishes it in the WAL
/// index (a write to shared memory, which raises no file event), so each wake is followed by
/// more looks, 4 ms, 40 ms, 0.4 s, 2 s and 10 s after the latest event: a commit is seen
/// well within 100 ms when the writer runs on, and is not missed when a loaded machine
/// pauses the writer between the two (CI once paused it past the 40 ms look, and the only
/// commit of a test was never reported).
/// Several commits seen in one look are reported once (`probe` tells the handler how far
/// the store got).
///
/// Not a Core Data type: the store tells it what to run after a commit (`probe`, a SQL
/// query answering one integer, run on the watcher's connection).
final class SQLiteCommitWatcher: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is used only on `queue`.
    private let queue = DispatchQueue(label: "CoreData.SQLiteCommitWatcher")
    private var connection: SQLiteConnection?
    private var watch: FolderEvents.Watch?
    private let events: FolderEvents
    private let probe: String?
    private let names: Set<String>
    private let onCommit: @Sendable (_ probed: Int64?) -> Void
    private var dataVersion: Int64 = 0
    private var latestEvent: DispatchTime = .now()
    private var recheckStep: Int?
    private var isCancelled = false
    /// After the latest event: when to look again (nanoseconds).
    private static let rechecks: [UInt64] = [4_000_000, 40_000_000, 400_000_000, 2_000_000_000, 10_000_000_000]

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
        let name = file.lastPathComponent
        names = [name, name + "-wal", name + "-journal"]
        self.probe = probe
        self.onCommit = onCommit
        events = try FolderEvents.shared()
        let connection = try SQLiteConnection(path: file.path, readOnly: true, create: false, busyTimeout: 1)
        self.connection = connection
        dataVersion = (try? Self.dataVersion(connection)) ?? 0
        let watch = try events.watch(folder: file.deletingLastPathComponent().path) { [weak self] written in
            guard let self else { return }
            queue.async { self.written(written) }
        }
        queue.sync { self.watch = watch }
    }

    deinit {
        if let watch { events.unwatch(watch) }
    }

    /// Stops watching: the handler is not called after the watcher's queue has finished
    /// what it was doing.
    func cancel() {
        let watch = queue.sync { () -> FolderEvents.Watch? in
            isCancelled = true
            connection = nil
            defer { self.watch = nil }
            return self.watch
        }
        if let watch { events.unwatch(watch) }
    }

    /// The probe's value now, read on the watcher's connection (nil when it has none).
    func currentProbe() -> Int64? {
        queue.sync { runProbe() }
    }

    // MARK: - Events

    private func written(_ written: Set<String>) {
        guard !isCancelled, !names.isDisjoint(with: written) else { return }
        latestEvent = .now()
        look()
        if recheckStep == nil {
            recheckStep = 0
            queue.asyncAfter(deadline: latestEvent + .nanoseconds(Int(Self.rechecks[0]))) { [weak self] in self?.recheck() }
        }
    }

    /// A later look after the latest event (see the type's comment).
    private func recheck() {
        guard let step = recheckStep, !isCancelled else { recheckStep = nil; return }
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
}
