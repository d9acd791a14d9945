import Foundation

/// Thrown by a backend that cannot evaluate a plan's predicate or sort itself: the
/// context then filters and sorts the objects in memory.
struct StoreFetchUnsupported: Error {}

/// An optimistic-locking failure: rows changed (or vanished) since the context read them.
/// A store checks every update and delete of a save before giving up, so that the saving
/// context learns about all its conflicts at once; nothing of the save is written.
struct StoreConflict: Error {
    /// One row whose `Z_OPT` was not the version the saving context read.
    struct Row {
        let entity: NSEntityDescription
        let pk: Int64
        /// The version in the store, or nil when the row is gone.
        let storedVersion: Int64?
        let expectedVersion: Int64
    }

    let rows: [Row]

    init(rows: [Row]) {
        self.rows = rows
    }

    /// A conflict on one row.
    init(entity: NSEntityDescription, pk: Int64, storedVersion: Int64?, expectedVersion: Int64) {
        rows = [Row(entity: entity, pk: pk, storedVersion: storedVersion, expectedVersion: expectedVersion)]
    }
}
