import Foundation

/// What an ``NSBatchInsertRequest`` returns in its ``NSBatchInsertResult`` (Apple's raw
/// values).
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// Whether the insert succeeded: `result` is `true` as an `NSNumber`.
    case statusOnly = 0
    /// The IDs of the objects written: `result` is `[NSManagedObjectID]`, in the order of
    /// the request's objects (an object that updated an existing one through a uniqueness
    /// constraint gives that object's ID).
    case objectIDs = 1
    /// How many objects were written: `result` is an `NSNumber`.
    case count = 2
}

/// The outcome of an ``NSBatchInsertRequest`` executed by
/// `NSManagedObjectContext.execute(_:)`.
///
/// ```swift
/// request.resultType = .objectIDs
/// let result = try context.execute(request) as! NSBatchInsertResult
/// let ids = result.result as! [NSManagedObjectID]
/// ```
///
/// ## Topics
/// - ``result``
/// - ``resultType``
open class NSBatchInsertResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable once made.
    private let value: Any?
    private let type: NSBatchInsertRequestResultType

    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        value = result
        type = resultType
        super.init()
    }

    /// The answer the request's ``resultType`` asked for.
    open var result: Any? { value }
    /// The kind of answer ``result`` holds.
    open var resultType: NSBatchInsertRequestResultType { type }
}
