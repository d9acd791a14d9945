import Foundation

/// One section of a fetched results controller: the objects that share a value of the
/// controller's ``NSFetchedResultsController/sectionNameKeyPath``, in the fetch's order.
///
/// ```swift
/// for section in controller.sections ?? [] {
///     print(section.name, section.numberOfObjects)
/// }
/// ```
///
/// ## Topics
/// ### Describing the section
/// - ``name``
/// - ``indexTitle``
/// ### Its objects
/// - ``numberOfObjects``
/// - ``objects``
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the objects' value at the section name key path, as text (`""`
    /// for nil, and for the single section of a controller without a key path).
    var name: String { get }
    /// The section's title in the section index (by default the capitalized first letter
    /// of its name), or nil when the section has none.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in the fetch's order.
    var objects: [Any]? { get }
}
