import Foundation

/// A section as a fetched results controller hands it out: a fixed value, made anew
/// whenever the controller's results change.
final class FetchedResultsSection: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    /// The section's objects, in order.
    let members: [NSManagedObject]

    init(name: String, indexTitle: String?, members: [NSManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        self.members = members
    }

    var numberOfObjects: Int { members.count }
    var objects: [Any]? { members }
}
