import Foundation

/// The kinds of request a coordinator executes (Apple's raw values).
public enum NSPersistentStoreRequestType: UInt, Sendable {
    /// A fetch: ``NSFetchRequest`` or ``NSAsynchronousFetchRequest``.
    case fetchRequestType = 1
    /// A save request. Kept for Apple's numbering; contexts save without a request object.
    case saveRequestType = 2
    /// A batch insert.
    ///
    /// - Note: Apple parity: batch requests (`NSBatchInsertRequest` and its siblings) are
    ///   not implemented; the case exists for Apple's numbering.
    case batchInsertRequestType = 5
    /// A batch update. Not implemented here (see ``batchInsertRequestType``).
    case batchUpdateRequestType = 6
    /// A batch delete. Not implemented here (see ``batchInsertRequestType``).
    case batchDeleteRequestType = 7
}

/// A request to the persistent stores of a coordinator.
///
/// ## Topics
/// - ``affectedStores``
/// - ``requestType``
/// - ``copy(with:)``
open class NSPersistentStoreRequest: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.
    /// The stores the request goes to; `nil` means every store of the coordinator.
    open var affectedStores: [NSPersistentStore]?
    /// The kind of request, which subclasses override.
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// A copy of the request going to the same stores; each kind of request copies what it
    /// adds (a fetch request its entity, predicate, sort order and options).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreRequest()
        copy.affectedStores = affectedStores
        return copy
    }
}
