import Foundation

/// A request that `NSManagedObjectContext.execute(_:)` hands to the request itself: kinds
/// declared in layers above the context (persistent history requests) run this way.
protocol ContextExecutableRequest {
    /// Runs the request for `context`, on the caller's thread.
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}
