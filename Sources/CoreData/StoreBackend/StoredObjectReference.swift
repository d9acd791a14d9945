import Foundation

/// A value that names a stored object (a managed object in a predicate's constants): a store
/// compares it by key instead of by value.
protocol StoredObjectReference {
    /// The object's key in `backend`'s store, or nil when it is not saved there.
    func storeKey(in backend: StoreBackend) -> StoreKey?
    /// The inheritance root of the object's entity (keys are unique per root).
    var rootEntity: NSEntityDescription { get }
}
