import Foundation

/// The kinds of request a coordinator executes (Apple's raw values).
public enum NSPersistentStoreRequestType: UInt, Sendable {
    /// A fetch: ``NSFetchRequest`` or ``NSAsynchronousFetchRequest``.
    case fetchRequestType = 1
    /// A save request. Kept for Apple's numbering; contexts save without a request object.
    case saveRequestType = 2
    /// A batch insert (`NSBatchInsertRequest`).
    case batchInsertRequestType = 5
    /// A batch update (`NSBatchUpdateRequest`).
    case batchUpdateRequestType = 6
    /// A batch delete (`NSBatchDeleteRequest`).
    case batchDeleteRequestType = 7
}

/// A request to the persistent stores of a coordinator.
open class NSPersistentStoreRequest: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.
    /// The stores the request goes to; `nil` means every store of the coordinator.
    open var affectedStores: [NSPersistentStore]?
    /// The kind of request, which subclasses override.
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }
}
