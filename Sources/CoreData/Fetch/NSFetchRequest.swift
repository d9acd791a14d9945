import Foundation

/// What a fetch returns (Apple's raw values).
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// A description of what to fetch from the persistent stores: an entity, a predicate,
/// a sort order, limits, and the kind of result.
///
/// ```swift
/// let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
/// request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
/// let items = try context.fetch(request)
/// ```
///
/// - Note: Apple parity: `ResultType` is unconstrained so that
///   `NSFetchRequest<NSFetchRequestResult>` compiles on Linux.
///
/// ## Topics
/// ### Selecting
/// - ``entityName``
/// - ``predicate``
/// - ``sortDescriptors``
/// - ``fetchLimit``
/// - ``fetchOffset``
/// ### Results
/// - ``resultType``
/// - ``returnsObjectsAsFaults``
/// - ``includesPendingChanges``
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then only read by the fetch.

    private var _entityName: String?
    open var entity: NSEntityDescription? {
        didSet { if let name = entity?.name { _entityName = name } }
    }
    open var entityName: String? { entity?.name ?? _entityName }
    open var predicate: NSPredicate?
    open var sortDescriptors: [NSSortDescriptor]?
    /// 0 means no limit.
    open var fetchLimit: Int = 0
    open var fetchOffset: Int = 0
    /// With a size above 0, the fetch reads only the matching objects' keys and returns
    /// faults; the first object used in each run of `fetchBatchSize` objects reads the rows
    /// of that whole run with one statement.
    ///
    /// - Note: Apple parity: Apple returns a special `NSArray` that creates its objects
    ///   batch by batch; `fetch` returns a Swift array, so every object exists (as a fault,
    ///   without its values) from the start, and only the values load per batch.
    open var fetchBatchSize: Int = 0
    open var resultType: NSFetchRequestResultType = .managedObjectResultType
    open var returnsObjectsAsFaults: Bool = true
    open var includesPendingChanges: Bool = true
    open var includesSubentities: Bool = true
    /// When false, the SQLite store reads only the objects' keys and returns faults (the
    /// values load when used). The in-memory store holds its values already.
    open var includesPropertyValues: Bool = true
    open var returnsDistinctResults: Bool = false
    open var shouldRefreshRefetchedObjects: Bool = false
    open var propertiesToFetch: [Any]?
    open var propertiesToGroupBy: [Any]?
    open var havingPredicate: NSPredicate?
    open var relationshipKeyPathsForPrefetching: [String]?

    public override init() { super.init() }

    public convenience init(entityName: String) {
        self.init()
        _entityName = entityName
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    open override var description: String {
        "<NSFetchRequest> (entity: \(entityName ?? "nil"); predicate: (\(predicate.map { "\($0)" } ?? "nil")); sortDescriptors: (\(sortDescriptors.map { "\($0)" } ?? "nil")); type: \(resultType.rawValue); )"
    }
}
