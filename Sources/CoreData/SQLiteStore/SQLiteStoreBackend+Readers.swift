import Foundation

// MARK: - Readers outside the coordinator's lock

/// The store's read-only connections for reads outside the coordinator's lock: a few,
/// opened when first needed, kept for the next read. Used under the coordinator's lock.
struct ReaderPool {
    /// The most readers open at once; a read that finds every one out reads through the
    /// store's own connection, under the lock. More threads than cores gain nothing.
    ///
    /// 4, or the number in the environment variable `COREDATA_SQLITE_READERS` (for
    /// measuring: 0 reads everything under the coordinator's lock, as before readers
    /// existed).
    static let capacity: Int = ProcessInfo.processInfo.environment["COREDATA_SQLITE_READERS"]
        .flatMap { Int($0) }.map { max(0, $0) } ?? 4

    /// Whether the store can have readers (a file in WAL mode, opened for writing); nil
    /// until first asked.
    var isAvailable: Bool?
    /// Readers waiting for a read.
    var idle: [SQLiteStoreBackend] = []
    /// Readers open now, idle or checked out.
    var open = 0
    /// Bumped when the store closes: readers opened before are closed when they come back.
    var generation = 0
}

extension SQLiteStoreBackend: ConcurrentReading {
    /// A reader: an idle one, or a new read-only connection while fewer than
    /// ``ReaderPool/capacity`` are open. Nil for a store in memory, a read-only store, one
    /// not in WAL mode (a rollback journal lets no reader in while a writer commits), a
    /// reader itself, and while the store's own connection is inside a transaction (a
    /// reader would not see what that transaction wrote).
    func checkOutReader() -> StoreBackend? {
        // A traced connection (`statementObserver`) reads everything itself, so that the
        // trace sees every statement.
        guard let connection, !connection.isInTransaction, connection.statementObserver == nil,
              readerPool.isAvailable ?? poolIsAvailable() else {
            return nil
        }
        if let reader = readerPool.idle.popLast() { return reader }
        guard readerPool.open < ReaderPool.capacity,
              let reader = try? makeReader(SQLiteConnection(path: url.path, readOnly: true, create: false,
                                                            busyTimeout: busyTimeout)) else { return nil }
        reader.readerPool.generation = readerPool.generation
        readerPool.open += 1
        return reader
    }

    func checkInReader(_ reader: StoreBackend) {
        guard let reader = reader as? SQLiteStoreBackend else { return }
        guard reader.readerPool.generation == readerPool.generation, let connection = reader.connection else {
            reader.connection = nil
            return
        }
        // A statement left stepping would keep its read transaction, and with it an old
        // version of the database, for the next read.
        connection.resetActiveStatements()
        readerPool.idle.append(reader)
    }

    /// Closes the idle readers; readers checked out now are closed when they come back.
    func closeReaders() {
        for reader in readerPool.idle { reader.connection = nil }
        readerPool.idle = []
        readerPool.open = 0
        readerPool.generation += 1
    }

    /// Whether readers may be opened, asked once per store.
    private func poolIsAvailable() -> Bool {
        let available = snapshotSource == nil && !isReadOnly && !Self.isInMemoryPath(url)
            && (try? connection?.scalarString("PRAGMA journal_mode"))??.lowercased() == "wal"
        readerPool.isAvailable = available
        return available
    }

    /// A backend reading through `connection` that shares this one's schema and row plans
    /// (and keeps its own statements): a pooled reader, or a snapshot of a query generation.
    func makeReader(_ connection: SQLiteConnection) throws -> SQLiteStoreBackend {
        try SQLiteFunctions.register(on: connection)
        let reader = SQLiteStoreBackend(url: url, options: [
            NSReadOnlyPersistentStoreOption: true, NSPersistentHistoryTrackingKey: tracksHistory,
            NSPersistentStoreTimeoutOption: busyTimeout,
        ])
        reader.connection = connection
        reader.schema = schema
        reader.plans = plans
        reader.joinColumnsBySourceRoot = joinColumnsBySourceRoot
        reader.selectPrefixes = selectPrefixes
        reader.memberSelects = memberSelects
        reader.fetchColumnLists = fetchColumnLists
        reader.selectCache = selectCache
        reader.metadata = metadata
        reader.snapshotSource = self
        return reader
    }
}

/// The SELECTs a store compiled, by shape (``SelectShape``): shared by the store and its
/// readers, which fetch on several threads at once.
final class SelectCache: @unchecked Sendable {
    // @unchecked Sendable: `table` is guarded by `lock`.
    private let lock = NSLock()
    private var table: [SelectShape: String?] = [:]

    /// The SQL of a shape: nil when the shape was never compiled, `.some(nil)` for a shape
    /// whose SQL must be compiled every time.
    func sql(for shape: SelectShape) -> String?? {
        lock.withLock { table[shape] }
    }

    /// Keeps a shape's SQL (nil: compile it every time); at most 256 shapes are kept.
    func store(_ sql: String?, for shape: SelectShape) {
        lock.withLock {
            if table.count >= 256 { table.removeAll(keepingCapacity: true) }
            table[shape] = .some(sql)
        }
    }

    /// Every shape kept, with its SQL.
    var entries: [SelectShape: String?] { lock.withLock { table } }
}
