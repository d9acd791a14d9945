import Foundation

// MARK: - Resolving optimistic-locking conflicts

extension NSMergePolicy {
    /// The built-in resolution of optimistic-locking conflicts (documented on
    /// ``resolve(optimisticLockingConflicts:)``): the error policy throws
    /// `NSManagedObjectMergeError` with the conflicts under
    /// `NSPersistentStoreSaveConflictsErrorKey`; the others change each object in conflict
    /// in its context, against the store's latest row.
    func resolveOptimisticLockingConflicts(_ list: [NSMergeConflict]) throws {
        guard !list.isEmpty else { return }
        guard mergeType != .errorMergePolicyType else {
            throw NSManagedObjectContext.optimisticLockingError(list)
        }
        for conflict in list {
            guard let context = conflict.sourceObject.managedObjectContext else { continue }
            try context.resolveLockingConflict(of: conflict.sourceObject, as: mergeType)
        }
    }
}
