import Foundation

/// The scratch pad where managed objects live: it uniques objects by ID, tracks inserts,
/// updates and deletes, fetches through its coordinator and saves changes back.
///
/// ```swift
/// let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
/// context.persistentStoreCoordinator = coordinator
/// try context.performAndWait {
///     let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
///     item.setValue("Milk", forKey: "name")
///     try context.save()
/// }
/// ```
///
/// ## Topics
/// ### Creating
/// - ``init(concurrencyType:)``
/// - ``ConcurrencyType``
/// - ``concurrencyType``
/// - ``name``
/// - ``transactionAuthor``
/// - ``persistentStoreCoordinator``
/// - ``parent``
/// ### Running work on the context's queue
/// - ``perform(_:)``
/// - ``performAndWait(_:)->_``
/// - ``performAndWait(_:)->()``
/// - ``perform(schedule:_:)``
/// - ``ScheduledTaskType``
/// ### Objects
/// - ``insert(_:)``
/// - ``delete(_:)``
/// - ``object(with:)``
/// - ``existingObject(with:)``
/// - ``registeredObject(for:)``
/// - ``registeredObjects``
/// - ``insertedObjects``
/// - ``updatedObjects``
/// - ``deletedObjects``
/// ### Fetching
/// - ``fetch(_:)``
/// - ``count(for:)``
/// ### Conflicts and merging
/// - ``mergePolicy``
/// - ``mergeChanges(fromContextDidSave:)``
/// - ``automaticallyMergesChangesFromParent``
/// ### Notifications
/// - ``didChangeObjectsNotification``
/// - ``willSaveObjectsNotification``
/// - ``didSaveObjectsNotification``
/// - ``NotificationKey``
/// ### Changes
/// - ``hasChanges``
/// - ``save()``
/// - ``rollback()``
/// - ``reset()``
open class NSManagedObjectContext: NSObject, NSLocking, @unchecked Sendable {
    // @unchecked Sendable: like Apple's, a context is used only on its own queue (through
    // perform/performAndWait); the queue serialises every access to its state.

    /// When the `async` ``perform(schedule:_:)`` runs its block.
    public enum ScheduledTaskType: Int, Sendable {
        /// Runs the block at once, inline, when the caller is already on the context's
        /// queue; otherwise enqueues it like ``enqueued``. The default.
        case immediate = 0
        /// Always adds the block to the end of the context's queue, after the work already
        /// waiting there, even when the caller is on that queue.
        ///
        /// - Note: Apple parity: Apple ends an enqueued task with
        ///   ``NSManagedObjectContext/processPendingChanges()``; here the block runs alone
        ///   (call it yourself, or save, to end the change event).
        case enqueued = 1
    }

