import Foundation

/// What an ``NSBatchUpdateRequest`` returns in its ``NSBatchUpdateResult`` (Apple's raw
/// values).
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// Whether the update succeeded: `result` is `true` as an `NSNumber`.
    case statusOnlyResultType = 0
    /// The IDs of the objects updated: `result` is `[NSManagedObjectID]`.
    case updatedObjectIDsResultType = 1
    /// How many objects were updated: `result` is an `NSNumber`.
    case updatedObjectsCountResultType = 2
}

/// The outcome of an ``NSBatchUpdateRequest`` executed by
/// `NSManagedObjectContext.execute(_:)`.
///
/// ```swift
/// request.resultType = .updatedObjectIDsResultType
/// let result = try context.execute(request) as! NSBatchUpdateResult
/// let ids = result.result as! [NSManagedObjectID]
/// ```
///
/// ## Topics
/// - ``result``
/// - ``resultType``
open class NSBatchUpdateResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable once made.
    private let value: Any?
    private let type: NSBatchUpdateRequestResultType

    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        value = result
        type = resultType
        super.init()
    }

    /// The answer the request's ``resultType`` asked for.
    open var result: Any? { value }
    /// The kind of answer ``result`` holds.
    open var resultType: NSBatchUpdateRequestResultType { type }
}
