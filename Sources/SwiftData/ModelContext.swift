import CoreData

/// A scratch pad of model instances over a ``ModelContainer``'s store: insert, change and
/// delete models, then ``save()``; fetch them with a ``FetchDescriptor``. Underneath it is
/// an `NSManagedObjectContext`, so uniquing, change tracking and delete rules are Core
/// Data's.
///
/// ```swift
/// let context = ModelContext(container)
/// context.insert(Trip(name: "Alps", start: .now))
/// try context.save()
/// let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.start)]))
/// ```
///
/// A context and its models belong to one thread (or task) at a time, as on Apple's
/// systems.
///
/// ## Topics
/// ### Changing models
/// - ``insert(_:)``
/// - ``delete(_:)``
/// - ``delete(model:where:includeSubclasses:)``
/// - ``save()``
/// - ``rollback()``
/// - ``transaction(block:)``
/// ### Fetching
/// - ``fetch(_:)``
/// - ``fetchCount(_:)``
/// - ``fetchIdentifiers(_:)``
/// - ``enumerate(_:batchSize:allowEscapingMutations:block:)``
/// - ``model(for:)``
/// - ``registeredModel(for:)``
/// ### Notifications
/// - ``willSave``
/// - ``didSave``
/// - ``NotificationKey``
public final class ModelContext {
    /// The container whose store this context reads and writes.
    public let container: ModelContainer
    /// The Core Data context underneath.
    let managedObjectContext: NSManagedObjectContext

    /// Whether the context saves by itself after changes. True for the container's
    /// ``ModelContainer/mainContext``, false for contexts made with ``init(_:)``.
    ///
    /// - Note: Apple parity: the autosave runs when ``processPendingChanges()`` is called
    ///   or at the next turn of the main queue after a change, not on Apple's UI events.
    public var autosaveEnabled: Bool = false

    /// The name recorded as the author of this context's saves in the store's history
    /// (``HistoryTransaction/author``); nil by default.
    public var author: String? {
        get { managedObjectContext.transactionAuthor }
        set { managedObjectContext.transactionAuthor = newValue }
    }

    /// A new context over the container's store.
    public convenience init(_ container: ModelContainer) {
        let context = container.persistentContainer.newBackgroundContext()
        self.init(container, managedObjectContext: context)
    }

    init(_ container: ModelContainer, managedObjectContext: NSManagedObjectContext) {
        self.container = container
        self.managedObjectContext = managedObjectContext
        // Apple's SwiftData updates the record that has the same unique attributes.
        managedObjectContext.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
    }

    // MARK: - Notifications

    /// Posted by a context (the notification's object) before it writes its changes.
    public static let willSave = Notification.Name("ModelContextWillSave")

    /// Posted by a context (the notification's object) after it wrote its changes; the user
    /// info holds `[PersistentIdentifier]` arrays under ``NotificationKey`` raw values.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context,
    ///                                        queue: nil) { note in
    ///     let key = ModelContext.NotificationKey.insertedIdentifiers.rawValue
    ///     let inserted = note.userInfo?[key] as? [PersistentIdentifier] ?? []
    /// }
    /// ```
    public static let didSave = Notification.Name("ModelContextDidSave")

    /// The user-info keys of ``didSave``.
    public enum NotificationKey: String {
        /// The query generation the context reads (not posted here: contexts read the
        /// newest data).
        case queryGeneration
        /// Every model was invalidated (not posted by saves).
        case invalidatedAllIdentifiers
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save changed.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
    }

    // MARK: - Changing models

    /// Inserts a model (and the models its relationships reach that are not inserted
    /// yet); it is written at the next ``save()``. Inserting an inserted model does nothing.
    public func insert<T: PersistentModel>(_ model: T) {
        _ = managedObject(for: model)
        scheduleAutosave()
    }

    /// Marks a model for deletion at the next ``save()``, applying its relationships'
    /// delete rules. A model never inserted is left alone.
    public func delete<T: PersistentModel>(_ model: T) {
        guard let object = model.persistentBackingData.object else { return }
        managedObjectContext.delete(object)
        scheduleAutosave()
    }

