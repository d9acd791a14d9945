import Foundation

/// A Core Data object: an instance of an entity, living in one managed object context,
/// whose attribute and relationship values are stored in a runtime slot block (not in
/// Swift dictionaries) and loaded lazily when a fault fires.
///
/// ```swift
/// let item = NSManagedObject(entity: itemEntity, insertInto: context)
/// item.setValue("Milk", forKey: "name")
/// try context.save()
/// ```
///
/// Subclasses declare typed properties with ``Managed`` (Linux has no `@NSManaged`).
///
/// ## Topics
/// ### Creating
/// - ``init(entity:insertInto:)``
/// - ``init(context:)``
/// ### Identity
/// - ``entity``
/// - ``objectID``
/// - ``managedObjectContext``
/// ### State
/// - ``isFault``
/// - ``isInserted``
/// - ``isUpdated``
/// - ``isDeleted``
/// - ``hasChanges``
/// ### Reading and writing values
/// - ``value(forKey:)``
/// - ``setValue(_:forKey:)``
/// - ``value(forKeyPath:)``
/// - ``setValue(_:forKeyPath:)``
/// - ``dictionaryWithValues(forKeys:)``
/// - ``setValuesForKeys(_:)``
/// - ``primitiveValue(forKey:)``
/// - ``setPrimitiveValue(_:forKey:)``
/// ### Access and change hooks
/// - ``willAccessValue(forKey:)``
/// - ``didAccessValue(forKey:)``
/// - ``willChangeValue(forKey:)``
/// - ``didChangeValue(forKey:)``
/// ### Lifecycle hooks
/// - ``awakeFromInsert()``
/// - ``awakeFromFetch()``
/// - ``awake(fromSnapshotEvents:)``
/// - ``willSave()``
/// - ``didSave()``
/// - ``willTurnIntoFault()``
/// - ``didTurnIntoFault()``
/// - ``prepareForDeletion()``
open class NSManagedObject: NSObject, NSFetchRequestResult {
    /// The entity that describes the object.
    public let entity: NSEntityDescription
    /// The object's ID: temporary until the object is first saved, then permanent.
    public internal(set) var objectID: NSManagedObjectID
    /// The context that owns the object (unowned: a context clears it when it lets the
    /// object go or goes away itself).
    public var managedObjectContext: NSManagedObjectContext? { context }
    unowned(unsafe) var context: NSManagedObjectContext?

    /// The runtime slot block holding the values, the fault state and the dirty bits.
    let storage: ObjectSlots

    /// The row the object was last read from or saved as: the committed snapshot that
    /// `committedValues(forKeys:)` and `changedValues()` compare with.
    var committedRow: StoreRow?

    /// Lifecycle flags kept on the object so that hot paths need no set lookups.
    var isInsertedFlag = false
    var isDeletedFlag = false
    /// Whether ``registry`` lists the object under its permanent key (else its temporary ID).
    var isRegisteredPermanently = false
    /// Which of its context's change tracker's "touched" lists hold the object (bits of
    /// `ChangeTracker.Mark`), so that recording a change needs no dictionary lookup.
    var changeMarks: UInt8 = 0
    /// `willChangeValue(forKey:)` calls not yet closed by `didChangeValue(forKey:)`: inside
    /// such a bracket `setPrimitiveValue(_:forKey:)` records a change (Apple's custom
    /// accessor pattern); outside it, it does not.
    var changeBracketDepth: UInt16 = 0
    /// The keys of to-many relationships as last loaded or saved, for the link diff.
    var committedToMany: [Int32: [NSManagedObject]] = [:]
    /// Values whose type did not fit their attribute (reported by validation on save, as
    /// Apple reports them) by slot.
    var invalidValues: [Int32: Any] = [:]
    /// The registry of the context that registered the object, which the object leaves
    /// when it goes away (see ``ObjectRegistry``).
    var registry: ObjectRegistry?

    // MARK: - Creating

