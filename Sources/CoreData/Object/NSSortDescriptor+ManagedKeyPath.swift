import Foundation

/// Swift key paths to `@Managed` properties: `NSSortDescriptor(keyPath: \Item.quantity,
/// ascending: true)`.
///
/// For a non-optional `Comparable` value, Foundation's own initializer is the one Swift
/// picks; fetches turn such a descriptor into a key-based one (``SortKeyResolver``), so it
/// sorts in SQL like `NSSortDescriptor(key: "quantity", ascending: true)`, and its
/// ``NSSortDescriptor/key`` is the property's key. Optional and `Bool` properties, which
/// Foundation's initializer does not accept, get the initializers below.
///
/// - Note: Apple parity: Apple reads the key from the `@objc` key path; Swift on Linux
///   has no such string, so the property's key is found once per key path by reading
///   it from a scratch instance of `Root` (not inserted in any context). The initializers
///   below trap when `Root` has no entity in a loaded model or the key path is not a
///   `@Managed` attribute; write `NSSortDescriptor(key:ascending:)` then.
extension _SortDescriptorFactory where Self: NSSortDescriptor {

    /// Sorts by an optional `@Managed` property (`String?`, `Date?` …); nil sorts first
    /// when ascending.
    public init<Root: NSManagedObject, Value: Comparable>(keyPath: KeyPath<Root, Value?>, ascending: Bool) {
        self.init(key: ManagedKeyPathResolver.key(for: keyPath), ascending: ascending)
    }

    /// Sorts by a `Bool` `@Managed` property (false first when ascending).
    public init<Root: NSManagedObject>(keyPath: KeyPath<Root, Bool>, ascending: Bool) {
        self.init(key: ManagedKeyPathResolver.key(for: keyPath), ascending: ascending)
    }
}

/// Finds the model key behind a Swift key path to a `@Managed` property.
///
/// A scratch instance of the class (never inserted) gets one distinctive value per
/// attribute in turn; the attribute whose value comes back through the key path is the
/// one it reads. Results are cached per key path.
enum ManagedKeyPathResolver {
    private static let cache = KeyCache()

    static func key<Root: NSManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String {
        guard ManagedClassRegistry.shared.entity(for: Root.self) != nil else {
            coreDataMisuse("NSSortDescriptor(keyPath:): no NSEntityDescription in any model claims the class '\(String(reflecting: Root.self))'; use NSSortDescriptor(key:ascending:).")
        }
        guard let key = key(forAny: keyPath) else {
            coreDataMisuse("NSSortDescriptor(keyPath:): \(keyPath) is not a @Managed attribute of \(Root.self); use NSSortDescriptor(key:ascending:).")
        }
        return key
    }

    /// The key behind `keyPath`, or nil when its root is not a managed object class with
    /// an entity, or it reads no attribute.
    static func key(forAny keyPath: AnyKeyPath) -> String? {
        if let key = cache.key(for: keyPath) { return key }
        guard let root = type(of: keyPath).rootType as? NSManagedObject.Type,
              let entity = ManagedClassRegistry.shared.entity(for: root) else { return nil }
        let probe = root.init(entity: entity, insertInto: nil)
        let attributes = entity.properties.compactMap { $0 as? NSAttributeDescription }
        for attribute in attributes { probe.setPrimitiveValue(nil, forKey: attribute.name) }
        for (index, attribute) in attributes.enumerated() {
            guard let sentinel = sentinel(for: attribute, index) else { continue }
            probe.setPrimitiveValue(sentinel, forKey: attribute.name)
            let read = probe[keyPath: keyPath]
            probe.setPrimitiveValue(nil, forKey: attribute.name)
            if PredicateValue.isEqual(read, sentinel) {
                cache.set(attribute.name, for: keyPath)
                return attribute.name
            }
        }
        return nil
    }

    /// A value only `attribute` holds during the probe.
    private static func sentinel(for attribute: NSAttributeDescription, _ index: Int) -> Any? {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return NSNumber(value: 1000 + index)
        case .doubleAttributeType, .floatAttributeType: return NSNumber(value: Double(index) + 1000.5)
        case .decimalAttributeType: return NSDecimalNumber(value: 1000 + index)
        case .booleanAttributeType: return NSNumber(value: true)
        case .stringAttributeType: return "\u{1}\(attribute.name)"
        case .dateAttributeType: return Date(timeIntervalSinceReferenceDate: 1000 + Double(index))
        case .UUIDAttributeType: return UUID()
        default: return nil
        }
    }

    private final class KeyCache: @unchecked Sendable {
        // @unchecked Sendable: `keys` is guarded by `lock`.
        private let lock = NSLock()
        private var keys: [AnyKeyPath: String] = [:]

        func key(for path: AnyKeyPath) -> String? {
            lock.lock()
            defer { lock.unlock() }
            return keys[path]
        }

        func set(_ key: String, for path: AnyKeyPath) {
            lock.lock()
            defer { lock.unlock() }
            keys[path] = key
        }
    }
}

extension NSSortDescriptor {
    /// The key path this descriptor sorts by: nil for `SELF`, the property's key for a
    /// Swift key path to a `@Managed` attribute, nil for other Swift key paths.
    public var key: String? {
        if let keyed = self as? KeyedSortDescriptor { return keyed.keyString }
        return ManagedKeyPathResolver.key(forAny: keyPath)
    }
}
