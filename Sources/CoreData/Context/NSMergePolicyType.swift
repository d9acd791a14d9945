import Foundation

/// The built-in ways a merge policy settles what a save finds in conflict (Apple's raw
/// values). ``NSMergePolicy/init(merge:)`` takes one; ``NSMergePolicy/mergeType`` reports it.
///
/// An optimistic-locking conflict is an object this context changed or deleted whose row
/// another context, coordinator or process saved since this context read it. A uniqueness
/// conflict is an object whose constraint values another object already holds. Each case
/// says what it does with both.
///
/// ```swift
/// let policy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
/// context.mergePolicy = policy
/// ```
public enum NSMergePolicyType: UInt, Sendable {
    /// Resolve nothing: the save throws `NSManagedObjectMergeError` (optimistic locking) or
    /// `NSManagedObjectConstraintMergeError` (uniqueness), with the conflicts under
    /// `NSPersistentStoreSaveConflictsErrorKey`. The default policy.
    case errorMergePolicyType = 0x00
    /// Optimistic locking, per property: a property that changed in the store since the
    /// context read it takes the store's value; the context's other changes are saved.
    /// Uniqueness: one object survives among duplicates (the one already in the store, else
    /// the first); it keeps its values and takes from the others only the values (and to-one
    /// destinations) it lacks; the others' to-many members join it.
    case mergeByPropertyStoreTrumpMergePolicyType = 0x01
    /// Optimistic locking, per property: the context's changed properties are saved over
    /// the store's; the properties the context did not change take the store's values.
    /// Uniqueness: one object survives among duplicates (the one already in the store, else
    /// the first); it takes the values the others changed (every value of a new one), and
    /// their related objects.
    case mergeByPropertyObjectTrumpMergePolicyType = 0x02
    /// Optimistic locking: the object as the context holds it, every property, replaces
    /// the store's row. Uniqueness: as ``mergeByPropertyObjectTrumpMergePolicyType``, but
    /// the survivor takes every non-nil value of the others, changed or not.
    case overwriteMergePolicyType = 0x03
    /// Optimistic locking: the context's changes to the objects in conflict (and their
    /// deletion) are discarded; they take the store's values. Uniqueness: one object
    /// survives among duplicates (the one already in the store, else the first) with its
    /// own values and relationships; the others are dropped with their changes.
    case rollbackMergePolicyType = 0x04
}