    /// Creates an object of `entity` and inserts it into `context` (when not nil).
    ///
    /// - Note: Apple parity: an abstract entity traps, as Apple raises.
    public required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        _ = NSManagedObject.runtimeInstalled
        if let faultID = FaultConstruction.take() {
            // A context is materialising a fetched object: build a fault, not an insert.
            self.entity = faultID.entity
            self.objectID = faultID
            self.storage = ObjectSlots(faultOf: faultID.entity.runtime.layout)
            super.init()
            storage.setOwner(self)
            return
        }
        guard let runtime = entity.runtime else {
            coreDataMisuse("The entity \(entity.name ?? "?") belongs to a model that no persistent store coordinator uses yet.")
        }
        if entity.isAbstract {
            coreDataMisuse("Cannot create an instance of abstract entity \(entity.name ?? "?").")
        }
        self.entity = entity
        self.objectID = .temporary(for: entity)
        self.storage = ObjectSlots(realizedOf: runtime.layout)
        super.init()
        storage.setOwner(self)
        applyDefaultValues()
        if let context {
            context.insert(self)
        }
    }

    /// Creates an object of the entity whose class is this subclass, in `context`.
    public convenience init(context: NSManagedObjectContext) {
        guard let entity = Self.entity(in: context) else {
            coreDataMisuse("No entity of the model of \(context) has the class \(String(reflecting: Self.self)) (set its representedClassName).")
        }
        self.init(entity: entity, insertInto: context)
    }

    deinit {
        // Unregisters the object from its context's registry, which holds it unretained.
        registry?.objectDidDeinit(self)
    }

    // MARK: - Class-level entity lookup

    /// The entity of this class, found by class name in the models the process has loaded
    /// (read from a model file, merged with `mergedModel(from:)` or `init(byMerging:)`, or
    /// used by a coordinator), the newest first: it works before any context exists.
    ///
    /// Traps when no loaded model has an entity of this class, as Apple raises.
    open class func entity() -> NSEntityDescription {
        guard let entity = ManagedClassRegistry.shared.entity(for: self) else {
            coreDataMisuse("No NSEntityDescription in any model claims the NSManagedObject subclass '\(String(reflecting: self))'.")
        }
        return entity
    }

    class func entity(in context: NSManagedObjectContext) -> NSEntityDescription? {
        ManagedClassRegistry.shared.register(self)
        guard let model = context.model else { return nil }
        return ManagedClassRegistry.shared.entity(for: self, in: model)
    }

    /// Makes this subclass findable by the class name an entity gives
    /// (`representedClassName`), when Foundation's `NSClassFromString` cannot find it.
    ///
    /// - Note: Apple parity: the Objective-C runtime finds every class by name; on Linux
    ///   `NSClassFromString` finds only module-qualified names. Classes are also
    ///   registered when first used through `init(context:)`, `entity()` or
    ///   `fetchRequest()`.
    open class func registerSubclass() {
        ManagedClassRegistry.shared.register(self)
    }

    /// A fetch request for this class's entity.
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        ManagedClassRegistry.shared.register(self)
        if let entity = ManagedClassRegistry.shared.entity(for: self) {
            let request = NSFetchRequest<NSFetchRequestResult>()
            request.entity = entity
            return request
        }
        return NSFetchRequest<NSFetchRequestResult>(entityName: ManagedClassRegistry.simpleName(of: self))
    }

    // MARK: - State

    /// Whether the object was inserted into its context and not saved yet: true from
    /// `insert(_:)` (or `init(entity:insertInto:)` with a context) until the save that writes
    /// it, a rollback, or an undo of the insertion.
    open var isInserted: Bool { isInsertedFlag && context != nil }
    /// Whether the object is marked for deletion in its context: true from `delete(_:)` (or a
    /// cascading delete rule) until the save that removes its row, a rollback, or an undo.
    /// A fault whose row turned out to be gone also reports itself deleted (see
    /// ``NSManagedObjectContext/shouldDeleteInaccessibleFaults``).
    open var isDeleted: Bool { isDeletedFlag && context != nil }
    /// Whether the object has unsaved changes to its properties.
    open var isUpdated: Bool {
        context != nil && !isInsertedFlag && !isDeletedFlag && storage.hasDirty
    }
    /// Whether the object has anything for the next save to write: it is inserted, deleted
    /// or updated.
    open var hasChanges: Bool { isInserted || isDeleted || isUpdated }

    // MARK: - Access and change notifications (override points)

    /// Fires the fault before a value is read. Subclasses calling primitive accessors
    /// wrap them in `willAccessValue`/`didAccessValue`, as on Apple platforms.
    open func willAccessValue(forKey key: String?) {
        fireFaultIfNeeded()
    }

    /// Called after a value was read through `value(forKey:)` or a ``Managed`` property;
    /// pairs with ``willAccessValue(forKey:)``. The default does nothing.
    ///
    /// - Parameter key: The property read, or nil when the access is not about one key.
    open func didAccessValue(forKey key: String?) {}

    /// Called before a property changes through `setValue(_:forKey:)`, a ``Managed``
    /// property or a to-many proxy. The default fires the fault, so the change applies to
    /// loaded values, and opens a change: a `setPrimitiveValue(_:forKey:)` made before the
    /// matching ``didChangeValue(forKey:)`` is recorded (it dirties the property, as a setter
    /// would). Overrides call `super`. Subclasses that write primitive values themselves wrap
    /// them in `willChangeValue`/``didChangeValue(forKey:)``.
    ///
    /// ```swift
    /// var title: String? {
    ///     get { willAccessValue(forKey: "title"); defer { didAccessValue(forKey: "title") }
    ///           return primitiveValue(forKey: "title") as? String }
    ///     set { willChangeValue(forKey: "title"); defer { didChangeValue(forKey: "title") }
    ///           setPrimitiveValue(newValue, forKey: "title") }
    /// }
    /// ```
    ///
    /// - Note: Apple parity: Apple's also drive key-value observing; Linux has no KVO, so
    ///   here they are override points only. Changes made by undo, rollback, refresh,
    ///   merging or inverse-relationship upkeep (on the related objects) do not call them.
    open func willChangeValue(forKey key: String) {
        fireFaultIfNeeded()
        changeBracketDepth &+= 1
    }

    /// Called after a property changed through `setValue(_:forKey:)`, a ``Managed``
    /// property or a to-many proxy; closes the change opened by ``willChangeValue(forKey:)``.
    /// Overrides call `super`.
    open func didChangeValue(forKey key: String) {
        if changeBracketDepth > 0 { changeBracketDepth -= 1 }
    }

    /// Announces a change to the members of the to-many relationship `inKey` (objects
    /// added, removed, kept or replaced, as `inMutationKind` says): the same as
    /// ``willChangeValue(forKey:)`` here. Overrides call `super`.
    open func willChangeValue(forKey inKey: String, withSetMutation inMutationKind: NSKeyValueSetMutationKind,
                              using inObjects: Set<AnyHashable>) {
        willChangeValue(forKey: inKey)
    }

    /// Closes the change opened by
    /// ``willChangeValue(forKey:withSetMutation:using:)``. Overrides call `super`.
    open func didChangeValue(forKey inKey: String, withSetMutation inMutationKind: NSKeyValueSetMutationKind,
                             using inObjects: Set<AnyHashable>) {
        didChangeValue(forKey: inKey)
    }

    /// Whether changing a property the model does not know leaves the object unchanged:
    /// true, as on Apple since 10.6.
    ///
    /// - Note: Apple parity: properties the model does not declare are plain Swift
    ///   properties here, never tracked, so this is always true in effect.
    open class var contextShouldIgnoreUnmodeledPropertyChanges: Bool { true }

    // MARK: - Validation (override points)

    /// Checks the object before it is first saved. Overrides call `super` first.
    open func validateForInsert() throws {
        try validatePropertyValues()
    }

    /// Checks the object before its changes are saved. Overrides call `super` first.
    open func validateForUpdate() throws {
        try validatePropertyValues()
    }

    /// Checks that the object may be deleted (Deny rules). Overrides call `super` first.
    open func validateForDelete() throws {
        try validateDeleteRules()
    }

    /// Checks one value for a property: the model's rules (mandatory, type, min/max
    /// value or length, regular expression, date bounds, to-many counts, validation
    /// predicates). Saving calls it for every property of each inserted and updated object.
    ///
    /// Override it for custom per-key validation (Apple's `validate<Key>(_:)` methods,
    /// which need the Objective-C runtime): switch on `key`, throw an `NSError` (see
    /// ``validationError(code:key:value:message:)``), and call `super` for the model's
    /// rules. An override may also replace `value` to coerce it.
    ///
    /// ```swift
    /// override func validateValue(_ value: inout Any?, forKey key: String) throws {
    ///     try super.validateValue(&value, forKey: key)
    ///     if key == "name", (value as? String)?.contains("/") == true {
    ///         throw validationError(code: NSManagedObjectValidationError, key: key, value: value,
    ///                               message: "A name cannot contain a slash.")
    ///     }
    /// }
    /// ```
    ///
    /// - Note: Apple parity: Apple's Swift signature takes an
    ///   `AutoreleasingUnsafeMutablePointer<AnyObject?>`, which Linux lacks; this takes
    ///   `inout Any?`, so call sites read the same: `try object.validateValue(&value, forKey: "name")`.
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        try validateModelRules(value, forKey: key)
    }

    // MARK: - Lifecycle hooks (override points)

    /// Called once, when the object is first inserted into a context.
    open func awakeFromInsert() {}
    /// Called when a fault is fulfilled from the store.
    open func awakeFromFetch() {}
    /// Called after a snapshot change (undo, redo, rollback) reshaped the object.
    open func awake(fromSnapshotEvents flags: NSSnapshotEventType) {}
    /// Called before the object is saved.
    open func willSave() {}
    /// Called after the object was saved.
    open func didSave() {}
    /// Called before the object's values are dropped to make it a fault again, while they
    /// can still be read: by `refresh(_:mergeChanges:)` (and `refreshAllObjects()`) when it
    /// faults the object, and by `rollback()` for a changed object with no saved snapshot.
    ///
    /// `reset()`, a merged deletion and the context going away discard values without
    /// calling it.
    open func willTurnIntoFault() {}
    /// Called after the object became a fault (see ``willTurnIntoFault()``): release
    /// anything derived from its values here.
    open func didTurnIntoFault() {}
    /// Called when the object is about to be deleted (before delete rules run).
    open func prepareForDeletion() {}

    open override var description: String {
        let name = entity.name ?? "?"
        let address = "0x" + String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        if isFault { return "<\(type(of: self)): \(address)> (entity: \(name); id: \(objectID); data: <fault>)" }
        let values = entity.runtime.slotProperties.map { property -> String in
            "    \(property.name) = \(describe(primitiveValue(atSlot: property.slot, property: property)));"
        }
        return "<\(type(of: self)): \(address)> (entity: \(name); id: \(objectID); data: {\n\(values.joined(separator: "\n"))\n})"
    }

    private func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let object as NSManagedObject: return object.objectID.description
        case let set as Set<NSManagedObject>: return "<relationship fault: \(set.count) objects>"
        case let value?: return "\(value)"
        }
    }
}

