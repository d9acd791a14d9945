import Foundation

/// The kinds of request a coordinator executes (Apple's raw values).
public enum NSPersistentStoreRequestType: UInt, Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}

/// A request to the persistent stores of a coordinator.
open class NSPersistentStoreRequest: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.
    /// The stores the request goes to; `nil` means every store of the coordinator.
    open var affectedStores: [NSPersistentStore]?
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }
}
