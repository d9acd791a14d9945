import Foundation

/// A uniqueness-constraint violation found by a save: objects being saved share the
/// values of a constraint with each other (`databaseObject` nil) or with a row already in
/// the store (`databaseObject` is that row's object).
///
/// Thrown inside `NSManagedObjectConstraintMergeError` (under
/// `NSPersistentStoreSaveConflictsErrorKey`) unless the context's merge policy resolves it.
open class NSConstraintConflict: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after creation.
    /// The names of the constraint's properties.
    public let constraint: [String]
    /// The constraint's values that the objects share.
    public let constraintValues: [String: Any]
    /// The object of the store row that already holds the values, if any.
    public let databaseObject: NSManagedObject?
    /// The store row's values, if any.
    public let databaseSnapshot: [String: Any]?
    /// The objects being saved that violate the constraint.
    public let conflictingObjects: [NSManagedObject]
    /// The committed values of each conflicting object (empty for inserted ones).
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// Creates a conflict record (saves create them; a custom merge policy or a test may
    /// too). ``constraintValues`` are read from the first conflicting object.
    ///
    /// - Parameters:
    ///   - contraint: The names of the constraint's properties (Apple's spelling of the
    ///     parameter).
    ///   - databaseObject: The object of the store row that already holds the values, or nil
    ///     when the conflicting objects only clash with each other.
    ///   - databaseSnapshot: That row's values by property name, or nil.
    ///   - conflictingObjects: The objects being saved that share the values.
    ///   - conflictingSnapshots: One dictionary of committed values per conflicting object;
    ///     elements that are not dictionaries become empty ones.
    public init(constraint contraint: [String], databaseObject: NSManagedObject?,
                databaseSnapshot: [AnyHashable: Any]?, conflictingObjects: [NSManagedObject],
                conflictingSnapshots: [Any]) {
        self.constraint = contraint
        self.databaseObject = databaseObject
        var snapshot: [String: Any]?
        if let databaseSnapshot {
            snapshot = [:]
            for (key, value) in databaseSnapshot { snapshot?["\(key)"] = value }
        }
        self.databaseSnapshot = snapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.map { $0 as? [AnyHashable: Any] ?? [:] }
        var values: [String: Any] = [:]
        if let first = conflictingObjects.first {
            for key in contraint { values[key] = first.value(forKey: key) ?? NSNull() }
        }
        self.constraintValues = values
        super.init()
    }
}
