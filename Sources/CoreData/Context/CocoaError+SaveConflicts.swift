import Foundation

extension CocoaError {
    /// The optimistic-locking conflicts of a failed save (code
    /// `CocoaError.managedObjectMerge`), read from ``NSPersistentStoreSaveConflictsErrorKey``.
    ///
    /// ```swift
    /// do { try context.save() } catch let error as CocoaError where error.code == .managedObjectMerge {
    ///     for conflict in error.persistentStoreSaveConflicts ?? [] { print(conflict.sourceObject) }
    /// }
    /// ```
    public var persistentStoreSaveConflicts: [NSMergeConflict]? {
        userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
    }
}
