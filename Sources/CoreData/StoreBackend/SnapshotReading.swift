import Foundation

/// A store that can hold one snapshot of its data open for reading while others write: the
/// SQLite store in WAL mode, through a read transaction kept open. Query generations
/// (`NSQueryGenerationToken`) are made of these.
protocol SnapshotReading: AnyObject {
    /// A read-only backend answering every read as of now, until it is released; nil when
    /// the store cannot keep a snapshot (a store in memory, or not in WAL mode).
    func openSnapshot() throws -> StoreBackend?
}
