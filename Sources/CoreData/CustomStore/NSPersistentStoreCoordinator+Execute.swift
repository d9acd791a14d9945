import Foundation

// MARK: - Executing requests against a context

extension NSPersistentStoreCoordinator {
    /// Runs a request for `context` against this coordinator's stores.
    ///
    /// - a fetch request: its results, registered in `context` (objects, IDs, dictionaries
    ///   or a count, as the request's `resultType` asks), as `context.fetch(_:)` returns them;
    /// - an ``NSSaveChangesRequest``: `context`'s pending changes are saved; the answer is an
    ///   empty array;
    /// - an asynchronous fetch request: its ``NSAsynchronousFetchResult``.
    ///
    /// ```swift
    /// let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
    /// let items = try coordinator.execute(request, with: context) as! [NSManagedObject]
    /// ```
    ///
    /// - Throws: `NSPersistentStoreUnsupportedRequestTypeError` for another kind of request or
    ///   a context of another coordinator; the fetch's or save's errors.
    ///
    /// - Note: Apple parity: declared in an extension, so not overridable. A save request
    ///   saves the whole context (Apple hands the request's objects to each store); build it
    ///   from the context's `insertedObjects`, `updatedObjects` and `deletedObjects`.
    public func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> Any {
        guard context.persistentStoreCoordinator === self else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "The context of execute(_:with:) uses another persistent store coordinator.")
        }
        switch request {
        case let fetch as any ErasedFetchRequest:
            return try fetch.results(in: context)
        case is NSSaveChangesRequest:
            try context.save()
            return [Any]()
        default:
            do {
                return try context.execute(request)
            } catch {
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                    "The coordinator cannot execute a \(type(of: request)).")
            }
        }
    }
}

