import CoreData

/// Where a model instance's persisted values live: in the instance itself until it is
/// inserted into a context, then in the context's managed object (`NSManagedObject`), so
/// that Core Data's change tracking, faulting and saving do the work.
///
/// `@Model` stores one per instance; its accessors call ``getValue(forKey:)`` and
/// ``setValue(_:forKey:)``.
///
/// - Note: Apple parity: Apple's `BackingData` is a protocol with one implementation per
///   store; here it is one class.
public final class BackingData {
    /// Values set before the instance was inserted, by property name.
    var pending: [String: Any] = [:]
    /// The managed object, once the instance is inserted or fetched.
    var object: ModelObject?
    /// The context that inserted or fetched the instance.
    var context: ModelContext?
    /// The identifier an instance has before it is inserted.
    private var unmanagedID: UUID?

    /// Creates empty backing data: the state of a model instance not yet inserted.
    public init() {}

    init(object: ModelObject, context: ModelContext) {
        self.object = object
        self.context = context
    }

    /// The value of the persisted property `key`, as the property's type.
    public func getValue<Value>(forKey key: String) -> Value {
        if let object, let context {
            return ValueBridge.read(object.value(forKey: key), as: Value.self, in: context)
        }
        if let value = pending[key] { return value as! Value }
        if let optional = Value.self as? any OptionalBridge.Type { return optional.noneValue as! Value }
        fatalError("SwiftData: '\(key)' has no value: the instance was neither initialized nor inserted")
    }

    /// Sets the persisted property `key`. Setting a model (or an array of models) on an
    /// inserted instance inserts those models into the same context, as Apple does.
    public func setValue<Value>(_ value: Value, forKey key: String) {
        if let object, let context {
            object.setValue(ValueBridge.write(value, in: context), forKey: key)
        } else {
            pending[key] = value
        }
    }

    /// Sets the persisted property `key` of `model` (what a property's setter calls). When
    /// `model` is not inserted and the value is a model in a context, `model` is inserted
    /// into that context first, so the relationship and its inverse are kept there, as
    /// Apple does.
    public func setValue<Model: PersistentModel, Value>(_ value: Value, forKey key: String, of model: Model) {
        if object == nil, let context = ValueBridge.context(of: value) {
            context.insert(model)
        }
        setValue(value, forKey: key)
    }

    /// Takes over the values a subclass model's initializers kept in `other` before
    /// `super.init` (what a subclass's `persistentBackingData` calls); `other` is left empty.
    public func adopt(_ other: BackingData) {
        guard other !== self, !other.pending.isEmpty else { return }
        let values = other.pending
        other.pending = [:]
        if let object, let context {
            for (key, value) in values { object.setValue(ValueBridge.write(value, in: context), forKey: key) }
        } else {
            pending.merge(values) { _, subclassValue in subclassValue }
        }
    }

    func identifier<Model: PersistentModel>(for type: Model.Type) -> PersistentIdentifier {
        if let object { return PersistentIdentifier(object.objectID) }
        if unmanagedID == nil { unmanagedID = UUID() }
        return PersistentIdentifier(unmanaged: unmanagedID!, entityName: Schema.entityName(of: type))
    }
}
