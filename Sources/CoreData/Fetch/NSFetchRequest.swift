import Foundation

/// What a fetch returns (Apple's raw values).
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Managed objects (the default): `NSFetchRequest<NSManagedObject>` or a subclass.
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// Object IDs only: `NSFetchRequest<NSManagedObjectID>`; no row values are read.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    /// One dictionary per row or group, holding ``NSFetchRequest/propertiesToFetch``:
    /// `NSFetchRequest<NSDictionary>`.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    /// The number of matching objects, as a one-element array holding an `NSNumber`.
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
/// ### Copying and archiving
/// - ``copy(with:)``
/// - ``encode(with:)``
/// - ``init(coder:)``
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, NSCoding, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then only read by the fetch.

    private var _entityName: String?
    /// The entity to fetch. A request made with ``init(entityName:)`` finds it in the
    /// context's model when it runs.
    open var entity: NSEntityDescription? {
        didSet { if let name = entity?.name { _entityName = name } }
    }
    /// The name of the entity to fetch.
    open var entityName: String? { entity?.name ?? _entityName }
    /// Which objects to fetch; nil fetches all of them. The SQLite store compiles it to SQL
    /// (see <doc:PredicateLanguage>).
    open var predicate: NSPredicate?
    /// The order of the results, first descriptor first; nil leaves the order undefined.
    open var sortDescriptors: [NSSortDescriptor]?
    /// 0 means no limit.
    open var fetchLimit: Int = 0
    /// How many matching objects to skip before the first result (with ``fetchLimit``, a page).
    open var fetchOffset: Int = 0
    /// With a size above 0, the fetch reads only the matching objects' keys and returns
    /// faults; the first object used in each run of `fetchBatchSize` objects reads the rows
    /// of that whole run with one statement.
    ///
    /// - Note: Apple parity: Apple returns a special `NSArray` that creates its objects
    ///   batch by batch; `fetch` returns a Swift array, so every object exists (as a fault,
    ///   without its values) from the start, and only the values load per batch.
    open var fetchBatchSize: Int = 0
    /// What the fetch returns: objects (default), object IDs, dictionaries or a count. It must
    /// agree with `ResultType`.
    open var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// When true (the default), objects not yet registered in the context come back as
    /// faults whose values load on first use, from the rows just read; when false they come
    /// back with their values.
    open var returnsObjectsAsFaults: Bool = true
    /// When true (the default), the fetch sees the context's unsaved inserts, changes and
    /// deletes; when false, only what the stores hold.
    open var includesPendingChanges: Bool = true
    /// When true (the default), objects of the entity's sub-entities match too.
    open var includesSubentities: Bool = true
    /// When false, the SQLite store reads only the objects' keys and returns faults (the
    /// values load when used). The in-memory store holds its values already.
    open var includesPropertyValues: Bool = true
    /// With dictionary results, drops duplicate dictionaries. Ignored for other result types, as
    /// on Apple platforms.
    open var returnsDistinctResults: Bool = false
    /// Asks that objects already registered in the context take the fetched values.
    ///
    /// - Note: Apple parity: not honoured; registered objects keep their in-memory state
    ///   (call `refresh(_:mergeChanges:)` on the context to reload them).
    open var shouldRefreshRefetchedObjects: Bool = false
    /// With dictionary results: what each dictionary holds, as attribute names,
    /// ``NSPropertyDescription``s or ``NSExpressionDescription``s (for aggregates such as
    /// `@sum`).
    open var propertiesToFetch: [Any]?
    /// With dictionary results: the properties whose values form the groups, one dictionary
    /// per group.
    ///
    /// - Note: Apple parity: grouped in memory from one store query, where Apple groups in
    ///   SQL; the results are the same.
    open var propertiesToGroupBy: [Any]?
    /// With ``propertiesToGroupBy``: which groups to keep, tested against each group's
    /// dictionary.
    open var havingPredicate: NSPredicate?
    /// Relationship key paths (`"items"`, `"list.owner"`) whose destinations the fetch reads
    /// too, so that walking them fires no further query per object.
    open var relationshipKeyPathsForPrefetching: [String]?

    /// Creates a request with no entity; set ``entity`` before it runs.
    public override init() { super.init() }

    /// Creates a request for the entity named `entityName`.
    public convenience init(entityName: String) {
        self.init()
        _entityName = entityName
    }

    /// Always ``NSPersistentStoreRequestType/fetchRequestType``.
    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    // MARK: - Copying

    /// A copy with the same entity, predicate, sort descriptors, limits, result type,
    /// options, properties to fetch and group by, and affected stores; changing the copy
    /// leaves this request as it is.
    open override func copy(with zone: NSZone? = nil) -> Any {
        copy(as: ResultType.self)
    }

    /// A copy of every setting ``copy(with:)`` copies, as a request for another result type:
    /// the copy itself, and the `NSFetchRequest<NSFetchRequestResult>` view that fetched
    /// results controllers keep of a typed request.
    func copy<Other>(as _: Other.Type) -> NSFetchRequest<Other> {
        let copy = NSFetchRequest<Other>()
        copy._entityName = _entityName
        copy.entity = entity
        copy.affectedStores = affectedStores
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.resultType = resultType
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.includesPendingChanges = includesPendingChanges
        copy.includesSubentities = includesSubentities
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsDistinctResults = returnsDistinctResults
        copy.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        copy.propertiesToFetch = propertiesToFetch
        copy.propertiesToGroupBy = propertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        return copy
    }

    // MARK: - Archiving

    /// Archives the request with a keyed coder such as `NSKeyedArchiver`: the entity's
    /// name, the predicates, sort descriptors, limits, result type and options.
    ///
    /// Properties to fetch and group by are archived as names, and expression
    /// descriptions as themselves; affected stores are not archived.
    ///
    /// - Note: Apple parity: predicates are archived as their format strings and sort
    ///   descriptors as key, order and selector (Foundation's `NSPredicate` and
    ///   `NSSortDescriptor` do not archive on Linux), and the entity by name: a decoded
    ///   request finds its entity in the context's model when it runs, as one made with
    ///   ``init(entityName:)`` does. `NSKeyedArchiver` on Linux cannot name a generic class:
    ///   call this method on the archiver (`request.encode(with: archiver)`) rather than
    ///   archiving the request as a root object.
    open func encode(with coder: NSCoder) {
        coder.encode(entityName, forKey: "NSEntityName")
        ModelCoding.encode(predicate, forKey: "NSPredicate", with: coder)
        ModelCoding.encode(sortDescriptors, forKey: "NSSortDescriptors", with: coder)
        coder.encode(Int64(fetchLimit), forKey: "NSFetchLimit")
        coder.encode(Int64(fetchOffset), forKey: "NSFetchOffset")
        coder.encode(Int64(fetchBatchSize), forKey: "NSBatchSize")
        coder.encode(Int64(resultType.rawValue), forKey: "NSResultType")
        coder.encode(returnsObjectsAsFaults, forKey: "NSReturnsObjectsAsFaults")
        coder.encode(includesPendingChanges, forKey: "NSIncludesPendingChanges")
        coder.encode(includesSubentities, forKey: "NSIncludesSubentities")
        coder.encode(includesPropertyValues, forKey: "NSIncludesPropertyValues")
        coder.encode(returnsDistinctResults, forKey: "NSReturnsDistinctResults")
        coder.encode(shouldRefreshRefetchedObjects, forKey: "NSShouldRefreshRefetchedObjects")
        if let propertiesToFetch { coder.encode(Self.archivable(propertiesToFetch), forKey: "NSPropertiesToFetch") }
        if let propertiesToGroupBy { coder.encode(Self.archivable(propertiesToGroupBy), forKey: "NSPropertiesToGroupBy") }
        ModelCoding.encode(havingPredicate, forKey: "NSHavingPredicate", with: coder)
        if let relationshipKeyPathsForPrefetching {
            coder.encode(relationshipKeyPathsForPrefetching, forKey: "NSRelationshipKeyPathsForPrefetching")
        }
    }

    /// Reads a request archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init()
        _entityName = coder.decodeObjectIfPresent(forKey: "NSEntityName") as? String
        predicate = ModelCoding.decodePredicate(forKey: "NSPredicate", with: coder)
        sortDescriptors = ModelCoding.decodeSortDescriptors(forKey: "NSSortDescriptors", with: coder)
        fetchLimit = Int(coder.decodeInt64(forKey: "NSFetchLimit"))
        fetchOffset = Int(coder.decodeInt64(forKey: "NSFetchOffset"))
        fetchBatchSize = Int(coder.decodeInt64(forKey: "NSBatchSize"))
        resultType = NSFetchRequestResultType(rawValue: ModelCoding.decodeUInt(forKey: "NSResultType", with: coder))
        returnsObjectsAsFaults = coder.decodeBool(forKey: "NSReturnsObjectsAsFaults")
        includesPendingChanges = coder.decodeBool(forKey: "NSIncludesPendingChanges")
        includesSubentities = coder.decodeBool(forKey: "NSIncludesSubentities")
        includesPropertyValues = coder.decodeBool(forKey: "NSIncludesPropertyValues")
        returnsDistinctResults = coder.decodeBool(forKey: "NSReturnsDistinctResults")
        shouldRefreshRefetchedObjects = coder.decodeBool(forKey: "NSShouldRefreshRefetchedObjects")
        propertiesToFetch = coder.decodeObjectIfPresent(forKey: "NSPropertiesToFetch") as? [Any]
        propertiesToGroupBy = coder.decodeObjectIfPresent(forKey: "NSPropertiesToGroupBy") as? [Any]
        havingPredicate = ModelCoding.decodePredicate(forKey: "NSHavingPredicate", with: coder)
        relationshipKeyPathsForPrefetching = coder.decodeObjectIfPresent(forKey: "NSRelationshipKeyPathsForPrefetching") as? [String]
    }

    /// Attribute and relationship descriptions as their names (they belong to the model);
    /// expression descriptions and strings as they are.
    private static func archivable(_ items: [Any]) -> [Any] {
        items.map { item -> Any in
            if let property = item as? NSPropertyDescription, !(item is NSExpressionDescription) {
                return property.name
            }
            return item
        }
    }

    open override var description: String {
        "<NSFetchRequest> (entity: \(entityName ?? "nil"); predicate: (\(predicate.map { "\($0)" } ?? "nil")); sortDescriptors: (\(sortDescriptors.map { "\($0)" } ?? "nil")); type: \(resultType.rawValue); )"
    }
}
