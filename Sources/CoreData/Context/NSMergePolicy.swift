import Foundation

/// How a save resolves conflicts between the context's changes and the store.
///
/// Set one on the context that saves to the store (a root context); the default,
/// ``error``, makes the save throw instead of resolving anything.
///
/// ```swift
/// context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
/// try context.save()   // duplicates of a uniqueness constraint merge into one object
/// ```
///
/// - Note: Apple parity: policies resolve uniqueness-constraint conflicts only.
///   Optimistic-locking conflicts (a row changed in the store since the context read it)
///   always fail the save with `NSManagedObjectMergeError`, whatever the policy, and
///   `resolve(optimisticLockingConflicts:)` and `resolve(mergeConflicts:)` do not exist yet.
///   A child context's policy is never consulted: its save replaces the parent's values.
///
/// ## Topics
/// ### Built-in policies
/// - ``error``
/// - ``rollback``
/// - ``overwrite``
/// - ``mergeByPropertyStoreTrump``
/// - ``mergeByPropertyObjectTrump``
/// ### Custom policies
/// - ``init(merge:)``
/// - ``mergeType``
/// - ``MergePolicyType``
/// - ``resolve(constraintConflicts:)``
open class NSMergePolicy: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    /// The kinds of policy (Apple's raw values).
    ///
    /// - Note: Apple parity: Apple declares this enum at the top level as
    ///   `NSMergePolicyType`; here it is nested, so code naming the type `NSMergePolicyType`
    ///   does not compile yet (the cases read the same: `NSMergePolicy(merge: .overwriteMergePolicyType)`).
    public enum MergePolicyType: UInt, Sendable {
        /// Resolve nothing: the save throws `NSManagedObjectConstraintMergeError` with the
        /// conflicts under `NSPersistentStoreSaveConflictsErrorKey`.
        case errorMergePolicyType = 0
        /// One object survives among duplicates (the one already in the store, else the
        /// first); it keeps its values and takes from the others only the values (and to-one
        /// destinations) it lacks; the others' to-many members join it.
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        /// One object survives among duplicates (the one already in the store, else the
        /// first); it takes the values the others changed (every value of a new one), so
        /// theirs win, and their related objects.
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        /// As ``mergeByPropertyObjectTrumpMergePolicyType``, but the survivor takes every
        /// non-nil value of the others, changed or not.
        case overwriteMergePolicyType = 3
        /// One object survives among duplicates (the one already in the store, else the
        /// first) with its own values and relationships; the others are dropped with their
        /// changes.
        case rollbackMergePolicyType = 4
    }

    /// Which built-in behaviour this policy applies (``MergePolicyType``).
    public let mergeType: MergePolicyType

    /// Creates a policy of one of the built-in kinds. Subclass `NSMergePolicy` and override
    /// ``resolve(constraintConflicts:)`` to decide yourself, calling `super` for the kind's
    /// own resolution.
    ///
    /// ```swift
    /// final class LoggingMergePolicy: NSMergePolicy, @unchecked Sendable {
    ///     override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
    ///         print("resolving \(list.count) conflicts")
    ///         try super.resolve(constraintConflicts: list)
    ///     }
    /// }
    /// context.mergePolicy = LoggingMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// ```
    ///
    /// - Parameter type: The built-in resolution the policy applies.
    public init(merge type: MergePolicyType) {
        self.mergeType = type
        super.init()
    }

    /// Resolves uniqueness conflicts found by a save: `error` throws
    /// `NSManagedObjectConstraintMergeError`; the others keep one object per constraint
    /// value (see `resolveConstraintConflicts(_:)`). Subclasses override to decide
    /// themselves.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        try resolveConstraintConflicts(list)
    }

    /// The shared policy that resolves nothing: a save with conflicts throws (a context's
    /// default). See ``MergePolicyType/errorMergePolicyType``.
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// The shared policy that keeps what the store has and drops the conflicting changes.
    /// See ``MergePolicyType/rollbackMergePolicyType``.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
    /// The shared policy that lets the values being saved replace the store's, all of them.
    /// See ``MergePolicyType/overwriteMergePolicyType``.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// The shared policy that merges property by property, the store's values winning.
    /// See ``MergePolicyType/mergeByPropertyStoreTrumpMergePolicyType``.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// The shared policy that merges property by property, the changed values being saved
    /// winning. See ``MergePolicyType/mergeByPropertyObjectTrumpMergePolicyType``.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
}

/// ``NSMergePolicy/error``, under its Objective-C name: conflicts make the save throw. The
/// default ``NSManagedObjectContext/mergePolicy``.
///
/// - Note: Apple parity: Apple declares the five global policies as `Any` variables; here
///   they are `NSMergePolicy` constants, which assign to `mergePolicy` the same way.
public let NSErrorMergePolicy: NSMergePolicy = NSMergePolicy.error
/// ``NSMergePolicy/rollback``, under its Objective-C name: the store's values win and the
/// conflicting changes are dropped.
public let NSRollbackMergePolicy: NSMergePolicy = NSMergePolicy.rollback
/// ``NSMergePolicy/overwrite``, under its Objective-C name: the values being saved replace
/// the store's.
public let NSOverwriteMergePolicy: NSMergePolicy = NSMergePolicy.overwrite
/// ``NSMergePolicy/mergeByPropertyStoreTrump``, under its Objective-C name: merged property
/// by property, the store's values winning.
public let NSMergeByPropertyStoreTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
/// ``NSMergePolicy/mergeByPropertyObjectTrump``, under its Objective-C name: merged property
/// by property, the changed values being saved winning.
///
/// ```swift
/// container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
/// ```
public let NSMergeByPropertyObjectTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyObjectTrump

/// One optimistic-locking conflict found by a save: the object changed in the store
/// since this context read it.
///
/// A failed save lists them in its `NSManagedObjectMergeError` under
/// `NSPersistentStoreSaveConflictsErrorKey` (`CocoaError.persistentStoreSaveConflicts`
/// reads them).
///
/// - Note: Apple parity: a save reports at most one conflict (the first the store found),
///   with nil ``cachedSnapshot`` and ``persistedSnapshot``, and no merge policy resolves it.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after creation.
    /// The object whose save met the conflict.
    public let sourceObject: NSManagedObject
    /// The source object's unsaved changes (`changedValues()`) when the conflict was
    /// created; nil when the object was a fault.
    public let objectSnapshot: [String: Any]?
    /// The object's values as the coordinator had cached them; nil in the conflicts a save
    /// reports here.
    public let cachedSnapshot: [String: Any]?
    /// The object's values as they are now in the store; nil in the conflicts a save
    /// reports here.
    public let persistedSnapshot: [String: Any]?
    /// The row's version in the store now (`Z_OPT` in a SQLite store); 0 when another save
    /// deleted the row.
    public let newVersionNumber: Int
    /// The row's version the context read, which the save expected to find.
    public let oldVersionNumber: Int

    /// Creates a conflict record for an object (saves create them; custom stores and
    /// tests may too).
    ///
    /// - Parameters:
    ///   - srcObject: The object whose save met the conflict; its current unsaved changes
    ///     become ``objectSnapshot``.
    ///   - newvers: The row's version in the store now, 0 if it was deleted.
    ///   - oldvers: The version the context expected.
    ///   - cachesnap: The coordinator's cached values, if known.
    ///   - persnap: The store's current values, if known.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
                cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) {
        sourceObject = srcObject
        objectSnapshot = srcObject.isFault ? nil : srcObject.changedValues()
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        super.init()
    }
}
