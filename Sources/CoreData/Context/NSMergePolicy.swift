import Foundation

/// How a save resolves conflicts between the context's changes and the store.
///
/// ## Topics
/// - ``error``
/// - ``rollback``
/// - ``overwrite``
/// - ``mergeByPropertyStoreTrump``
/// - ``mergeByPropertyObjectTrump``
open class NSMergePolicy: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    /// The kinds of policy (Apple's raw values).
    public enum MergePolicyType: UInt, Sendable {
        case errorMergePolicyType = 0
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        case overwriteMergePolicyType = 3
        case rollbackMergePolicyType = 4
    }

    public let mergeType: MergePolicyType

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

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
}

public let NSErrorMergePolicy: NSMergePolicy = NSMergePolicy.error
public let NSRollbackMergePolicy: NSMergePolicy = NSMergePolicy.rollback
public let NSOverwriteMergePolicy: NSMergePolicy = NSMergePolicy.overwrite
public let NSMergeByPropertyStoreTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
public let NSMergeByPropertyObjectTrumpMergePolicy: NSMergePolicy = NSMergePolicy.mergeByPropertyObjectTrump

/// One optimistic-locking conflict found by a save: the object changed in the store
/// since this context read it.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after creation.
    public let sourceObject: NSManagedObject
    public let objectSnapshot: [String: Any]?
    public let cachedSnapshot: [String: Any]?
    public let persistedSnapshot: [String: Any]?
    public let newVersionNumber: Int
    public let oldVersionNumber: Int

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
