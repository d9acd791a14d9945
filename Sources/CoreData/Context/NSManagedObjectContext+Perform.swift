import Foundation

// MARK: - Running work on the context's queue

extension NSManagedObjectContext {
    /// Runs `block` asynchronously on the context's queue.
    ///
    /// - Note: Apple parity: a `.mainQueueConcurrencyType` context runs its blocks on the
    ///   main queue, which only runs while the main thread drains it (`dispatchMain()`,
    ///   `RunLoop.main.run()`, or an `async` main). A command-line program or server that
    ///   does not drain it uses `performAndWait` from the main thread (which runs inline)
    ///   or the `async` `perform`.
    @preconcurrency
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            runAsCurrent(block)
        }
    }

    /// Runs `block` on the context's queue and waits for it. Re-entrant: a call from the
    /// context's own queue (or, for a main-queue context, from the main thread) runs
    /// inline, and so does a call from inside one of its blocks that is waiting for
    /// another context (a parent asked by its child, within the parent's own block).
    ///
    /// This is the overload a closure that returns nothing and does not throw picks; one
    /// that returns a value or throws picks the generic `performAndWait(_:)`.
    ///
    /// - Note: Apple parity: the closure is not `@Sendable` (Apple's current SDK marks it
    ///   `@Sendable` under `@preconcurrency`, which only warns): it runs while the caller
    ///   waits, as `DispatchQueue.sync` runs its closure.
    public func performAndWait(_ block: () -> Void) {
        if isOnOwnQueue || isRunningOnThisThread {
            return runAsCurrent(block)
        }
        queue.sync { runAsCurrent(block) }
    }

    /// Runs `block` on the context's queue, waits for it and returns its result (or
    /// rethrows its error). Re-entrant, as the non-generic `performAndWait(_:)`.
    ///
    /// ```swift
    /// let count = try context.performAndWait { try context.count(for: request) }
    /// ```
    ///
    /// - Note: Apple parity: the closure is not `@Sendable` (see the non-generic overload).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnOwnQueue || isRunningOnThisThread {
            return try runAsCurrent(block)
        }
        return try queue.sync { try runAsCurrent(block) }
    }

    /// Runs `block` on the context's queue and returns its result.
    ///
    /// - Note: Apple parity: declared with typed throws (`throws(E)`), which behaves as
    ///   Apple's `rethrows`: a non-throwing block needs no `try`.
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate, _ block: sending @escaping () throws(E) -> T) async throws(E) -> T {
        if schedule == .immediate, isOnOwnQueue {
            return try runAsCurrentTyped(block)
        }
        let box = UncheckedSendableBox(block)
        let result: UncheckedSendableBox<Result<T, E>> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let outcome: Result<T, E>
                do throws(E) { outcome = .success(try runAsCurrentTyped(box.value)) }
                catch { outcome = .failure(error) }
                continuation.resume(returning: UncheckedSendableBox(outcome))
            }
        }
        return try result.value.get()
    }

    private func runAsCurrentTyped<T, E: Error>(_ block: () throws(E) -> T) throws(E) -> T {
        var outcome: Result<T, E>!
        runAsCurrent {
            do throws(E) { outcome = .success(try block()) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }

    var isOnOwnQueue: Bool {
        if concurrencyType == .mainQueueConcurrencyType {
            // After dispatchMain() (an async main, Swift Testing) the main queue runs on
            // worker threads, so ask the queue, not only the thread.
            return Thread.isMainThread || DispatchQueue.getSpecific(key: queueKey) != nil
        }
        if concurrencyType.rawValue == 0 { return true } // confinement: the caller's thread
        return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Whether a block of this context is running, further up this thread's stack.
    var isRunningOnThisThread: Bool {
        (Thread.current.threadDictionary[Self.currentKey] as? ContextStack)?.contexts.contains { $0 === self } ?? false
    }

    /// The context whose `perform` block is running on this thread (for
    /// `NSFetchRequest.execute()`).
    static var current: NSManagedObjectContext? {
        (Thread.current.threadDictionary[currentKey] as? ContextStack)?.contexts.last
    }

    private static let currentKey = "CoreData.NSManagedObjectContext.current"

    func runAsCurrent<T>(_ block: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let stack = (dictionary[Self.currentKey] as? ContextStack) ?? {
            let stack = ContextStack()
            dictionary[Self.currentKey] = stack
            return stack
        }()
        stack.contexts.append(self)
        defer { stack.contexts.removeLast() }
        return try block()
    }
}

/// The contexts whose blocks are running on one thread, innermost last.
final class ContextStack {
    var contexts: [NSManagedObjectContext] = []
}
