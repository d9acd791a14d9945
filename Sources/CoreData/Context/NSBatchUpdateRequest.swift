import Foundation

/// Sets attributes of every object of an entity that a predicate selects, in one SQL
/// `UPDATE`, without loading the objects.
///
/// ```swift
/// let request = NSBatchUpdateRequest(entityName: "Item")
/// request.predicate = NSPredicate(format: "done == NO")
/// request.propertiesToUpdate = ["done": true, "count": NSExpression(format: "count + 1")]
/// request.resultType = .updatedObjectIDsResultType
/// let result = try context.execute(request) as! NSBatchUpdateResult
/// ```
///
/// Each value of ``propertiesToUpdate`` is a constant or an `NSExpression`, evaluated on
/// each object (key paths, arithmetic, functions); each key is an attribute name or an
/// `NSAttributeDescription`. Every updated object's version (`Z_OPT`) goes up, so a context
/// still holding the old values gets a merge conflict if it saves them: refresh it with the
/// result's object IDs.
///
/// - Note: Apple parity: Apple's batch requests need a SQLite store; here an in-memory
///   store runs them too, and a predicate or expression the SQL compiler cannot express is
///   evaluated in memory instead. Errors are thrown (never raised): an unknown entity is
///   `NSCoreDataError`; an unknown key, a relationship, a transient attribute or a value of
///   the wrong type `NSManagedObjectValidationError` (with `NSValidationKeyErrorKey`); nil
///   for a mandatory attribute `NSValidationMissingMandatoryPropertyError`. Before it runs,
///   a request made by name answers ``entity`` with a description that carries only the
///   name.
///
/// ## Topics
/// ### Creating a request
/// - ``init(entityName:)``
/// - ``init(entity:)``
/// ### What to update
/// - ``entityName``
/// - ``entity``
/// - ``predicate``
/// - ``includesSubentities``
/// - ``propertiesToUpdate``
/// ### The answer
/// - ``resultType``
open class NSBatchUpdateRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.

    /// The name of the entity whose objects are updated.
    public let entityName: String
    private let givenEntity: NSEntityDescription?
    private lazy var namedEntity: NSEntityDescription = {
        let entity = NSEntityDescription()
        entity.name = entityName
        return entity
    }()

    /// The entity whose objects are updated (see the note above for requests made by
    /// name).
    open var entity: NSEntityDescription { givenEntity ?? namedEntity }
    /// Which objects to update; nil updates every object of the entity.
    open var predicate: NSPredicate?
    /// Whether objects of the entity's sub-entities are updated too (the default).
    open var includesSubentities = true
    /// What the ``NSBatchUpdateResult`` carries: `.statusOnlyResultType` by default.
    open var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    /// Attribute (name or `NSAttributeDescription`) → new value: a constant, `NSNull` for
    /// nil, or an `NSExpression` evaluated on each object.
    open var propertiesToUpdate: [AnyHashable: Any]?

    /// Always ``NSPersistentStoreRequestType/batchUpdateRequestType``.
    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }

    /// A request updating objects of the entity named `entityName` (found in the
    /// context's model when it runs).
    public init(entityName: String) {
        self.entityName = entityName
        givenEntity = nil
        super.init()
    }

    /// A request updating objects of `entity`.
    public init(entity: NSEntityDescription) {
        entityName = entity.name ?? ""
        givenEntity = entity
        super.init()
    }

    /// The entity given at creation, if any.
    var resolvedEntity: NSEntityDescription? { givenEntity }

    /// A copy with the same entity, predicate, properties, options and stores.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = givenEntity.map { NSBatchUpdateRequest(entity: $0) } ?? NSBatchUpdateRequest(entityName: entityName)
        copy.predicate = predicate
        copy.includesSubentities = includesSubentities
        copy.resultType = resultType
        copy.propertiesToUpdate = propertiesToUpdate
        copy.affectedStores = affectedStores
        return copy
    }
}
