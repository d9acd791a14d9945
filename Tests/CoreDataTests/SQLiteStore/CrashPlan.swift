import Foundation
import CCoreDataCrashVFS

/// The crash-point file layer (`Tests/CCoreDataCrashVFS`) watching one folder: every
/// write, sync, truncate and delete SQLite makes to a file in it is a numbered I/O point,
/// and the plan fails, "crashes" or "loses power" at the one it is armed with.
///
/// ```swift
/// let plan = CrashPlan(folder: folder.url)      // counts while the store opens
/// plan.arm(.crash, at: 3)                        // the third point from now fails, and all after it
/// try? context.save()
/// try coordinator.remove(store)                  // every connection closed
/// try plan.disarm()                              // (after a power cut: unsynced bytes undone)
/// ```
final class CrashPlan {
    /// What happens at the armed point (the modes of `CCoreDataCrashVFS.h`).
    enum Mode: Int32, CustomStringConvertible, Sendable {
        /// Nothing: the points are only counted.
        case count = 0
        /// The point fails with an I/O error, once; the process goes on.
        case error = 1
        /// The point and every later one fail: what was written before stays (kill -9).
        case crash = 2
        /// As `crash`, and what no sync made durable is undone at ``CrashPlan/disarm()``.
        case powerLoss = 3
        /// From the point on, every write fails with SQLITE_FULL until disarmed.
        case full = 4

        var description: String {
            switch self {
            case .count: "count"
            case .error: "I/O error"
            case .crash: "process crash"
            case .powerLoss: "power loss"
            case .full: "disk full"
            }
        }
    }

    /// The registration, once per process: the layer becomes SQLite's default, and passes
    /// every file outside an armed folder straight through.
    private static let installed: Bool = cdcrash_install() == 0

    let prefix: String
    private var armed = true

    /// Watches `folder` (counting only); files SQLite opens from now on in it are watched.
    init(folder: URL) {
        precondition(Self.installed, "the crash-point VFS could not be registered")
        prefix = folder.standardizedFileURL.path + "/"
        precondition(cdcrash_arm(prefix, Mode.count.rawValue, 0) == 0, "\(prefix) is already watched")
    }

    deinit { if armed { _ = cdcrash_disarm(prefix) } }

    /// A new plan from now on: `mode` at the `point`-th I/O point (1-based) counted from here.
    func arm(_ mode: Mode, at point: Int64 = 0) {
        _ = cdcrash_arm(prefix, mode.rawValue, point)
    }

    /// I/O points seen since the last ``arm(_:at:)``.
    var points: Int64 { cdcrash_points(prefix) }

    /// Whether the armed point was reached.
    var triggered: Bool { cdcrash_triggered(prefix) == 1 }

    /// Files in the folder SQLite has open now (0 once every connection is closed).
    var openFiles: Int { Int(cdcrash_open_files(prefix)) }

    struct RestoreFailed: Error {}

    /// Stops watching; after a power cut, first undoes every unsynced write (call it only
    /// once ``openFiles`` is 0).
    func disarm() throws {
        guard armed else { return }
        armed = false
        if cdcrash_disarm(prefix) == -2 { throw RestoreFailed() }
    }
}
