import Foundation

/// Deletes every object a fetch request selects (or the objects of a list of IDs) in the
/// store, without loading them, applying the model's delete rules.
///
/// ```swift
/// let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
/// fetch.predicate = NSPredicate(format: "done == YES")
/// let request = NSBatchDeleteRequest(fetchRequest: fetch)
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as! NSBatchDeleteResult
/// let ids = result.result as! [NSManagedObjectID]
/// NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [context])
/// ```
///
/// Delete rules: a cascade relationship's destinations are deleted too; a nullify rule
/// clears the inverse to-one of the objects left (their version goes up) or removes the
/// deleted objects from to-many inverses; a deny rule whose relationship still holds
/// objects that are not deleted fails the whole request, as does clearing a mandatory
/// to-one inverse (`NSPersistentStoreSaveError`, with the reason under
/// `NSLocalizedFailureReasonErrorKey`). The fetch request's predicate, sort descriptors,
/// offset and limit select the objects. Contexts keep the deleted objects until they
/// merge the result's object IDs (or refresh).
///
/// - Note: Apple parity: Apple's batch requests need a SQLite store; here an in-memory
///   store runs them too. IDs of objects of different entities, or of unsaved objects,
///   throw `NSCoreDataError` when the request runs; an unknown entity throws
///   `NSCoreDataError`.
///
/// ## Topics
/// ### Creating a request
/// - ``init(fetchRequest:)``
/// - ``init(objectIDs:)``
/// ### What to delete
/// - ``fetchRequest``
/// ### The answer
/// - ``resultType``
open class NSBatchDeleteRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.

    /// The fetch that selects the objects to delete (for a request made from IDs: the
    /// entity of the first ID, with `self IN` the IDs).
    public let fetchRequest: NSFetchRequest<NSFetchRequestResult>
    /// What the ``NSBatchDeleteResult`` carries: `.resultTypeStatusOnly` by default.
    open var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly
    /// The IDs the request was made from, if it was.
    let objectIDs: [NSManagedObjectID]?

    /// Always ``NSPersistentStoreRequestType/batchDeleteRequestType``.
    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }

    /// A request deleting the objects `fetch` selects.
    public init(fetchRequest fetch: NSFetchRequest<NSFetchRequestResult>) {
        fetchRequest = fetch
        objectIDs = nil
        super.init()
    }

    /// A request deleting the objects with these IDs, all of one entity.
    public init(objectIDs objects: [NSManagedObjectID]) {
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: objects.first?.entity.name ?? "")
        if let entity = objects.first?.entity { fetch.entity = entity }
        fetch.predicate = NSPredicate(format: "self IN %@", argumentArray: [objects])
        fetchRequest = fetch
        objectIDs = objects
        super.init()
    }

    /// A copy deleting the same objects (a copy of the fetch request), with the same result
    /// type and stores.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = objectIDs.map { NSBatchDeleteRequest(objectIDs: $0) }
            ?? NSBatchDeleteRequest(fetchRequest: fetchRequest.copy() as? NSFetchRequest<NSFetchRequestResult> ?? fetchRequest)
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }
}
