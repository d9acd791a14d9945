import Foundation

// MARK: - Running NSFetchRequestExpression

extension NSManagedObjectContext: FetchExpressionRunning {
    /// Runs the fetch request of an ``NSFetchRequestExpression`` in this context: its results
    /// as an array, or their count as an `NSNumber`.
    func runFetchExpression(_ request: Any?, countOnly: Bool) throws -> Any {
        guard let request = request as? any ErasedFetchRequest else {
            throw CoreDataError.make(NSCoreDataError,
                "A fetch request expression's request expression must evaluate to an NSFetchRequest, not \(String(describing: request)).")
        }
        if countOnly { return NSNumber(value: try request.count(in: self)) }
        return try request.results(in: self)
    }
}

/// An `NSFetchRequest` of any result type, run by a context into an untyped array or a
/// count.
protocol ErasedFetchRequest {
    func results(in context: NSManagedObjectContext) throws -> [Any]
    func count(in context: NSManagedObjectContext) throws -> Int
}

extension NSFetchRequest: ErasedFetchRequest {
    func results(in context: NSManagedObjectContext) throws -> [Any] {
        try context.fetch(self).map { $0 as Any }
    }

    func count(in context: NSManagedObjectContext) throws -> Int {
        try context.count(for: self)
    }
}
