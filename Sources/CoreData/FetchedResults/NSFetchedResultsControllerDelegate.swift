import Foundation

/// What a fetched results controller tells about changes to its results, once
/// ``NSFetchedResultsController/performFetch()`` has run and a delegate is set.
///
/// Every method is optional: the protocol's extension implements each one, so a delegate
/// writes only those it needs. A controller picks one way of reporting each change, the
/// first its delegate implements:
///
/// 1. `controller(_:didChangeContentWith:)` taking a snapshot: the whole new content as
///    an ``NSDiffableDataSourceSnapshotReference`` (also sent once after `performFetch()`);
/// 2. `controller(_:didChangeContentWith:)` taking a `CollectionDifference`: the
///    difference in object IDs, for a controller without sections;
/// 3. otherwise ``controllerWillChangeContent(_:)``, then each section change and each
///    object change, then ``controllerDidChangeContent(_:)``.
///
/// ```swift
/// final class BooksList: NSObject, NSFetchedResultsControllerDelegate {
///     func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
///                     didChange anObject: Any, at indexPath: IndexPath?,
///                     for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
///         print(type, indexPath as Any, newIndexPath as Any)
///     }
/// }
/// ```
///
/// - Note: Apple parity: the controller handed to these methods is typed
///   `NSFetchedResultsController<NSFetchRequestResult>`, as Apple declares it. Swift
///   generics are not erased as Objective-C's are, so for a controller of another result
///   type it is a second view of the same controller: it reads the same results, and `==`
///   (not `===`) finds it equal to yours.
///
/// ## Topics
/// ### Changes one by one
/// - ``controllerWillChangeContent(_:)``
/// - ``controller(_:didChange:at:for:newIndexPath:)``
/// - ``controller(_:didChange:atSectionIndex:for:)``
/// - ``controllerDidChangeContent(_:)``
/// ### Section index
/// - ``controller(_:sectionIndexTitleForSectionName:)``
public protocol NSFetchedResultsControllerDelegate: NSObjectProtocol {
    /// Called before the first change of a batch is reported.
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// Called for each object that was inserted (with `newIndexPath`), deleted (with
    /// `indexPath`), moved or updated (with both) in the results.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// Called for each section that was inserted (at its new index) or deleted (at its old
    /// index), before the object changes of the batch.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType)

    /// Called after the last change of a batch is reported.
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// The section index title for a section name; the default asks the controller's
    /// ``NSFetchedResultsController/sectionIndexTitle(forSectionName:)``.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    sectionIndexTitleForSectionName sectionName: String) -> String?

    /// The controller's content after a change (and after `performFetch()`) as a snapshot
    /// of section names and object IDs. When a delegate implements it, no other change
    /// method is called.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference)

    /// The change in the controller's object IDs, for a controller without a section name
    /// key path whose delegate does not take snapshots. When a delegate implements it, no
    /// other change method is called for such a controller.
    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Does nothing.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                           at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {}

    /// Does nothing.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           didChange sectionInfo: any NSFetchedResultsSectionInfo,
                           atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {}

    /// Does nothing.
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Returns the controller's ``NSFetchedResultsController/sectionIndexTitle(forSectionName:)``.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.core.ownerIndexTitle(sectionName)
    }

    /// Not implemented by the delegate: the controller reports changes another way.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
        controller.core.reachedDefaultCallback = true
    }

    /// Not implemented by the delegate: the controller reports changes another way.
    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                           didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        controller.core.reachedDefaultCallback = true
    }
}
