import CoreData

/// What to fetch: the models of a class that match a predicate, in an order, a window of
/// them.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "A") },
///                                        sortBy: [SortDescriptor(\.start, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
public struct FetchDescriptor<T: PersistentModel> {
    /// The condition the models must meet; nil for all of them.
    public var predicate: Predicate<T>?
    /// The order of the results, first descriptor first.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to return; nil for no limit.
    public var fetchLimit: Int?
    /// How many matching models to skip first.
    public var fetchOffset: Int?
    /// Whether unsaved inserts and changes of the context count (true by default).
    public var includePendingChanges: Bool = true
    /// The properties to load at once (a hint: every property loads when first read).
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose models load with the results, in the same fetch.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// A descriptor with a predicate and an order.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
