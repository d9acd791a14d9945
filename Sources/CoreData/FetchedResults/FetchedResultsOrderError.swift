import Foundation

/// Fetched objects whose order does not keep each section together (Apple's message).
struct FetchedResultsOrderError: Error, CustomStringConvertible {
    /// The index, in the fetched objects, of the first object out of place.
    let index: Int
    /// Its section name, which an earlier section already had.
    let sectionName: String

    var description: String {
        "The fetched object at index \(index) has an out of order section name '\(sectionName). Objects must be sorted by section name'"
    }

    /// The error `performFetch()` throws.
    var nsError: NSError {
        CoreDataError.make(NSCoreDataError, description, userInfo: ["reason": description])
    }
}
