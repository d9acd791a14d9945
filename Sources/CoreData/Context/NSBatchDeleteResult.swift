import Foundation

/// What an ``NSBatchDeleteRequest`` returns in its ``NSBatchDeleteResult`` (Apple's raw
/// values).
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// Whether the delete succeeded: `result` is `true` as an `NSNumber`.
    case resultTypeStatusOnly = 0
    /// The IDs of the objects the request selected and deleted: `result` is
    /// `[NSManagedObjectID]` (objects deleted by a cascade rule are not listed).
    case resultTypeObjectIDs = 1
    /// How many objects the request selected and deleted: `result` is an `NSNumber`.
    case resultTypeCount = 2
}

/// The outcome of an ``NSBatchDeleteRequest`` executed by
/// `NSManagedObjectContext.execute(_:)`.
///
/// ```swift
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as! NSBatchDeleteResult
/// let ids = result.result as! [NSManagedObjectID]
/// ```
///
/// ## Topics
/// - ``result``
/// - ``resultType``
open class NSBatchDeleteResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable once made.
    private let value: Any?
    private let type: NSBatchDeleteRequestResultType

    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        value = result
        type = resultType
        super.init()
    }

    /// The answer the request's ``resultType`` asked for.
    open var result: Any? { value }
    /// The kind of answer ``result`` holds.
    open var resultType: NSBatchDeleteRequestResultType { type }
}
