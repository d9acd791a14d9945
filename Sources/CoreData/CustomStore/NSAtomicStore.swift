import Foundation

/// The superclass of stores that read their whole file into memory when they are added and
/// write it whole on every save (a property list, a JSON document, any custom format).
///
/// Subclass it, override ``load()``, ``save()``, ``newReferenceObject(for:)``,
/// ``newCacheNode(for:)`` and ``updateCacheNode(_:from:)``, register the class, and add
/// stores of its type: contexts fetch (with predicates and sorts, evaluated in memory),
/// fault, save and delete through it as through the built-in stores.
///
/// ```swift
/// final class PlistStore: NSAtomicStore {
///     override func load() throws {
///         // read the file; for each record:
///         let objectID = objectID(for: entity, withReferenceObject: record.id)
///         let node = NSAtomicStoreCacheNode(objectID: objectID)
///         node.setValue(record.name, forKey: "name")
///         addCacheNodes([node])
///     }
///     override func newReferenceObject(for managedObject: NSManagedObject) -> Any { UUID().uuidString }
///     override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
///         NSAtomicStoreCacheNode(objectID: managedObject.objectID)
///     }
///     override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
///         node.setValue(managedObject.value(forKey: "name"), forKey: "name")
///     }
///     override func save() throws { /* write cacheNodes() and metadata to url */ }
/// }
/// ```
///
/// A save first makes a node for each inserted object (``newCacheNode(for:)``) and registers
/// them all, then calls ``updateCacheNode(_:from:)`` for every inserted and updated object (so
/// a node can name the nodes of other objects inserted in the same save), tells
/// ``willRemoveCacheNodes(_:)`` about deleted objects' nodes and removes them, then calls
/// ``save()``.
///
/// ``loadMetadata()`` gives a new store its type and a new UUID; ``load()`` should restore
/// the metadata the file kept (``save()`` writes ``NSPersistentStore/metadata`` with the nodes), so that the
/// store's UUID, and its object IDs' URIs, survive reopening.
///
/// - Note: Apple parity: a store class overriding the initializer writes
///   `required init(persistentStoreCoordinator:configurationName:at:options:)`.
///
/// ## Topics
/// ### Methods to override
/// - ``load()``
/// - ``save()``
/// - ``newReferenceObject(for:)``
/// - ``newCacheNode(for:)``
/// - ``updateCacheNode(_:from:)``
/// ### Cache nodes
/// - ``cacheNodes()``
/// - ``addCacheNodes(_:)``
/// - ``willRemoveCacheNodes(_:)``
/// - ``cacheNode(for:)``
/// ### Identities
/// - ``objectID(for:withReferenceObject:)``
/// - ``referenceObject(for:)``
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    // @unchecked Sendable: the framework calls the store under its coordinator's lock.

    /// Reference objects and the primary keys that stand for them.
    let references = ReferenceObjects()
    /// The registered cache nodes by inheritance root and primary key.
    private(set) var nodes: [NodeKey: NSAtomicStoreCacheNode] = [:]

    struct NodeKey: Hashable {
        let root: ObjectIdentifier
        let pk: Int64
    }

    override func makeBackend() -> StoreBackend? { AtomicStoreBackend(store: self) }

    override func uriKey(forPrimaryKey pk: Int64, entity: NSEntityDescription) -> String {
        references.uriText(for: pk, entity: entity) ?? String(pk)
    }

    override func primaryKey(forURIKey key: String, entity: NSEntityDescription) -> Int64? {
        references.primaryKey(forURIText: key, entity: entity)
    }

    func nodeKey(of objectID: NSManagedObjectID) -> NodeKey? {
        guard objectID.storeReference?.identifier == ObjectIdentifier(self), let pk = objectID.primaryKey else { return nil }
        return NodeKey(root: objectID.entity.runtime.rootID, pk: pk)
    }

    /// Replaces the node table (restoring it after a failed save).
    func replaceNodes(_ table: [NodeKey: NSAtomicStoreCacheNode]) { nodes = table }

    /// Forgets a node (after ``willRemoveCacheNodes(_:)``).
    func dropNode(_ key: NodeKey) { nodes.removeValue(forKey: key) }

    // MARK: - Methods to override

    /// Reads the store's file and registers a cache node for each object with
    /// ``addCacheNodes(_:)``; should also restore ``NSPersistentStore/metadata`` from the file. Called when
    /// the store is added, after ``loadMetadata()``; a missing file is a new, empty store.
    open func load() throws {
        throw CoreDataError.make(NSPersistentStoreOperationError, "\(Swift.type(of: self)) does not override load().")
    }

    /// Writes every cache node (and ``NSPersistentStore/metadata``) to the store's file, at ``NSPersistentStore/url``.
    open func save() throws {
        throw CoreDataError.make(NSPersistentStoreOperationError, "\(Swift.type(of: self)) does not override save().")
    }

    /// A new reference object for an object being saved for the first time (unique within
    /// its entity's inheritance family: a UUID string, a number).
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        coreDataMisuse("\(Swift.type(of: self)) must override newReferenceObject(for:).")
    }

    /// A new cache node for an object being saved for the first time (the framework
    /// registers it, then calls ``updateCacheNode(_:from:)``).
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        coreDataMisuse("\(Swift.type(of: self)) must override newCacheNode(for:).")
    }

    /// Copies an object's values into its node.
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        coreDataMisuse("\(Swift.type(of: self)) must override updateCacheNode(_:from:).")
    }

    // MARK: - Cache nodes

    /// Every registered cache node.
    open func cacheNodes() -> Set<NSAtomicStoreCacheNode> { Set(nodes.values) }

    /// Registers cache nodes (in ``load()``): each node's object ID must be this store's.
    open func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        for node in cacheNodes {
            guard let key = nodeKey(of: node.objectID) else {
                coreDataMisuse("The cache node for \(node.objectID) does not have an object ID of this store; make it with objectID(for:withReferenceObject:).")
            }
            nodes[key] = node
        }
    }

    /// Told before the nodes of deleted objects leave the store (the framework removes them).
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    /// The registered cache node of an object, if any.
    open func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        nodeKey(of: objectID).flatMap { nodes[$0] }
    }

    // MARK: - Identities

    /// The object ID of the object a reference object names, for cache nodes made in
    /// ``load()``. Equal reference objects give equal IDs.
    open func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        guard entity.runtime != nil else {
            coreDataMisuse("The entity \(entity.name ?? "?") is not in the model of this store's coordinator.")
        }
        guard let pk = references.primaryKey(for: data, entity: entity) else {
            coreDataMisuse("A reference object must be a string, a number or a Hashable value; got \(Swift.type(of: data)).")
        }
        return NSManagedObjectID(entity: entity, store: self, reference: .permanent(pk))
    }

    /// The reference object an object ID of this store was made from (to write it to the file).
    open func referenceObject(for objectID: NSManagedObjectID) -> Any {
        guard let key = nodeKey(of: objectID), let reference = references.reference(for: key.pk, entity: objectID.entity) else {
            coreDataMisuse("The object ID \(objectID) was not made by this store (\(Swift.type(of: self))).")
        }
        return reference
    }

    // MARK: - Metadata

    /// Gives a store without metadata its type and a new UUID (``load()`` then restores
    /// what the file kept).
    open override func loadMetadata() throws {
        var current = metadata ?? [:]
        if current[NSStoreTypeKey] == nil { current[NSStoreTypeKey] = addedAsType ?? String(describing: Swift.type(of: self)) }
        if current[NSStoreUUIDKey] == nil { current[NSStoreUUIDKey] = UUID().uuidString }
        metadata = current
    }

    /// Not supported by default (reading an atomic store's metadata means reading its
    /// file, which only the class knows): a store class overrides it to answer
    /// `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:options:)`.
    open override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(self) does not override metadataForPersistentStore(with:).")
    }

    /// Not supported by default: a store class that keeps its metadata in its file
    /// overrides it.
    open override class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        throw CoreDataError.make(NSPersistentStoreOperationError,
            "\(self) does not override setMetadata(_:forPersistentStoreAt:).")
    }
}
