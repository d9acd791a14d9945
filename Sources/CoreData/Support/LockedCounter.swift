import Foundation

/// A process-wide counter: each `next()` returns a number no earlier call returned.
final class LockedCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
