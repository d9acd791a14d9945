import CoreData

/// Every model class's key paths with their property names: how sort descriptors and
/// predicates, which hold Swift key paths, become Core Data key names. Built from
/// `schemaMetadata`, never from Foundation's key-path introspection (which crashes on
/// final classes on Linux).
final class KeyPathTable: @unchecked Sendable {
    // @unchecked Sendable: `properties` and `types` are guarded by `lock`.
    static let shared = KeyPathTable()

    struct Property {
        let name: String
        let kind: PropertyKind
        var isToMany: Bool { if case .toMany = kind { true } else { false } }
        /// Whether the property holds a `Codable` value stored as its encoding.
        var isArchived: Bool {
            if case .attribute(let valueType, _) = kind { ValueBridge.isArchived(valueType) } else { false }
        }
    }

    private let lock = NSLock()
    private var properties: [AnyKeyPath: Property] = [:]
    private var types: Set<ObjectIdentifier> = []

    func register(_ modelTypes: [any PersistentModel.Type]) {
        lock.lock()
        defer { lock.unlock() }
        for type in modelTypes where types.insert(ObjectIdentifier(type)).inserted {
            for property in type.schemaMetadata {
                properties[property.keypath] = Property(name: property.name, kind: PropertyKind.of(property.keypath))
            }
            // `\Sub.name` for a `name` a superclass declares: the same property.
            for (keyPath, name) in type._swiftDataInheritedKeyPaths {
                properties[keyPath] = Property(name: name, kind: PropertyKind.of(keyPath))
            }
        }
    }

    /// The property `keyPath` names, registering its root class on first sight: a predicate
    /// or sort descriptor may be translated before any container has registered its model.
    func property(_ keyPath: AnyKeyPath) -> Property? {
        if let found = registered(keyPath) { return found }
        guard let root = type(of: keyPath).rootType as? any PersistentModel.Type else { return nil }
        register([root])
        return registered(keyPath)
    }

    private func registered(_ keyPath: AnyKeyPath) -> Property? {
        lock.lock()
        defer { lock.unlock() }
        return properties[keyPath]
    }

    /// The property name of `keyPath` on `type`, registering the class first.
    func name(of keyPath: AnyKeyPath, in type: any PersistentModel.Type) -> String? {
        register([type])
        return property(keyPath)?.name
    }
}