    /// Deletes every model of a class that matches a predicate (all of them when it is
    /// nil), including pending inserts; with `includeSubclasses` false, models of the
    /// class's subclass models are left alone.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil,
                                           includeSubclasses: Bool = true) throws {
        for found in try fetch(FetchDescriptor<T>(predicate: predicate))
        where includeSubclasses || type(of: found) == T.self {
            delete(found)
        }
    }

    /// Writes the pending inserts, changes and deletions to the store, in one transaction.
    ///
    /// Posts ``willSave`` before writing and ``didSave`` after, with the identifiers of
    /// the inserted, updated and deleted models (see ``NotificationKey``); nothing is
    /// posted when there is nothing to save.
    ///
    /// - Throws: Core Data's `NSError` (validation, a unique or delete-rule conflict, a
    ///   read-only store).
    public func save() throws {
        guard managedObjectContext.hasChanges else { return }
        let center = NotificationCenter.default
        center.post(name: ModelContext.willSave, object: self)
        // Delete rules and inverses first, so that the sets below are what the save writes.
        managedObjectContext.processPendingChanges()
        let inserted = Array(managedObjectContext.insertedObjects)
        let updated = Array(managedObjectContext.updatedObjects)
        let deleted = managedObjectContext.deletedObjects.map { PersistentIdentifier($0.objectID) }
        try managedObjectContext.save()
        // Read after the save: inserted models' identifiers are permanent by now.
        center.post(name: ModelContext.didSave, object: self, userInfo: [
            NotificationKey.insertedIdentifiers.rawValue: inserted.map { PersistentIdentifier($0.objectID) },
            NotificationKey.updatedIdentifiers.rawValue: updated.map { PersistentIdentifier($0.objectID) },
            NotificationKey.deletedIdentifiers.rawValue: deleted,
        ])
    }

    /// Discards the pending inserts, changes and deletions.
    public func rollback() {
        managedObjectContext.rollback()
    }

    /// Whether there are unsaved inserts, changes or deletions.
    public var hasChanges: Bool { managedObjectContext.hasChanges }

    /// Runs `block`, then saves what it changed; if the block throws, its changes are
    /// rolled back and the error rethrown.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    /// Brings the context's pending changes up to date (delete rules, inverses), and saves
    /// when ``autosaveEnabled`` is on.
    public func processPendingChanges() {
        managedObjectContext.processPendingChanges()
        if autosaveEnabled { try? save() }
    }

    /// The models inserted and not saved yet.
    public var insertedModelsArray: [any PersistentModel] {
        managedObjectContext.insertedObjects.compactMap { anyModel(for: $0) }
    }

    /// The models changed and not saved yet.
    public var changedModelsArray: [any PersistentModel] {
        managedObjectContext.updatedObjects.compactMap { anyModel(for: $0) }
    }

    /// The models deleted and not saved yet.
    public var deletedModelsArray: [any PersistentModel] {
        managedObjectContext.deletedObjects.compactMap { anyModel(for: $0) }
    }

    // MARK: - Models by identifier

    /// The model with an identifier: the registered instance, or one whose values load on
    /// first access.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        guard let objectID = persistentModelID.objectID,
              let model = anyModel(for: managedObjectContext.object(with: objectID)) else {
            fatalError("SwiftData: no model of the container's schema has the identifier \(persistentModelID)")
        }
        return model
    }

    /// The model with an identifier if this context already holds it, else nil.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        guard let objectID = persistentModelID.objectID,
              let object = managedObjectContext.registeredObject(for: objectID) else { return nil }
        return anyModel(for: object) as? T
    }

    // MARK: - Bridging models and managed objects

    private var autosaveScheduled = false

    private func scheduleAutosave() {
        guard autosaveEnabled, !autosaveScheduled else { return }
        autosaveScheduled = true
        let box = UncheckedContext(self)
        DispatchQueue.main.async {
            box.context.autosaveScheduled = false
            if box.context.autosaveEnabled { try? box.context.save() }
        }
    }

    /// The managed object behind a model, inserting the model into this context first when
    /// it is not in one.
    func managedObject(for model: any PersistentModel) -> ModelObject {
        let backing = model.persistentBackingData
        if let object = backing.object {
            if let owner = object.managedObjectContext, owner !== managedObjectContext {
                fatalError(Self.foreignModelMessage(type(of: model)))
            }
            if object.managedObjectContext == nil, !object.isDeleted {
                // Rolled back or never saved elsewhere: insert it again here.
                managedObjectContext.insert(object)
                backing.context = self
            }
            return object
        }
        let entity = container.entityDescription(for: type(of: model))
        let object = ModelObject(entity: entity, insertInto: managedObjectContext)
        object.model = model
        backing.object = object
        backing.context = self
        let pending = backing.pending
        backing.pending = [:]
        for (key, value) in pending {
            object.setValue(ValueBridge.write(value, in: self), forKey: key)
        }
        return object
    }

    /// The trap's text when a model of another context is used in this one.
    static func foreignModelMessage(_ type: Any.Type) -> String {
        "SwiftData: a \(type) of another ModelContext was used in this one; models belong to the context "
            + "that inserted or fetched them. Pass its persistentModelID and look it up here with model(for:)."
    }

    /// The model instance of a managed object: the live one, or a new one over it.
    func model<T: PersistentModel>(for object: NSManagedObject, as type: T.Type) -> T {
        if let object = object as? ModelObject, let model = object.model as? T { return model }
        let actual = container.typesByEntityName[object.entity.name ?? ""] ?? T.self
        guard let made = makeModel(actual, object) as? T else {
            fatalError("SwiftData: \(object.entity.name ?? "?") is not a \(T.self)")
        }
        return made
    }

    func anyModel(for object: NSManagedObject) -> (any PersistentModel)? {
        if let object = object as? ModelObject, let model = object.model { return model }
        guard let type = container.typesByEntityName[object.entity.name ?? ""] else { return nil }
        return makeModel(type, object)
    }

    private func makeModel(_ type: any PersistentModel.Type, _ object: NSManagedObject) -> any PersistentModel {
        guard let object = object as? ModelObject else {
            fatalError("SwiftData: \(object.entity.name ?? "?") is not an entity of a SwiftData schema")
        }
        let model = type.init(backingData: BackingData(object: object, context: self))
        object.model = model
        return model
    }
}

/// Carries a context to the main queue for an autosave (the main context is used there).
private struct UncheckedContext: @unchecked Sendable {
    // @unchecked Sendable: only the main context schedules autosaves, on the main queue.
    let context: ModelContext
    init(_ context: ModelContext) { self.context = context }
}
