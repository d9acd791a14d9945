import Foundation

/// What ``NSFetchedResultsController`` of any result type has: its shared core.
protocol FetchedResultsCoreHolder: AnyObject {
    var core: FetchedResultsCore { get }
}
