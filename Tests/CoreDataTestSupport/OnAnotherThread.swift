import Foundation

/// Runs `body` on a new thread (not a queue the caller may already be on) and returns its
/// result once it has finished: how the tests reach a coordinator or context from a thread
/// of its own while the calling one waits.
public func onAnotherThread<T>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ThreadResult<T>()
    let finished = DispatchSemaphore(value: 0)
    Thread {
        box.value = body()
        finished.signal()
    }.start()
    finished.wait()
    return box.value!
}

private final class ThreadResult<T>: @unchecked Sendable {
    // @unchecked Sendable: written by the thread before it signals, read after the wait.
    var value: T?
}