    /// How this context serialises its work, as chosen at ``init(concurrencyType:)``.
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    /// A name for the context, for your own logs and debugging; it appears in the context's
    /// `description`. Nil by default.
    open var name: String?
    /// The author name persistent history records with this context's saves and batch
    /// requests (stores opened with `NSPersistentHistoryTrackingKey`).
    open var transactionAuthor: String?
    /// The coordinator the context fetches through and saves to. A child context (one
    /// with a ``parent``) returns its root context's coordinator.
    ///
    /// Setting it on a context that has a parent traps, as Apple raises.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { source?.coordinator }
        set {
            if newValue != nil, parentContext != nil {
                coreDataMisuse("Context already has a parent context; cannot set a coordinator.")
            }
            source = newValue.map { CoordinatorObjectSource($0, context: self) }
            if let newValue { ManagedClassRegistry.shared.noteModel(newValue.managedObjectModel) }
            if automaticallyMergesChangesFromParent { observeSavesForAutomaticMerging(true) }
        }
    }
    /// Where objects come from and saves go: the coordinator, or the parent context.
    var source: ObjectSource?
    /// The parent context, when this one is a child (see ``parent``).
    var parentContext: NSManagedObjectContext? { source?.parentContext }
    /// How conflicts found at save are resolved (see ``NSMergePolicy``): uniqueness
    /// conflicts, and optimistic-locking conflicts with rows another context, coordinator
    /// or process saved since this context read them. `NSErrorMergePolicy`, the default,
    /// makes the save throw.
    ///
    /// A value that is not an ``NSMergePolicy`` stops the program when a save needs it,
    /// with the unrecognized-selector message Apple's exception carries.
    ///
    /// - Note: Apple parity: the policy applies only in a context that saves to the store;
    ///   a child context's save replaces its parent's values.
    open var mergePolicy: Any = NSErrorMergePolicy
    /// How old (in seconds) a cached row may be when a fault fires: negative (the
    /// default) uses cached rows of any age, 0 always reads the store.
    open var stalenessInterval: TimeInterval = -1
    /// When a fault's row is gone from the store: true (the default) realizes the object
    /// with nil values and marks it deleted; false makes firing it fail (a trap, as
    /// Apple raises; the throwing paths throw).
    open var shouldDeleteInaccessibleFaults = true
    /// Merges the saves of the context's parent store into this one, on this context's
    /// queue (see ``mergeChanges(fromContextDidSave:)``): for a child context, each save
    /// of its parent context; for a root context, each save of another root context on
    /// the same coordinator.
    ///
    /// - Note: Apple parity: a main-queue context merges when the main queue runs.
    open var automaticallyMergesChangesFromParent = false {
        didSet { observeSavesForAutomaticMerging(automaticallyMergesChangesFromParent) }
    }
    var automaticMergeObserver: NSObjectProtocol?
    /// Records inserts, deletes and property changes for `undo()`/`redo()`; nil (no
    /// undo support, no cost) by default.
    ///
    /// - Note: Apple parity: nil by default, as on iOS (macOS contexts get one).
    open var undoManager: UndoManager?
    /// Whether the context keeps every registered object alive. False (the default): it
    /// holds strongly only the objects it must not lose (inserted, updated, deleted, and
    /// those marked with ``detectConflicts(for:)``), so an unchanged fetched object or fault
    /// that your code no longer references is released and leaves ``registeredObjects``; the
    /// next ``object(with:)`` or fetch makes a new one from the store. True: every
    /// registered object stays until ``reset()`` or until the context goes away, which costs
    /// memory but keeps loaded values at hand.
    ///
    /// ```swift
    /// let context = container.newBackgroundContext()
    /// context.retainsRegisteredObjects = true   // keep a working set loaded
    /// ```
    open var retainsRegisteredObjects = false {
        didSet {
            guard oldValue != retainsRegisteredObjects else { return }
            registry.setRetained(retainsRegisteredObjects)
        }
    }

    let queue: DispatchQueue
    let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    /// Backs ``userInfo``.
    let userInfoStorage = NSMutableDictionary()
    /// Backs the deprecated `lock()`/`unlock()`/`tryLock()`.
    let contextLock = NSRecursiveLock()
    /// Stores chosen with `assign(_:to:)` for inserted objects, by object.
    var assignedStores: [ObjectIdentifier: NSPersistentStore] = [:]
    /// Unchanged objects marked with `detectConflicts(for:)`, checked at the next save.
    var lockedObjects: [ObjectIdentifier: NSManagedObject] = [:]
    /// The query generation the context reads at (NSManagedObjectContext+QueryGenerations.swift).
    var generationPin = GenerationPin()

    // MARK: - Object graph state

    typealias RegistryKey = ObjectRegistry.Key

    /// Registered objects: those with permanent IDs by store, inheritance root and key,
    /// those with temporary IDs (inserted here, or a parent's inserted objects seen from a
    /// child context) by ID.
    let registry = ObjectRegistry()
    /// Inserted, deleted and changed objects, since the last save and in the current event.
    let changes = ChangeTracker()

    // MARK: - Creating

    /// Creates an empty context that serialises its work as `concurrencyType` says.
    ///
    /// The new context has neither a coordinator nor a parent: set
    /// ``persistentStoreCoordinator`` (a root context) or ``parent`` (a child context) before
    /// using it. `NSPersistentContainer` gives ready-made ones (`viewContext`,
    /// `newBackgroundContext()`).
    ///
    /// ```swift
    /// let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// context.persistentStoreCoordinator = container.persistentStoreCoordinator
    /// let count = try context.performAndWait {
    ///     try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
    /// }
    /// ```
    ///
    /// - Parameter ct: `.privateQueueConcurrencyType` for a context with a queue of its own,
    ///   `.mainQueueConcurrencyType` for one that runs on the main queue.
    public init(concurrencyType ct: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = ct
        if ct == .mainQueueConcurrencyType {
            queue = DispatchQueue.main
        } else {
            queue = DispatchQueue(label: "CoreData.NSManagedObjectContext")
        }
        super.init()
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        _ = NSManagedObject.runtimeInstalled
    }

    /// Creates a main-queue context (`.mainQueueConcurrencyType`).
    ///
    /// - Note: Apple parity: Apple's deprecated `init()` makes a confined context
    ///   (`.confinementConcurrencyType`); prefer ``init(concurrencyType:)`` on both.
    public convenience override init() {
        self.init(concurrencyType: .mainQueueConcurrencyType)
    }

    deinit {
        if let automaticMergeObserver { NotificationCenter.default.removeObserver(automaticMergeObserver) }
        // Objects may outlive the context: they must not point at it any more, and their
        // slots may reference each other in cycles, which clearing breaks.
        noteUnregistered(registry.takeReportedIDs())
        for object in allRegisteredObjects {
            object.context = nil
            object.storage.turnIntoFault()
        }
        // The objects keep the registry (they leave it in their deinit); its strong
        // references must not keep them.
        registry.removeAll()
        // Objects that outlive the context carry no marks of its change tracker.
        changes.removeAll()
    }

    var model: NSManagedObjectModel? { persistentStoreCoordinator?.managedObjectModel }

    // MARK: - Registered objects

    /// Every live registered object.
    var allRegisteredObjects: [NSManagedObject] { registry.objects }

    /// Every object the context holds: fetched objects, faults it handed out, and objects
    /// inserted but not saved. ``reset()`` empties it. Unless ``retainsRegisteredObjects`` is
    /// true, an unchanged object leaves the set once nothing else references it.
    open var registeredObjects: Set<NSManagedObject> { Set(allRegisteredObjects) }
    /// The objects inserted since the last save, which the next ``save()`` writes as new
    /// rows. An inserted object that is then deleted leaves this set (and the context) at the
    /// next ``processPendingChanges()``.
    open var insertedObjects: Set<NSManagedObject> { Set(changes.insertedObjects) }
    /// The saved objects marked for deletion since the last save, including those that
    /// delete rules cascaded to (after ``processPendingChanges()``). Deleting an object that
    /// was never saved does not put it here.
    open var deletedObjects: Set<NSManagedObject> { Set(changes.deletedObjects) }
    /// The saved objects whose properties were changed since the last save (neither inserted
    /// nor deleted): what the next ``save()`` writes as updates.
    open var updatedObjects: Set<NSManagedObject> { Set(changes.updatedObjects) }

    /// Whether the context has unsaved inserts, updates or deletes, that is whether
    /// ``save()`` has anything to write (or, in a child context, to hand to its parent).
    ///
    /// ```swift
    /// if context.hasChanges { try context.save() }
    /// ```
    open var hasChanges: Bool { changes.hasChanges }

    func registryKey(_ objectID: NSManagedObjectID) -> RegistryKey? {
        guard let pk = objectID.primaryKey, let store = objectID.storeReference?.liveIdentifier else { return nil }
        return RegistryKey(store: store, root: objectID.entity.runtime.rootID, pk: pk)
    }

    /// The object registered under an ID, without creating anything.
    open func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        if let key = registryKey(objectID) { return registry[key] }
        return registry[temporaryID: objectID]
    }

    func register(_ object: NSManagedObject) {
        object.context = self
        let key = registryKey(object.objectID)
        let released = registry.insert(object, key: key, retained: retainsRegisteredObjects)
        if !released.isEmpty { noteUnregistered(released) }
        if key != nil, object.objectID.storeReference?.talksToContexts == true {
            object.objectID.persistentStore?.contextDidRegister([object.objectID])
        }
    }

    func unregister(_ object: NSManagedObject) {
        registry.remove(object)
        if registryKey(object.objectID) != nil { noteUnregistered([object.objectID]) }
        changes.forget(object)
        if !assignedStores.isEmpty { assignedStores.removeValue(forKey: ObjectIdentifier(object)) }
        if !lockedObjects.isEmpty { lockedObjects.removeValue(forKey: ObjectIdentifier(object)) }
        object.context = nil
    }

    /// Tells the stores that want to know (`NSIncrementalStore`) that this context no
    /// longer holds these objects of theirs.
    func noteUnregistered(_ objectIDs: [NSManagedObjectID]) {
        var byStore: [ObjectIdentifier: (NSPersistentStore, [NSManagedObjectID])] = [:]
        for objectID in objectIDs where objectID.storeReference?.talksToContexts == true {
            guard let store = objectID.persistentStore else { continue }
            byStore[ObjectIdentifier(store), default: (store, [])].1.append(objectID)
        }
        for (store, objectIDs) in byStore.values { store.contextDidUnregister(objectIDs) }
    }

    /// The object for an ID: the registered one, or a new fault (no I/O). Apple's
    /// `object(with:)`.
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        guard let object = object(forSourceID: objectID) else {
            coreDataMisuse("Object's persistent store is not reachable from this NSManagedObjectContext's coordinator")
        }
        return object
    }

    /// The object for an ID the source handed over (or a caller named): the registered
    /// one, or a new fault; nil for a temporary ID that the source does not know.
    func object(forSourceID objectID: NSManagedObjectID) -> NSManagedObject? {
        if let object = registeredObject(for: objectID) { return object }
        if objectID.isTemporaryID, !(source?.knowsObject(withTemporaryID: objectID) ?? false) { return nil }
        return makeFault(objectID)
    }

    func makeFault(_ objectID: NSManagedObjectID) -> NSManagedObject {
        let object = makeUnregisteredFault(objectID)
        register(object)
        return object
    }

    /// A new fault for an ID, of the entity's class, not registered yet.
    func makeUnregisteredFault(_ objectID: NSManagedObjectID) -> NSManagedObject {
        makeUnregisteredFault(objectID, of: objectID.entity.runtime.objectClass)
    }

    /// ``makeUnregisteredFault(_:)`` with the entity's class already looked up (a fetch
    /// looks it up once per run of rows of one entity, not under a lock per row).
    func makeUnregisteredFault(_ objectID: NSManagedObjectID, of type: NSManagedObject.Type) -> NSManagedObject {
        FaultConstruction.set(objectID)
        let object = type.init(entity: objectID.entity, insertInto: nil)
        FaultConstruction.clear()
        return object
    }

    /// The object for an ID, loaded: throws when it no longer exists in the store.
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        if let object = registeredObject(for: objectID) {
            if object.isFault { try object.fireFaultThrowing(consultingContext: false) }
            return object
        }
        guard let source else {
            throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                "The context has no persistent store coordinator or parent to find \(objectID) in.",
                userInfo: [NSAffectedObjectsErrorKey: [objectID]])
        }
        guard let row = try source.checkExistence(of: objectID) else {
            guard let object = object(forSourceID: objectID) else {
                throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                    "The object \(objectID) is not in this context's parent chain.", userInfo: [NSAffectedObjectsErrorKey: [objectID]])
            }
            try object.fireFaultThrowing(consultingContext: false)
            return object
        }
        // The row names the concrete entity (the ID may name an abstract parent).
        let object = registeredObjectOrFault(entityID: row.entity.runtime.entityID, pk: row.pk,
                                             store: objectID.persistentStore, fallback: objectID.entity)!
        if object.isFault { object.realize(from: row) }
        return object
    }

    /// The registered object for a store key, or a new registered fault.
    func registeredObjectOrFault(entityID: Int, pk: Int64, store: NSPersistentStore?,
                                 fallback: NSEntityDescription?) -> NSManagedObject? {
        guard let store, let model, pk > 0 else { return nil }
        let entity = model.entity(forID: entityID) ?? fallback
        guard let entity else { return nil }
        let key = RegistryKey(store: ObjectIdentifier(store), root: entity.runtime.rootID, pk: pk)
        if let object = registry[key] { return object }
        return makeFault(NSManagedObjectID(entity: entity, store: store, reference: .permanent(pk)))
    }

    /// The object a row's to-one reference names: a registered object or a new fault (a
    /// key is read in the source object's store), nil for NULL or for a temporary ID that no
    /// ancestor knows.
    func destination(of relationship: NSRelationshipDescription, in row: StoreRow,
                     source: NSManagedObjectID) -> NSManagedObject? {
        switch row.values.reference(at: relationship.slot) {
        case let .key(key)?:
            return registeredObjectOrFault(entityID: key.entityID, pk: key.pk, store: source.persistentStore,
                                           fallback: relationship.destinationEntity)
        case let .objectID(objectID)?:
            return object(forSourceID: objectID)
        case nil:
            return nil
        }
    }

    // MARK: - Inserting and deleting

    /// Registers a new object for insertion on the next save.
    open func insert(_ object: NSManagedObject) {
        if object.context === self, object.isInsertedFlag { return }
        if let other = object.context, other !== self {
            coreDataMisuse("An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext.")
        }
        if object.isDeletedFlag {
            // Re-inserting a deleted object undoes the delete.
            object.isDeletedFlag = false
            changes.cancelDelete(object)
            return
        }
        register(object)
        object.isInsertedFlag = true
        changes.recordInsert(object)
        recordInsertion(object)
        object.awakeFromInsert()
    }

    /// Marks an object for deletion; delete rules run at `processPendingChanges()` or save.
    open func delete(_ object: NSManagedObject) {
        guard object.context === self else {
            if object.context == nil { return }
            coreDataMisuse("An NSManagedObject may only be deleted from the context that owns it.")
        }
        if object.isDeletedFlag { return }
        object.isDeletedFlag = true
        recordDeletion(object)
        if object.isInsertedFlag {
            // Never saved: it simply leaves the context once its relationships let go.
            changes.enqueueDeleteRules(for: object)
            return
        }
        object.fireFaultIfNeeded()
        changes.recordDelete(object)
        changes.enqueueDeleteRules(for: object)
    }

    /// Records that an object is about to change (updated set, current event).
    func noteWillChange(_ object: NSManagedObject) {
        changes.recordChange(object)
    }

    // MARK: - The source, for faults

    func row(forFault object: NSManagedObject) throws -> StoreRow? {
        try source?.row(for: object.objectID, maxAge: stalenessInterval)
    }

    /// The members of a to-many relationship of a registered object, as the source has
    /// them (registered objects or new faults).
    func relatedObjects(_ relationship: NSRelationshipDescription, of object: NSManagedObject) throws -> [NSManagedObject] {
        try source?.relatedObjects(relationship, of: object, into: self) ?? []
    }

    // MARK: - Overridable policies

    /// Whether deleted objects' delete rules run at the end of each event
    /// (`processPendingChanges()`), as by default, or only when the context saves.
    open var propagatesDeletesAtEndOfEvent = true

    /// Decides what happens when a fault's data is gone from the store (another context
    /// deleted it): return true to realize `fault` with nil values and mark it deleted,
    /// false to make reading it fail. The default returns ``shouldDeleteInaccessibleFaults``;
    /// override it to decide per object (`property` is nil: the property that fired the
    /// fault is not known).
    ///
    /// Not consulted by calls that throw instead (`existingObject(with:)`).
    ///
    /// ```swift
    /// override func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID,
    ///                                             triggeredByProperty property: NSPropertyDescription?) -> Bool {
    ///     fault.entity.name == "Draft" || super.shouldHandleInaccessibleFault(fault, for: oid, triggeredByProperty: property)
    /// }
    /// ```
    open func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID,
                                            triggeredByProperty property: NSPropertyDescription?) -> Bool {
        shouldDeleteInaccessibleFaults
    }

    open override var description: String {
        "<NSManagedObjectContext: \(name ?? "unnamed")>"
    }
}

extension NSManagedObjectModel {
    /// The entity with a store number (`Z_ENT`).
    func entity(forID entityID: Int) -> NSEntityDescription? {
        entitiesByStoreID[entityID]
    }
}

extension NSManagedObject {
    /// Fills a fault directly from a row already at hand (no second cache lookup).
    func realize(from row: StoreRow) {
        load(row)
        storage.markRealized()
        awakeFromFetch()
    }
}
