import Foundation

/// A fetch request as a fetched results controller reads it, whatever its result type:
/// the controller's engine is not generic, and reads the request live (an app may change
/// its predicate or sort between fetches, after deleting the cache).
protocol FetchedResultsRequest: AnyObject {
    var predicate: NSPredicate? { get }
    var sortDescriptors: [NSSortDescriptor]? { get }
    var includesSubentities: Bool { get }
    var resultType: NSFetchRequestResultType { get }
    var entityName: String? { get }
    /// The request's entity in the context's model.
    func entity(in context: NSManagedObjectContext) throws -> NSEntityDescription
    /// Runs the request in the context, as managed objects.
    func managedObjects(in context: NSManagedObjectContext) throws -> [NSManagedObject]
    /// The same request, as the delegate's type-erased controller shows it.
    func erased() -> NSFetchRequest<NSFetchRequestResult>
}

extension NSFetchRequest: FetchedResultsRequest {
    func entity(in context: NSManagedObjectContext) throws -> NSEntityDescription {
        try context.resolveEntity(self)
    }

    func managedObjects(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        try context.fetch(self).map { $0 as! NSManagedObject }
    }

    func erased() -> NSFetchRequest<NSFetchRequestResult> {
        if let same = self as? NSFetchRequest<NSFetchRequestResult> { return same }
        return copy(as: NSFetchRequestResult.self)
    }
}
