import Foundation

/// Thrown by a backend that cannot evaluate a plan's predicate or sort itself: the
/// context then filters and sorts the objects in memory.
struct StoreFetchUnsupported: Error {}

/// An optimistic-locking failure: the row changed (or vanished) since the context read it.
struct StoreConflict: Error {
    let entity: NSEntityDescription
    let pk: Int64
    let storedVersion: Int64?
    let expectedVersion: Int64
}
