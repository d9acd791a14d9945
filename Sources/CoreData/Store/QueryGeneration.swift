import Foundation

/// One query generation: a snapshot of each of a coordinator's stores that can keep one
/// (``SnapshotReading``), taken at one moment, with a row cache of its own. Contexts pinned
/// to it read through its readers; it lives while a context or a token refers to it, and
/// releasing it ends the snapshots' read transactions.
///
/// Used under the coordinator's lock only.
final class QueryGeneration: @unchecked Sendable {
    // @unchecked Sendable: `readers` never changes; `rowCache` is used under the owning
    // coordinator's `stateLock`.

    /// Names the generation in archived tokens.
    let identifier = UUID().uuidString
    /// The coordinator whose stores it holds.
    private(set) weak var coordinator: NSPersistentStoreCoordinator?
    /// A snapshot reader per store (by `ObjectIdentifier` of the store).
    let readers: [ObjectIdentifier: StoreBackend]
    /// Rows read at this generation (never mixed with the coordinator's newer rows).
    var rowCache: [NSPersistentStoreCoordinator.RowCacheKey: StoreRow] = [:]

    init(coordinator: NSPersistentStoreCoordinator, readers: [ObjectIdentifier: StoreBackend]) {
        self.coordinator = coordinator
        self.readers = readers
        Self.live.withLock { $0[identifier] = WeakGeneration(generation: self) }
    }

    deinit {
        let identifier = identifier
        Self.live.withLock { $0[identifier] = nil }
        for reader in readers.values { reader.close() }
    }

    /// The reader of `store`, when the generation holds it.
    func reader(for store: NSPersistentStore) -> StoreBackend? {
        readers[ObjectIdentifier(store)]
    }

    // MARK: - Generations by identifier (decoded tokens)

    private struct WeakGeneration { weak var generation: QueryGeneration? }
    private static let live = LockedGenerations()

    /// The live generation an archived token named, if it still exists.
    static func named(_ identifier: String) -> QueryGeneration? {
        live.withLock { $0[identifier]?.generation }
    }

    private final class LockedGenerations: @unchecked Sendable {
        // @unchecked Sendable: `table` is guarded by `lock`.
        private let lock = NSLock()
        private var table: [String: WeakGeneration] = [:]
        func withLock<T>(_ body: (inout [String: WeakGeneration]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&table)
        }
    }
}

/// What the coordinator asks the context it serves (its `requestingContext`): the query
/// generation to read at, if the context is pinned to one. Contexts conform.
protocol QueryGenerationReading: AnyObject {
    /// The generation this context reads at now (made at this first read for a context
    /// pinned to the current generation), or nil to read the newest data. Called with the
    /// coordinator's lock held.
    func queryGenerationForReading(in coordinator: NSPersistentStoreCoordinator) -> QueryGeneration?
}

extension NSPersistentStoreCoordinator {
    /// A new generation over every store that can keep a snapshot, as the stores are now;
    /// nil when none can (contexts then read unpinned, as Apple's do with such stores).
    func makeQueryGeneration() throws -> QueryGeneration? {
        stateLock.lock()
        defer { stateLock.unlock() }
        var readers: [ObjectIdentifier: StoreBackend] = [:]
        for store in persistentStores {
            guard let snapshots = store.backend as? any SnapshotReading,
                  let reader = try snapshots.openSnapshot() else { continue }
            readers[ObjectIdentifier(store)] = reader
        }
        guard !readers.isEmpty else { return nil }
        hasPinnedContexts = true
        return QueryGeneration(coordinator: self, readers: readers)
    }

    /// The generation the requesting context reads `store` at, with its reader; nil to
    /// read the store itself. Call with `stateLock` held.
    func pinnedReader(for store: NSPersistentStore) -> (StoreBackend, QueryGeneration)? {
        guard hasPinnedContexts,
              let reading = requestingContext as? any QueryGenerationReading,
              let generation = reading.queryGenerationForReading(in: self),
              let reader = generation.reader(for: store) else { return nil }
        return (reader, generation)
    }
}
