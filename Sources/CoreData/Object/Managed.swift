import Foundation

/// A typed, stored property of an `NSManagedObject` subclass: Linux's replacement for
/// `@NSManaged`, which links to nothing without the Objective-C runtime.
///
/// ```swift
/// final class ShoppingItem: NSManagedObject {
///     @Managed var name: String?
///     @Managed var quantity: Int64
///     @Managed var list: ShoppingList?
///     @Managed var tags: Set<Tag>
/// }
/// ```
///
/// The property's name is the attribute's or relationship's key; write
/// `@Managed(key: "other") var name: String?` when they differ. Reads fire the fault and
/// writes record the change and keep inverses in step, exactly like `value(forKey:)` and
/// `setValue(_:forKey:)`.
///
/// - Note: Apple parity: Apple's `@NSManaged` relies on the Objective-C runtime; this
///   wrapper reaches the object through Swift's `_enclosingInstance` subscript.
@propertyWrapper
public struct Managed<Value> {
    /// Nil for a property named by its own name: the storage is one word in every object,
    /// so that objects with many properties stay small.
    var info: ManagedStorageInfo?

    /// The key given with `@Managed(key:)`.
    var key: String? { info?.key }
    /// Set only while the property's name is being looked up (see `managedKey`).
    var token: Int { info?.token ?? 0 }

    /// Declares a managed property, stored under `key` in the entity, or under the
    /// property's own name when `key` is nil.
    ///
    /// ```swift
    /// @Managed(key: "title") var name: String?
    /// ```
    ///
    /// - Parameter key: The attribute's or relationship's name in the model, when it
    ///   differs from the Swift property's name.
    public init(key: String? = nil) {
        self.info = key.map { ManagedStorageInfo(key: $0, token: 0) }
    }

    /// Lets a declaration carry an initial value (`@Managed var quantity: Int64 = 1`); the
    /// value is ignored. A new object starts with the model's default values (set
    /// `defaultValue` on the attribute, or assign in `awakeFromInsert()`), and a fetched one
    /// with the stored values.
    ///
    /// - Note: Apple parity: Apple's `@NSManaged` properties cannot have an initial value;
    ///   here one compiles, and does nothing.
    public init(wrappedValue: Value, key: String? = nil) {
        self.init(key: key)
    }

    @available(*, unavailable, message: "@Managed is only available on NSManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    public static subscript<Object: NSManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            object.managedValue(resolve(object, storageKeyPath), as: Value.self)
        }
        set {
            object.setManagedValue(newValue, resolve(object, storageKeyPath))
        }
    }

    /// The property behind a storage key path, for the object's entity: cached per key
    /// path, so that an access costs no string hashing or reflection.
    @inline(__always)
    private static func resolve<Object: NSManagedObject>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> ManagedResolution {
        if let resolution = ManagedPropertyCache.shared.resolution(for: storage, entity: object.entity) {
            return resolution
        }
        return resolveSlowly(object, storage)
    }

    @inline(never)
    private static func resolveSlowly<Object: NSManagedObject>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> ManagedResolution {
        if let resolution = ManagedPropertyCache.shared.resolve(storage, entity: object.entity, as: Value.self) {
            return resolution
        }
        let key = object[keyPath: storage].key ?? object.managedKey(for: storage)
        ManagedPropertyCache.shared.insert(key, for: storage)
        return ManagedPropertyCache.shared.resolve(storage, entity: object.entity, as: Value.self)
            ?? ManagedResolution(key: key, entity: object.entity, valueType: Value.self)
    }
}

/// What a `Managed` storage holds besides nothing: an explicit key, or the marker of a
/// name lookup in progress.
final class ManagedStorageInfo {
    let key: String?
    let token: Int
    init(key: String?, token: Int) {
        self.key = key
        self.token = token
    }
}

/// Unique markers that let a `Managed` storage find its own property name once.
enum ManagedToken {
    private static let counter = LockedCounter()
    static func next() -> Int { counter.next() }
}

/// A storage value that mirrors can recognise.
protocol ManagedStorage { var token: Int { get } }
extension Managed: ManagedStorage {}

extension NSManagedObject {
    /// The name of a `@Managed` property, found by reflection (once per key path: the
    /// caller caches it): the storage is marked with a unique token, and the child
    /// `_name` of the object's mirror that carries it names the property.
    func managedKey<Object: NSManagedObject, Value>(for path: ReferenceWritableKeyPath<Object, Managed<Value>>) -> String {
        guard let object = self as? Object else { coreDataMisuse("@Managed storage of another class") }
        let marker = ManagedToken.next()
        let saved = object[keyPath: path].info
        object[keyPath: path].info = ManagedStorageInfo(key: saved?.key, token: marker)
        defer { object[keyPath: path].info = saved }
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let storage = child.value as? ManagedStorage, storage.token == marker,
                   var label = child.label {
                    if label.hasPrefix("_") { label.removeFirst() }
                    return label
                }
            }
            mirror = current.superclassMirror
        }
        coreDataMisuse("Could not find the name of a @Managed property of \(type(of: self)); write @Managed(key: \"name\").")
    }
}

/// Converts KVC values to the declared Swift type of a `@Managed` property.
enum ManagedConversion {
    static func cast<Value>(_ value: Any?, to type: Value.Type, key: String) -> Value {
        if let direct = value as? Value { return direct }
        if let number = value as? NSNumber {
            switch type {
            case is Int.Type, is Int?.Type: return number.intValue as! Value
            case is Int16.Type, is Int16?.Type: return number.int16Value as! Value
            case is Int32.Type, is Int32?.Type: return number.int32Value as! Value
            case is Int64.Type, is Int64?.Type: return number.int64Value as! Value
            case is Double.Type, is Double?.Type: return number.doubleValue as! Value
            case is Float.Type, is Float?.Type: return number.floatValue as! Value
            case is Bool.Type, is Bool?.Type: return number.boolValue as! Value
            default: break
            }
        }
        if value == nil {
            // Optional properties read nil; scalar ones read zero, as @NSManaged scalars do.
            if let none = Optional<Any>.none as? Value { return none }
            switch type {
            case is Int.Type: return 0 as! Value
            case is Int16.Type: return Int16(0) as! Value
            case is Int32.Type: return Int32(0) as! Value
            case is Int64.Type: return Int64(0) as! Value
            case is Double.Type: return 0.0 as! Value
            case is Float.Type: return Float(0) as! Value
            case is Bool.Type: return false as! Value
            case is String.Type: return "" as! Value
            default: break
            }
        }
        if let set = value as? Set<NSManagedObject> {
            if let typed = Set(set.map { $0 as AnyHashable }) as? Value { return typed }
            if let array = Array(set) as? Value { return array }
            if Value.self == NSSet.self || Value.self == NSSet?.self { return NSSet(array: Array(set)) as! Value }
        }
        if let ordered = value as? NSOrderedSet {
            if let array = ordered.array as? Value { return array }
            if let typed = Set(ordered.array.map { $0 as! AnyHashable }) as? Value { return typed }
        }
        if let empty = Set<AnyHashable>() as? Value, value == nil { return empty }
        coreDataMisuse("The value of \(key) (\(String(describing: value))) is not a \(type).")
    }
}
