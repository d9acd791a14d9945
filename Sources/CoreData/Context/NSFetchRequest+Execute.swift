import Foundation

extension NSFetchRequest {
    /// Runs the request in the context of the current `perform` block.
    ///
    /// - Note: Apple parity: Apple finds the context from the calling queue; we use the
    ///   context whose `perform`/`performAndWait` block is running on this thread.
    public func execute() throws -> [ResultType] {
        guard let context = NSManagedObjectContext.current else {
            throw CoreDataError.make(NSCoreDataError, "execute() was called outside a managed object context's perform block.")
        }
        return try context.fetch(self)
    }

}
