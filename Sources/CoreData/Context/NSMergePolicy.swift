import Foundation

/// Settles the conflicts a save finds, as its ``mergeType`` says, or as a subclass decides.
///
/// A save that finds conflicts hands them to the context's policy
/// (``resolve(mergeConflicts:)``) and then tries again; the policy either changes the
/// objects in conflict so that the next attempt succeeds, or throws, and the save throws
/// that error. Uniqueness conflicts are checked before each attempt is written;
/// optimistic-locking conflicts are found by the store as it writes (its `Z_OPT` check),
/// whoever saved first: another context on the same coordinator, another coordinator, or
/// another process using the same store file.
///
/// ```swift
/// final class KeepMyNames: NSMergePolicy {
///     init() { super.init(merge: .mergeByPropertyStoreTrumpMergePolicyType) }
///     override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
///         try super.resolve(optimisticLockingConflicts: list)
///         for conflict in list { conflict.sourceObject.setValue("mine", forKey: "name") }
///     }
/// }
/// context.mergePolicy = KeepMyNames()
/// ```
///
/// Set a policy on the context that saves to the store (a root context); the default,
/// ``error``, makes the save throw instead of resolving anything.
///
/// ```swift
/// context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
/// try context.save()   // duplicates of a uniqueness constraint merge into one object
/// ```
///
/// - Note: Apple parity: a child context's policy is never consulted: its save replaces
///   the parent's values.
///
/// ## Topics
/// ### Built-in policies
/// - ``error``
/// - ``rollback``
/// - ``overwrite``
/// - ``mergeByPropertyStoreTrump``
/// - ``mergeByPropertyObjectTrump``
/// ### Making a policy
/// - ``init(merge:)``
/// - ``mergeType``
/// ### Resolving
/// - ``resolve(mergeConflicts:)``
/// - ``resolve(optimisticLockingConflicts:)``
/// - ``resolve(constraintConflicts:)``
open class NSMergePolicy: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    private let type: NSMergePolicyType

    /// The kind of built-in resolution this policy performs (a subclass passes it to
    /// ``init(merge:)``).
    open var mergeType: NSMergePolicyType { type }

    /// Creates a policy of one of the built-in kinds. Subclass `NSMergePolicy` and override
    /// ``resolve(optimisticLockingConflicts:)`` or ``resolve(constraintConflicts:)`` to
    /// decide yourself, calling `super` for the kind's own resolution.
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
    /// - Parameter ty: The built-in resolution the policy applies.
    public init(merge ty: NSMergePolicyType) {
        self.type = ty
        super.init()
    }

    // MARK: - Resolving

    /// Resolves the conflicts a save found: the ``NSMergeConflict``s (optimistic locking)
    /// through ``resolve(optimisticLockingConflicts:)``, then the ``NSConstraintConflict``s
    /// through ``resolve(constraintConflicts:)``; each is called only when the list holds
    /// conflicts of its kind. The save calls this method, then writes again.
    ///
    /// - Throws: What the two methods throw; the save then fails with that error.
    open func resolve(mergeConflicts list: [Any]) throws {
        let locking = list.compactMap { $0 as? NSMergeConflict }
        let constraints = list.compactMap { $0 as? NSConstraintConflict }
        if !locking.isEmpty { try resolve(optimisticLockingConflicts: locking) }
        if !constraints.isEmpty { try resolve(constraintConflicts: constraints) }
    }

    /// Resolves optimistic-locking conflicts: objects the context changed or deleted whose
    /// rows were saved by someone else since the context read them. ``mergeType`` decides:
    ///
    /// - `errorMergePolicyType` throws `NSManagedObjectMergeError` with the conflicts under
    ///   `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`).
    /// - `mergeByPropertyStoreTrumpMergePolicyType`: each attribute and to-one relationship
    ///   changed in the store takes the store's value; the object's other changes stay.
    /// - `mergeByPropertyObjectTrumpMergePolicyType`: each attribute and to-one relationship
    ///   the object changed keeps the object's value; the others take the store's.
    /// - `overwriteMergePolicyType`: every attribute and to-one relationship keeps the
    ///   object's value, so the whole object is written over the store's row.
    /// - `rollbackMergePolicyType`: the object's changes (or its deletion) are discarded;
    ///   it takes the store's values and is not written.
    ///
    /// Under the merging policies (store trump, object trump, overwrite) to-many
    /// relationships merge member by member: the members the object added or removed are
    /// added or removed, and the members others added or removed in the store stay so.
    /// An object deleted in the context stays deleted (the delete rules also run for the
    /// objects the store now relates to it); an object whose row is gone from the store
    /// leaves the context as deleted under every policy but `error`. The object's
    /// snapshot then is the store's latest version, so the save's next attempt writes over
    /// that version (`Z_OPT` goes one past it).
    ///
    /// - Note: Apple parity: Apple does not document its per-property rules for to-many
    ///   relationships or for rows deleted in the store; the rules above are ours.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        try resolveOptimisticLockingConflicts(list)
    }

    /// Resolves uniqueness conflicts found by a save: `error` throws
    /// `NSManagedObjectConstraintMergeError`; the others keep one object per constraint
    /// value (see `resolveConstraintConflicts(_:)`). Subclasses override to decide
    /// themselves.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        try resolveConstraintConflicts(list)
    }

    // MARK: - The built-in policies

    /// Saves fail on conflicts (`NSManagedObjectMergeError`, or
    /// `NSManagedObjectConstraintMergeError`); the default policy of every context.
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// The context's changes to objects in conflict are discarded in favour of the store.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
    /// The context's objects in conflict are written whole over the store's rows.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// Per property, with the store's changes winning over the context's.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// Per property, with the context's changes winning over the store's.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
}

/// ``NSMergePolicy/error``, under its Objective-C name: conflicts make the save throw. The
/// default ``NSManagedObjectContext/mergePolicy``.
///
/// Typed `Any`, as Apple declares the five global policies; assign it to `mergePolicy`, or
/// cast it (`NSErrorMergePolicy as! NSMergePolicy`) to reach the policy's methods.
///
/// - Note: Apple parity: Apple's five globals are settable; here they are read-only.
public var NSErrorMergePolicy: Any { NSMergePolicy.error }
/// The rollback policy, ``NSMergePolicy/rollback``.
public var NSRollbackMergePolicy: Any { NSMergePolicy.rollback }
/// The overwrite policy, ``NSMergePolicy/overwrite``.
public var NSOverwriteMergePolicy: Any { NSMergePolicy.overwrite }
/// The store-trump per-property policy, ``NSMergePolicy/mergeByPropertyStoreTrump``.
public var NSMergeByPropertyStoreTrumpMergePolicy: Any { NSMergePolicy.mergeByPropertyStoreTrump }
/// The object-trump per-property policy, ``NSMergePolicy/mergeByPropertyObjectTrump``.
///
/// ```swift
/// container.viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
/// ```
public var NSMergeByPropertyObjectTrumpMergePolicy: Any { NSMergePolicy.mergeByPropertyObjectTrump }