/// Snapshot events passed to `awake(fromSnapshotEvents:)` (Apple's raw values).
public struct NSSnapshotEventType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Undo took back the object's insertion: it has left its context.
    public static let undoInsertion = NSSnapshotEventType(rawValue: 1 << 1)
    /// Undo took back the object's deletion: it is in its context again, not deleted.
    public static let undoDeletion = NSSnapshotEventType(rawValue: 1 << 2)
    /// Undo (or redo) put back an earlier value of one of the object's properties.
    public static let undoUpdate = NSSnapshotEventType(rawValue: 1 << 3)
    /// `rollback()` reloaded the object's saved values, discarding its changes.
    public static let rollback = NSSnapshotEventType(rawValue: 1 << 4)
    /// A refresh reloaded the object's values.
    ///
    /// - Note: Apple parity: declared with Apple's value, but never delivered here:
    ///   refreshing calls no `awake(fromSnapshotEvents:)`.
    public static let refresh = NSSnapshotEventType(rawValue: 1 << 5)
    /// A merge policy changed the object while resolving a save's conflicts.
    ///
    /// - Note: Apple parity: declared with Apple's value, but never delivered here: the
    ///   merge policies change objects without calling `awake(fromSnapshotEvents:)`.
    public static let mergePolicy = NSSnapshotEventType(rawValue: 1 << 6)
}
