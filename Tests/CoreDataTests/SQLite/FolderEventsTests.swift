import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// The process's shared inotify instance, which commit watchers share.
@Suite struct FolderEventsTests {
    /// A commit watcher dropped while one of its events is being delivered is released on the
    /// instance's queue, and its `deinit` stops its watch there. CI's whole suite once trapped
    /// on that (`dispatch_sync` onto the queue the thread was running).
    @Test("a handler may stop its own watch and another's; a stopped handler is not called again")
    func unwatchFromAHandler() throws {
        let folder = try TemporaryDirectory()
        let events = try FolderEvents.shared()
        let calls = Calls()
        let other = try events.watch(folder: folder.url.path) { _ in calls.count("other") }
        let box = WatchBox()
        box.watch = try events.watch(folder: folder.url.path) { _ in
            calls.count("self")
            if let watch = box.take() {
                events.unwatch(watch)
                events.unwatch(other)
            }
        }
        try Data("a".utf8).write(to: folder.file("first"))
        #expect(calls.wait(for: "self", count: 1))
        try Data("b".utf8).write(to: folder.file("second"))
        // Both handlers are gone: a third watch sees the write, the others do not.
        let seen = Calls()
        let witness = try events.watch(folder: folder.url.path) { _ in seen.count("witness") }
        defer { events.unwatch(witness) }
        try Data("c".utf8).write(to: folder.file("third"))
        #expect(seen.wait(for: "witness", count: 1))
        #expect(calls.value("self") == 1)
    }
}

/// Calls counted by name, waited for with a deadline.
private final class Calls: @unchecked Sendable {
    private let condition = NSCondition()
    private var counts: [String: Int] = [:]

    func count(_ name: String) {
        condition.withLock { counts[name, default: 0] += 1; condition.broadcast() }
    }

    func value(_ name: String) -> Int { condition.withLock { counts[name, default: 0] } }

    func wait(for name: String, count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        return condition.withLock {
            while counts[name, default: 0] < count {
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }
}

/// The watch a handler stops, taken once.
private final class WatchBox: @unchecked Sendable {
    private let lock = NSLock()
    var watch: FolderEvents.Watch?

    func take() -> FolderEvents.Watch? {
        lock.withLock { defer { watch = nil }; return watch }
    }
}
