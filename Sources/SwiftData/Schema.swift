import CoreData

/// The entities of a set of model classes: what a ``ModelContainer`` turns into a Core Data
/// model (`NSManagedObjectModel`).
///
/// Classes reached through relationships are added even when not listed.
///
/// ```swift
/// let schema = Schema([Trip.self, Stop.self])
/// let container = try ModelContainer(for: schema)
/// ```
///
/// ## Topics
/// ### Entities
/// - ``entities``
/// - ``entitiesByName``
/// - ``Entity``
/// - ``Attribute``
/// - ``Relationship``
public final class Schema: @unchecked Sendable {
    // @unchecked Sendable: every stored property is set in init and never changes.

    /// A schema's version, as a ``VersionedSchema`` names it.
    public struct Version: Hashable, Codable, Sendable, CustomStringConvertible {
        /// The major version.
        public let major: Int
        /// The minor version.
        public let minor: Int
        /// The patch version.
        public let patch: Int
        /// A version `major.minor.patch`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }
        /// `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// One persisted property as `@Model` describes it: name, key path and options.
    public struct PropertyMetadata: @unchecked Sendable {
        // @unchecked Sendable: immutable; the key path and values are never mutated.
        /// The property's name, which is also its name in the store.
        public var name: String
        /// The property's key path from its class.
        public var keypath: AnyKeyPath
        /// The declaration's initial value, when one is recorded.
        public var defaultValue: Any?
        /// The property's ``Schema/Attribute`` or ``Schema/Relationship`` options, or nil.
        public var metadata: Any?

        /// Describes one persisted property.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any?, metadata: Any?) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }

    /// The entities, one per model class, in the order the classes were given (related
    /// classes after them).
    public let entities: [Entity]
    /// The schema's version.
    public let version: Version
    /// The model classes, in the order of ``entities``.
    let types: [any PersistentModel.Type]

    /// The entities by name.
    public var entitiesByName: [String: Entity] {
        Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The schema of `types` and the classes they reach through relationships.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var all: [any PersistentModel.Type] = []
        var seen: Set<ObjectIdentifier> = []
        var queue = types
        while !queue.isEmpty {
            let type = queue.removeFirst()
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            all.append(type)
            // A subclass model's superclass model is part of the schema too.
            if let superclass = Self.superclassModel(of: type) { queue.append(superclass) }
            for property in type.schemaMetadata {
                if let destination = PropertyKind.of(property.keypath).destination { queue.append(destination) }
            }
        }
        self.types = all
        self.version = version
        let entities = all.map { Entity(type: $0) }
        let byType = Dictionary(entities.map { (ObjectIdentifier($0.type), $0) }, uniquingKeysWith: { a, _ in a })
        for entity in entities {
            guard let superclass = Self.superclassModel(of: entity.type),
                  let parent = byType[ObjectIdentifier(superclass)] else { continue }
            entity.superentity = parent
            parent.subentities.insert(entity)
        }
        self.entities = entities
        KeyPathTable.shared.register(all)
    }

    /// The schema of the given classes.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The `@Model` class a model class inherits from, if any.
    static func superclassModel(of type: any PersistentModel.Type) -> (any PersistentModel.Type)? {
        _getSuperclass(type) as? any PersistentModel.Type
    }

    /// The entity name of a model class: its name, without its module.
    static func entityName(of type: any PersistentModel.Type) -> String {
        String(describing: type)
    }
}

extension Schema: Hashable {
    /// Schemas are equal when they have the same classes in the same order and version.
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.version == rhs.version && lhs.types.map(ObjectIdentifier.init) == rhs.types.map(ObjectIdentifier.init)
    }

    /// Hashes the classes and version.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        for type in types { hasher.combine(ObjectIdentifier(type)) }
    }
}

/// What a persisted property's Swift type makes it: an attribute of some value type, or a
/// to-one or to-many relationship to a model class.
enum PropertyKind {
    case attribute(valueType: Any.Type, isOptional: Bool)
    case toOne(any PersistentModel.Type, isOptional: Bool)
    case toMany(any PersistentModel.Type)

    static func of(_ keyPath: AnyKeyPath) -> PropertyKind {
        var valueType = type(of: keyPath).valueType
        var isOptional = false
        if let optional = valueType as? any OptionalBridge.Type {
            valueType = optional.wrappedType
            isOptional = true
        }
        if let model = valueType as? any PersistentModel.Type { return .toOne(model, isOptional: isOptional) }
        if let array = valueType as? any ModelArrayBridge.Type { return .toMany(array.modelType) }
        return .attribute(valueType: valueType, isOptional: isOptional)
    }

    var destination: (any PersistentModel.Type)? {
        switch self {
        case .attribute: nil
        case .toOne(let type, _), .toMany(let type): type
        }
    }
}
