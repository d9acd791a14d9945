import Foundation

/// The built-in ways a merge policy settles what a save finds in conflict (Apple's raw
/// values). ``NSMergePolicy/init(merge:)`` takes one; ``NSMergePolicy/mergeType`` reports it.
///
/// An optimistic-locking conflict is an object this context changed or deleted whose row
/// another context, coordinator or process saved since this context read it. A uniqueness
/// conflict is an object whose constraint values another object already holds.
///
/// ```swift
/// let policy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
/// context.mergePolicy = policy
/// ```
public enum NSMergePolicyType: UInt, Sendable {
    /// The save fails: `NSManagedObjectMergeError` (optimistic locking) or
    /// `NSManagedObjectConstraintMergeError` (uniqueness), with the conflicts under
    /// `NSPersistentStoreSaveConflictsErrorKey`. The default policy.
    case errorMergePolicyType = 0x00
    /// Per property: a property that changed in the store since the context read it takes
    /// the store's value; the context's other changes are saved.
    case mergeByPropertyStoreTrumpMergePolicyType = 0x01
    /// Per property: the context's changed properties are saved over the store's; the
    /// properties the context did not change take the store's values.
    case mergeByPropertyObjectTrumpMergePolicyType = 0x02
    /// The object as the context holds it, every property, replaces the store's row.
    case overwriteMergePolicyType = 0x03
    /// The context's changes to the objects in conflict are discarded; they take the
    /// store's values.
    case rollbackMergePolicyType = 0x04
}
