import Foundation

/// The superclass of stores that load and save objects one request at a time, over any
/// storage an app chooses (a JSON file, a web service, another database).
///
/// Subclass it, override ``loadMetadata()``, ``execute(_:with:)``,
/// ``newValuesForObject(with:with:)``, ``newValue(forRelationship:forObjectWith:with:)`` and
/// ``obtainPermanentIDs(for:)``, register the class, and add stores of its type: contexts
/// then fetch, fault, save and delete through it as through the built-in stores.
///
/// ```swift
/// final class JSONStore: NSIncrementalStore {
///     static let type = "JSONStore"
///     override func loadMetadata() throws {
///         metadata = [NSStoreTypeKey: Self.type, NSStoreUUIDKey: storedUUID ?? UUID().uuidString]
///     }
///     override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
///         switch request {
///         case let fetch as NSFetchRequest<NSFetchRequestResult>:
///             return rows(of: fetch.entity!).map { context!.object(with: newObjectID(for: fetch.entity!, referenceObject: $0.id)) }
///         case let save as NSSaveChangesRequest:
///             try write(save)
///             return [Any]()
///         default:
///             throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError)
///         }
///     }
///     // newValuesForObject, newValue(forRelationship:...), obtainPermanentIDs ...
/// }
///
/// NSPersistentStoreCoordinator.registerStoreClass(JSONStore.self, forStoreType: JSONStore.type)
/// try coordinator.addPersistentStore(ofType: JSONStore.type, configurationName: nil, at: url)
/// ```
///
/// A fetch request reaching ``execute(_:with:)`` carries the context's predicate and sort
/// descriptors; the store may use them or return every object of the entity (the context
/// filters and sorts what comes back, and applies offset and limit itself). Answer managed
/// objects (`context.object(with:)`) or object IDs. A save request's inserted objects
/// already have the IDs ``obtainPermanentIDs(for:)`` gave them; answer an empty array.
///
/// - Note: Apple parity: the fetch requests a store receives ask for managed objects
///   (`.managedObjectResultType`) whatever result type the app's request has; the context
///   builds IDs, dictionaries and counts from them. A store class overriding the initializer
///   writes `required init(persistentStoreCoordinator:configurationName:at:options:)`.
///
/// ## Topics
/// ### Methods to override
/// - ``loadMetadata()``
/// - ``execute(_:with:)``
/// - ``newValuesForObject(with:with:)``
/// - ``newValue(forRelationship:forObjectWith:with:)``
/// - ``obtainPermanentIDs(for:)``
/// ### Optional overrides
/// - ``identifierForNewStore(at:)``
/// - ``managedObjectContextDidRegisterObjects(with:)``
/// - ``managedObjectContextDidUnregisterObjects(with:)``
/// ### Identities (not to be overridden)
/// - ``newObjectID(for:referenceObject:)``
/// - ``referenceObject(for:)``
open class NSIncrementalStore: NSPersistentStore, @unchecked Sendable {
    // @unchecked Sendable: the framework calls the store under its coordinator's lock.

    /// Reference objects and the primary keys that stand for them.
    let references = ReferenceObjects()

    override func makeBackend() -> StoreBackend? { IncrementalStoreBackend(store: self) }

    override var talksToContexts: Bool { true }

    override func contextDidRegister(_ objectIDs: [NSManagedObjectID]) {
        managedObjectContextDidRegisterObjects(with: objectIDs)
    }

    override func contextDidUnregister(_ objectIDs: [NSManagedObjectID]) {
        managedObjectContextDidUnregisterObjects(with: objectIDs)
    }

    override func uriKey(forPrimaryKey pk: Int64, entity: NSEntityDescription) -> String {
        references.uriText(for: pk, entity: entity) ?? String(pk)
    }

    override func primaryKey(forURIKey key: String, entity: NSEntityDescription) -> Int64? {
        references.primaryKey(forURIText: key, entity: entity)
    }

    // MARK: - Methods to override

