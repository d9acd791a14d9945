import Foundation

/// Inserts many objects of one entity straight into the store, in one transaction,
/// without making managed objects: from dictionaries of attribute values, or from a
/// handler that fills one object after another.
///
/// ```swift
/// let rows: [[String: Any]] = [["code": "a1", "magnitude": 4.2], ["code": "b7", "magnitude": 2.9]]
/// let request = NSBatchInsertRequest(entityName: "Quake", objects: rows)
/// request.resultType = .objectIDs
/// let result = try context.execute(request) as! NSBatchInsertResult
/// ```
///
/// Attributes an object leaves out get their default value. Values must fit their
/// attribute's type; relationships cannot be set. When the entity has uniqueness
/// constraints, an object whose constrained values equal a stored object's updates that
/// object (the attributes it names) instead of inserting a second one.
///
/// Contexts do not see the new objects until they fetch; objects they hold that an
/// upsert changed keep their old values until refreshed (merge the result's object IDs
/// with `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`).
///
/// - Note: Apple parity: Apple's batch requests need a SQLite store; here an in-memory
///   store runs them too. Errors are thrown (never raised): an unknown entity is
///   `NSCoreDataError`, an unknown key, a relationship key or a value of the wrong type
///   `NSManagedObjectValidationError` (with `NSValidationKeyErrorKey`), a missing mandatory
///   value `NSValidationMissingMandatoryPropertyError`, a custom store
///   `NSPersistentStoreUnsupportedRequestTypeError`.
///
/// ## Topics
/// ### Creating a request
/// - ``init(entityName:objects:)``
/// - ``init(entity:objects:)``
/// - ``init(entityName:dictionaryHandler:)``
/// - ``init(entity:dictionaryHandler:)``
/// - ``init(entityName:managedObjectHandler:)``
/// - ``init(entity:managedObjectHandler:)``
/// ### What to insert
/// - ``entityName``
/// - ``entity``
/// - ``objectsToInsert``
/// - ``dictionaryHandler``
/// - ``managedObjectHandler``
/// ### The answer
/// - ``resultType``
open class NSBatchInsertRequest: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: a request is configured on one thread, then only read.

    /// The name of the entity whose objects are inserted.
    open private(set) var entityName: String
    /// The entity whose objects are inserted, when the request was made with one (a
    /// request made by name finds its entity in the context's model when it runs).
    open private(set) var entity: NSEntityDescription?
    /// The objects to insert, each as attribute name → value.
    open var objectsToInsert: [[String: Any]]?
    /// Called again and again to fill an empty dictionary with the next object's values;
    /// returning `true` ends the insert (that dictionary is not inserted).
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Called again and again with a new object of the entity (in no context) to set the
    /// next object's values on; returning `true` ends the insert (that object is not
    /// inserted).
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?
    /// What the ``NSBatchInsertResult`` carries: `.statusOnly` by default.
    open var resultType: NSBatchInsertRequestResultType = .statusOnly

    /// Always ``NSPersistentStoreRequestType/batchInsertRequestType``.
    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }

    /// A request with no entity (set nothing else: it cannot run).
    @available(*, deprecated, message: "Use init(entityName:objects:) or one of the handler initializers.")
    public override convenience init() {
        self.init(entityName: "", objects: [])
        objectsToInsert = nil
    }

    /// Inserts `dictionaries` (attribute name → value) as objects of the entity named
    /// `entityName`.
    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        self.entityName = entityName
        entity = nil
        objectsToInsert = dictionaries
        super.init()
    }

    /// Inserts `dictionaries` (attribute name → value) as objects of `entity`.
    public init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        entityName = entity.name ?? ""
        self.entity = entity
        objectsToInsert = dictionaries
        super.init()
    }

    /// Inserts the objects `handler` describes, one dictionary per call, until it
    /// returns `true`.
    public convenience init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entity: entity, objects: [])
        objectsToInsert = nil
        dictionaryHandler = handler
    }

    /// The by-name spelling of ``init(entity:dictionaryHandler:)``.
    public convenience init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entityName, objects: [])
        objectsToInsert = nil
        dictionaryHandler = handler
    }

    /// Inserts the objects `handler` fills, one object per call, until it returns `true`.
    public convenience init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entity: entity, objects: [])
        objectsToInsert = nil
        managedObjectHandler = handler
    }

    /// The by-name spelling of ``init(entity:managedObjectHandler:)``.
    public convenience init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entityName: entityName, objects: [])
        objectsToInsert = nil
        managedObjectHandler = handler
    }

    /// A copy with the same entity, objects, handlers, result type and stores.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = entity.map { NSBatchInsertRequest(entity: $0, objects: []) }
            ?? NSBatchInsertRequest(entityName: entityName, objects: [])
        copy.objectsToInsert = objectsToInsert
        copy.dictionaryHandler = dictionaryHandler
        copy.managedObjectHandler = managedObjectHandler
        copy.resultType = resultType
        copy.affectedStores = affectedStores
        return copy
    }
}
