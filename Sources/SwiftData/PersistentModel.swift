import CoreData

/// A class whose instances a ``ModelContext`` stores: what `@Model` conforms a class to.
///
/// Write `@Model` rather than conforming by hand; the macro provides every requirement.
///
/// ## Topics
/// ### Identity and state
/// - ``persistentModelID``
/// - ``modelContext``
/// - ``isDeleted``
/// - ``hasChanges``
///
/// - Note: Apple parity: Apple's protocol also refines `Observable` and types its backing
///   data as `any BackingData<Self>`; here the backing data is one concrete class,
///   ``BackingData``.
public protocol PersistentModel: AnyObject, Hashable, Identifiable {
    /// Where the model's values live: in the instance until it is inserted, then in the
    /// context's managed object.
    var persistentBackingData: BackingData { get set }
    /// Each persisted property's name, key path and options, written by `@Model`.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// Creates an instance over existing backing data (used when fetching).
    init(backingData: BackingData)
    /// The key paths of each `#Unique` constraint, written by `@Model`.
    static var _swiftDataUniqueness: [[AnyKeyPath]] { get }
    /// The key paths of each `#Index`, written by `@Model`.
    static var _swiftDataIndexes: [[AnyKeyPath]] { get }
    /// The properties of the model's superclasses, with key paths rooted at this class
    /// (`\Sub.name`, where `name` is the superclass's), written by `@Model` on subclasses.
    static var _swiftDataInheritedKeyPaths: [(AnyKeyPath, String)] { get }
}

extension PersistentModel {
    /// No `#Unique` constraints.
    public static var _swiftDataUniqueness: [[AnyKeyPath]] { [] }
    /// No `#Index` indexes.
    public static var _swiftDataIndexes: [[AnyKeyPath]] { [] }
    /// No superclass properties.
    public static var _swiftDataInheritedKeyPaths: [(AnyKeyPath, String)] { [] }

    /// The identifier of the model's record: temporary until the model's context saves it.
    public var persistentModelID: PersistentIdentifier { persistentBackingData.identifier(for: Self.self) }

    /// The context the model is inserted into or was fetched through; nil before insertion.
    public var modelContext: ModelContext? {
        persistentBackingData.object?.managedObjectContext == nil ? nil : persistentBackingData.context
    }

    /// Whether the model's context has deleted it (until the deletion is saved).
    public var isDeleted: Bool { persistentBackingData.object?.isDeleted ?? false }

    /// Whether the model has unsaved insertions, changes or a deletion.
    public var hasChanges: Bool { persistentBackingData.object?.hasChanges ?? false }

    /// The model's identifier, as `Identifiable` asks.
    public var id: PersistentIdentifier { persistentModelID }

    /// Two models are equal when they are the same instance.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The value of a persisted property, by key path.
    public func getValue<Value>(forKey keyPath: KeyPath<Self, Value>) -> Value {
        self[keyPath: keyPath]
    }

    /// Sets a persisted property, by key path.
    public func setValue<Value>(forKey keyPath: ReferenceWritableKeyPath<Self, Value>, to newValue: Value) {
        self[keyPath: keyPath] = newValue
    }
}