    /// Reads the store's metadata (at least `NSStoreTypeKey` and `NSStoreUUIDKey`) into
    /// ``NSPersistentStore/metadata``, checking that the store at ``NSPersistentStore/url`` is usable. A file-based store is
    /// new when its file is missing or empty.
    ///
    /// - Throws: the store's error; the coordinator then does not add the store. Metadata
    ///   without a type or UUID makes adding fail with `NSPersistentStoreInvalidTypeError`.
    open override func loadMetadata() throws {}

    /// Answers a request: for an `NSFetchRequest`, an array of managed objects (registered in
    /// `context`, e.g. with `context.object(with:)`) or object IDs; for an
    /// ``NSSaveChangesRequest``, an empty array once the changes are stored.
    ///
    /// - Throws: by default `NSPersistentStoreUnsupportedRequestTypeError`: override it.
    open func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
            "\(Swift.type(of: self)) does not override execute(_:with:).")
    }

    /// The values of one object, for its fault: attributes and to-one relationships by name.
    ///
    /// - Throws: `NSManagedObjectReferentialIntegrityError` when the object no longer exists
    ///   (the context then treats it as deleted); by default an error: override it.
    open func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(Swift.type(of: self)) does not override newValuesForObject(with:with:).")
    }

    /// The destination of a relationship of one object: an `NSManagedObjectID` (or `NSNull`)
    /// for a to-one relationship, an array or set of them for a to-many one.
    open func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                       with context: NSManagedObjectContext?) throws -> Any {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(Swift.type(of: self)) does not override newValue(forRelationship:forObjectWith:with:).")
    }

    /// Permanent IDs for newly inserted objects, in the same order, made with
    /// ``newObjectID(for:referenceObject:)``. Called before the save request that stores them.
    open func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(Swift.type(of: self)) does not override obtainPermanentIDs(for:).")
    }

    /// A UUID string for a new store: what ``loadMetadata()`` may use as `NSStoreUUIDKey`.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    /// Told when a context registers objects of this store (fetched, faulted or saved).
    open func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Told when a context lets objects of this store go (reset, deletion, release).
    ///
    /// - Note: Apple parity: an unchanged object that a context held weakly (see
    ///   `NSManagedObjectContext.retainsRegisteredObjects`) and that went away is reported
    ///   later than on Apple: when the context next registers an object, resets or goes
    ///   away, not at the moment it is released (its release may happen on any thread).
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {}

    // MARK: - Identities

    /// The object ID of the object a reference object names (a string, a number or any
    /// `Hashable` value unique within the entity's inheritance family). Equal reference
    /// objects give equal IDs, and `uriRepresentation()` spells the reference object.
    open func newObjectID(for entity: NSEntityDescription, referenceObject data: Any) -> NSManagedObjectID {
        guard entity.runtime != nil else {
            coreDataMisuse("The entity \(entity.name ?? "?") is not in the model of this store's coordinator.")
        }
        guard let pk = references.primaryKey(for: data, entity: entity) else {
            coreDataMisuse("A reference object must be a string, a number or a Hashable value; got \(Swift.type(of: data)).")
        }
        return NSManagedObjectID(entity: entity, store: self, reference: .permanent(pk))
    }

    /// The reference object an object ID of this store was made from.
    open func referenceObject(for objectID: NSManagedObjectID) -> Any {
        guard objectID.storeReference?.identifier == ObjectIdentifier(self), let pk = objectID.primaryKey,
              let reference = references.reference(for: pk, entity: objectID.entity) else {
            coreDataMisuse("The object ID \(objectID) was not made by this store (\(Swift.type(of: self))).")
        }
        return reference
    }

    // MARK: - Metadata without adding

    /// Loads the metadata of the store at `url` by making an instance of the class and
    /// calling its ``loadMetadata()``.
    open override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        let store = self.init(persistentStoreCoordinator: nil, configurationName: nil, at: url, options: nil)
        try store.loadMetadata()
        return store.metadata ?? [:]
    }

    /// Not supported by default: a store class that keeps its metadata in its file
    /// overrides it.
    open override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(self) does not override setMetadata(_:forPersistentStoreAt:).")
    }
}
