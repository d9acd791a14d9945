import Foundation

/// The process's one inotify instance, shared by every folder watch: the system allows a
/// user only a few instances (128 by default, across all their processes), and a folder
/// watched twice is one watch.
///
/// Handlers run on the instance's private queue with the names of the files written in the
/// folder since the last call; they should hand the work to their own queue at once.
/// `watch` and `unwatch` may be called from a handler (a watcher whose last reference a
/// handler held stops its watch in `deinit`, there).
final class FolderEvents: @unchecked Sendable {
    // @unchecked Sendable: `handlers` is used only on `queue`.
    typealias Handler = @Sendable (_ names: Set<String>) -> Void

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "CoreData.FolderEvents")
    /// Set on `queue`: tells a call made from a handler that it already runs there.
    private static let onQueue = DispatchSpecificKey<Bool>()
    private let source: DispatchSourceRead
    /// Watch descriptor → the handlers of that folder, by token.
    private var handlers: [Int32: [Int: Handler]] = [:]
    private var nextToken = 0

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: FolderEvents?

    /// The shared instance, made at first use.
    ///
    /// - Throws: an `NSError` in `NSPOSIXErrorDomain` when inotify refuses.
    static func shared() throws -> FolderEvents {
        try lock.withLock {
            if let instance { return instance }
            let made = try FolderEvents()
            instance = made
            return made
        }
    }

    private init() throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { throw Self.posixError("inotify_init1") }
        queue.setSpecific(key: Self.onQueue, value: true)
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in drain() }
        source.resume()
    }

    /// A watch is identified by its folder's watch descriptor and a token.
    struct Watch: Sendable {
        let descriptor: Int32
        let token: Int
    }

    /// Calls `handler` with the names of files written (modified, closed after writing,
    /// created, moved in) in `folder`.
    func watch(folder: String, _ handler: @escaping Handler) throws -> Watch {
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)
        return try onQueue {
            let wd = inotify_add_watch(descriptor, folder, mask)
            guard wd >= 0 else { throw Self.posixError("inotify_add_watch") }
            nextToken += 1
            handlers[wd, default: [:]][nextToken] = handler
            return Watch(descriptor: wd, token: nextToken)
        }
    }

    /// Stops a watch; the folder's inotify watch goes with its last handler. The handler is
    /// not called once this returns.
    func unwatch(_ watch: Watch) {
        onQueue {
            handlers[watch.descriptor]?[watch.token] = nil
            if handlers[watch.descriptor]?.isEmpty == true {
                handlers[watch.descriptor] = nil
                inotify_rm_watch(descriptor, watch.descriptor)
            }
        }
    }

    /// Runs `body` on `queue`: at once when called from it (a handler), else through `sync`,
    /// which would trap there (a queue cannot wait for itself).
    private func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: Self.onQueue) == true { return try body() }
        return try queue.sync(execute: body)
    }

    private func drain() {
        var written: [Int32: Set<String>] = [:]
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
            while offset + 16 <= count {
                let wd = buffer.load(fromByteOffset: offset, as: Int32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                if length > 0 {
                    let name = buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self)
                    written[wd, default: []].insert(String(cString: name))
                }
                offset += 16 + length
            }
        }
        // Each handler is looked up again before its call: one that an earlier handler
        // unwatched is not called.
        for (wd, names) in written {
            for token in (handlers[wd] ?? [:]).keys {
                handlers[wd]?[token]?(names)
            }
        }
    }

    static func posixError(_ call: String) -> NSError {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [
            NSLocalizedDescriptionKey: "\(call) failed: \(String(cString: strerror(code)))",
        ])
    }
}
