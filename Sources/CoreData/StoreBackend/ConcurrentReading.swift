import Foundation

/// A store whose reads can run without the coordinator's lock, each on a reader of its own:
/// the SQLite store in WAL mode, whose readers are extra read-only connections to the same
/// file (SQLite lets any number of them read while one connection writes;
/// <https://www.sqlite.org/wal.html#concurrency>).
///
/// The coordinator checks a reader out and back in with its lock held, and uses it in
/// between without the lock, from one thread at a time. A reader sees the store as last
/// committed when each of its statements starts; it never sees the store's uncommitted
/// writes, so the coordinator does not hand one out while the store is inside a write.
protocol ConcurrentReading: AnyObject {
    /// A reader for one thread's use, or nil when none can be had now (a store in memory,
    /// not in WAL mode, inside a write transaction, or with every reader of the pool out):
    /// the caller then reads the store itself under the lock. Call with the lock held.
    func checkOutReader() -> StoreBackend?
    /// Gives back a reader from ``checkOutReader()`` (kept for the next read, or closed when
    /// the store closed meanwhile). Call with the lock held.
    func checkInReader(_ reader: StoreBackend)
}
