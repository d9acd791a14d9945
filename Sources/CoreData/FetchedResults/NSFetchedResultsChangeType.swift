import Foundation

/// What happened to an object or a section of a fetched results controller, as its delegate
/// is told in ``NSFetchedResultsControllerDelegate/controller(_:didChange:at:for:newIndexPath:)``
/// and ``NSFetchedResultsControllerDelegate/controller(_:didChange:atSectionIndex:for:)``.
///
/// The raw values are Apple's.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// The object or section joined the results; only the new index path is given.
    case insert = 1
    /// The object or section left the results; only the old index path is given.
    case delete = 2
    /// The object changed and now sits elsewhere: the old and the new index paths are given.
    case move = 3
    /// The object changed but kept its place among the others: the old index path, and the
    /// new one (which differs only when inserts or deletes around it shifted it).
    case update = 4
}
