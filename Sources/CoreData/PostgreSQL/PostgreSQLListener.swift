import Foundation
internal import CCoreDataLibPQ

/// A connection of its own that `LISTEN`s on one channel and calls back, on a thread of its
/// own, for the notifications the server delivers (a `NOTIFY` reaches listeners when the
/// transaction that sent it commits, and never when it rolls back).
///
/// A connection the server dropped is connected again and listens again; the callback then
/// runs once with a nil payload, since notifications sent meanwhile were lost.
/// ``cancel()`` stops the thread and closes the connection.
final class PostgreSQLListener: @unchecked Sendable {
    // @unchecked Sendable: `cancelled` is guarded by `lock`; `connection` is used by the
    // listening thread only, once `init` has returned.
    private let connection: PostgreSQLConnection
    private let channel: String
    private let onNotify: @Sendable (_ payload: String?) -> Void
    private let lock = NSLock()
    private var cancelled = false

    /// Connects, listens on `channel` (an identifier; quoted here) and starts the thread.
    init(connectionString: String, channel: String, onNotify: @escaping @Sendable (_ payload: String?) -> Void) throws {
        connection = try PostgreSQLConnection(connectionString: connectionString)
        self.channel = channel
        self.onNotify = onNotify
        try connection.execute("LISTEN " + Self.quote(channel))
        let thread = Thread { [self] in run() }
        thread.name = "PostgreSQLListener " + channel
        thread.start()
    }

    /// `name` as a quoted SQL identifier.
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Stops listening: no callback starts after this returns; the thread ends within a
    /// fraction of a second and closes the connection.
    func cancel() {
        lock.withLock { cancelled = true }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    private func run() {
        while !isCancelled {
            let socket = PQsocket(connection.handle)
            guard socket >= 0, connection.isHealthy else {
                relisten()
                continue
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready < 0 && errno != EINTR { relisten(); continue }
            guard ready > 0 else { continue }
            guard PQconsumeInput(connection.handle) != 0 else { relisten(); continue }
            var payloads: [String] = []
            while let notification = PQnotifies(connection.handle) {
                payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
                PQfreemem(notification)
            }
            for payload in payloads where !isCancelled { onNotify(payload) }
        }
    }

    /// Connects again and listens again (waiting between attempts while the server is
    /// away); reports a possible loss with a nil payload once listening again.
    private func relisten() {
        while !isCancelled {
            if connection.reconnect(), (try? connection.execute("LISTEN " + Self.quote(channel))) != nil {
                onNotify(nil)
                return
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
