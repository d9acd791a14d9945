import Foundation

/// Times the parts of a workload that count (set-up and verification stay outside).
final class Stopwatch {
    private(set) var elapsed: Double = 0
    private var started: UInt64?

    func start() { started = DispatchTime.now().uptimeNanoseconds }

    func stop() {
        guard let started else { return }
        elapsed += Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        self.started = nil
    }

    /// Seconds since `start()` plus what was already measured (for time budgets).
    var running: Double {
        guard let started else { return elapsed }
        return elapsed + Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    func time<T>(_ body: () throws -> T) rethrows -> T {
        start()
        defer { stop() }
        return try body()
    }
}

/// What one side of one run produced: a checksum of the data it read or wrote, and how
/// many operations it did (fewer than asked when a time budget cut it short).
struct Outcome {
    var checksum: Checksum
    var ops: Int
}

/// A workload: the same work through our API and through raw SQLite.
struct Workload {
    let key: String
    let title: String
    /// Operations per run (rows, lookups or queries), as the table reports them.
    let ops: Int
    let unit: String
    /// Goal for ours / raw (nil: none set by the issue).
    let target: Double?
    /// What the raw side does, for the README and `--json`.
    let rawDescription: String
    let ours: (Stopwatch) throws -> Outcome
    /// Does the same work; `ops` is how many operations our side managed in this run.
    let raw: (Stopwatch, _ ops: Int) throws -> Outcome
}

struct WorkloadResult {
    let key: String
    let title: String
    let ops: Int
    let unit: String
    let target: Double?
    /// Median seconds for `ops` operations (extrapolated from `measuredOps` when a time
    /// budget cut the runs short).
    let ours: Double
    let raw: Double
    let measuredOps: Int
    let verified: Bool

    var ratio: Double { ours / raw }
    var extrapolated: Bool { measuredOps < ops }
    var met: Bool? { target.map { ratio <= $0 } }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// MARK: - Resident memory (Linux /proc)

enum ProcessMemory {
    /// A field of /proc/self/status in bytes (`VmRSS`, `VmHWM`).
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return (number.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }

    /// Resets VmHWM to the current RSS (Linux ≥ 4.0); false when not permitted.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }
}
