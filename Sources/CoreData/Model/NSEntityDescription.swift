import Foundation

/// An entity of a managed object model: a name, the class of its objects, and its
/// attributes and relationships. Sub-entities inherit every property of their parent.
///
/// ## Topics
/// ### Identity
/// - ``name``
/// - ``managedObjectClassName``
/// ### Properties
/// - ``properties``
/// - ``attributesByName``
/// - ``relationshipsByName``
/// - ``propertiesByName``
/// ### Inheritance
/// - ``superentity``
/// - ``subentities``
/// - ``isAbstract``
/// ### Copying and archiving
/// - ``copy(with:)``
/// - ``encode(with:)``
/// - ``init(coder:)``
open class NSEntityDescription: NSObject, NSCopying, NSCoding, @unchecked Sendable {
    // @unchecked Sendable: mutable only until its model is frozen (see assertEditable),
    // then immutable.

    /// The entity's name, unique in its model; fetch requests and `insertNewObject(forEntityName:into:)`
    /// refer to it.
    open var name: String? { willSet { assertEditable() } }
    /// The class of the entity's objects: `NSManagedObject` or a registered subclass
    /// (`Module.Class`, `.Class` for the current module, or a bare class name).
    open var managedObjectClassName: String! = "NSManagedObject" { willSet { assertEditable() } }
    /// The model the entity belongs to (set when the entity is added to one).
    public internal(set) weak var managedObjectModel: NSManagedObjectModel!
    /// An abstract entity has no objects of its own, only through its sub-entities; inserting
    /// one traps, as Apple raises.
    open var isAbstract: Bool = false { willSet { assertEditable() } }
    /// Free-form keys and values from the model file's user info, for the application.
    open var userInfo: [AnyHashable: Any]? { willSet { assertEditable() } }
    /// A string mixed into the entity's version hash, to mark a change the hash would not see.
    open var versionHashModifier: String? { willSet { assertEditable() } }
    /// The entity's name in an earlier model version (`elementID` in model files), so that a
    /// lightweight migration treats a rename as the same entity.
    open var renamingIdentifier: String? { willSet { assertEditable() } }
    /// Each inner array is one constraint: attribute names (or descriptions) whose values
    /// must be unique together.
    open var uniquenessConstraints: [[Any]] = [] { willSet { assertEditable() } }
    /// Fetch indexes: the SQLite store creates one index for each when it creates the tables.
    open var indexes: [NSFetchIndexDescription] = [] {
        willSet { assertEditable() }
        didSet { for index in indexes { index.entity = self } }
    }
    /// Legacy compound indexes (arrays of property names).
    open var compoundIndexes: [[Any]] = []

    private var ownProperties: [NSPropertyDescription] = []
    private var _subentities: [NSEntityDescription] = []
    private weak var _superentity: NSEntityDescription?

    public override init() { super.init() }

    // MARK: - Copying

    /// A deep copy that belongs to no model (so it is editable): the same name, class,
    /// flags, user info, constraints and version settings, copies of the entity's own
    /// properties and fetch indexes, and copies of its sub-entities (whose superentity is
    /// the copy). Relationships still point at the original destination entities; copying
    /// the whole model points them at the copies.
    open func copy(with zone: NSZone? = nil) -> Any {
        var map: [ObjectIdentifier: NSEntityDescription] = [:]
        let copy = deepCopy(into: &map)
        for entity in map.values { entity.repointRelationships(map) }
        return copy
    }

    /// Copies this entity and its sub-entities, recording original → copy in `map`.
    func deepCopy(into map: inout [ObjectIdentifier: NSEntityDescription]) -> NSEntityDescription {
        let copy = shallowCopy()
        map[ObjectIdentifier(self)] = copy
        copy.subentities = _subentities.map { $0.deepCopy(into: &map) }
        return copy
    }

    /// A copy of this entity alone: its fields, own properties and indexes.
    func shallowCopy() -> NSEntityDescription {
        let copy = NSEntityDescription()
        copy.name = name
        copy.managedObjectClassName = managedObjectClassName
        copy.isAbstract = isAbstract
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.compoundIndexes = compoundIndexes.map(Self.names)
        copy.ownProperties = ownProperties.compactMap { $0.copy() as? NSPropertyDescription }
        for property in copy.ownProperties { property.entity = copy }
        copy.uniquenessConstraints = uniquenessConstraints.map(Self.names)
        copy.indexes = indexes.compactMap { $0.copy() as? NSFetchIndexDescription }
        for index in copy.indexes { index.adopt(by: copy) }
        return copy
    }

    /// Points the relationships of this (copied) entity at the copies of their
    /// destinations and inverses, where `map` has them.
    func repointRelationships(_ map: [ObjectIdentifier: NSEntityDescription]) {
        for case let relationship as NSRelationshipDescription in ownProperties {
            guard let destination = relationship.destinationEntity,
                  let copied = map[ObjectIdentifier(destination)] else { continue }
            relationship.destinationEntity = copied
            if let inverse = relationship.inverseRelationship {
                relationship.inverseRelationship = copied.relationshipsByName[inverse.name]
            }
        }
    }

    /// Property descriptions in a constraint or compound index, as their names.
    private static func names(_ items: [Any]) -> [Any] {
        items.map { ($0 as? NSPropertyDescription)?.name ?? $0 }
    }

    // MARK: - Archiving

    /// Archives the entity with a keyed coder such as `NSKeyedArchiver`: its fields, its
    /// own properties, fetch indexes and sub-entities.
    ///
    /// - Note: Apple parity: the superentity and relationship destinations are archived
    ///   by name, not as objects (Foundation's unarchiver on Linux cannot decode a cycle of
    ///   objects); decoding a model resolves them, and a decoded entity's relationships
    ///   find their destinations when the entity joins a model.
    open func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSEntityName")
        coder.encode(managedObjectClassName, forKey: "NSClassNameForEntity")
        coder.encode(isAbstract, forKey: "NSIsAbstract")
        if let userInfo { coder.encode(userInfo, forKey: "NSUserInfo") }
        coder.encode(versionHashModifier, forKey: "NSVersionHashModifier")
        coder.encode(renamingIdentifier, forKey: "NSRenamingIdentifier")
        coder.encode(uniquenessConstraints.map { Self.names($0).map { "\($0)" } }, forKey: "NSUniquenessConstraints")
        coder.encode(compoundIndexes.map { Self.names($0).map { "\($0)" } }, forKey: "NSCompoundIndexes")
        coder.encode(ownProperties, forKey: "NSProperties")
        coder.encode(indexes, forKey: "NSFetchIndexes")
        coder.encode(_subentities, forKey: "NSSubentities")
    }

    /// Reads an entity archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init()
        name = coder.decodeObjectIfPresent(forKey: "NSEntityName") as? String
        managedObjectClassName = coder.decodeObjectIfPresent(forKey: "NSClassNameForEntity") as? String ?? "NSManagedObject"
        isAbstract = coder.decodeBool(forKey: "NSIsAbstract")
        userInfo = coder.decodeObjectIfPresent(forKey: "NSUserInfo") as? [AnyHashable: Any]
        versionHashModifier = coder.decodeObjectIfPresent(forKey: "NSVersionHashModifier") as? String
        renamingIdentifier = coder.decodeObjectIfPresent(forKey: "NSRenamingIdentifier") as? String
        uniquenessConstraints = coder.decodeObjectIfPresent(forKey: "NSUniquenessConstraints") as? [[String]] ?? []
        compoundIndexes = coder.decodeObjectIfPresent(forKey: "NSCompoundIndexes") as? [[String]] ?? []
        ownProperties = coder.decodeObjectIfPresent(forKey: "NSProperties") as? [NSPropertyDescription] ?? []
        for property in ownProperties { property.entity = self }
        subentities = coder.decodeObjectIfPresent(forKey: "NSSubentities") as? [NSEntityDescription] ?? []
        indexes = coder.decodeObjectIfPresent(forKey: "NSFetchIndexes") as? [NSFetchIndexDescription] ?? []
        for index in indexes { index.adopt(by: self) }
    }

    // MARK: - Properties

    /// Inherited properties first, then the entity's own. Setting it replaces the
    /// entity's own properties.
    open var properties: [NSPropertyDescription] {
        get { (superentity?.properties ?? []) + ownProperties }
        set {
            assertEditable()
            let own = newValue.filter { $0.entity == nil || $0.entity === self }
            var seen = Set<String>()
            for property in own where !seen.insert(property.name).inserted {
                coreDataMisuse("Can't add the property \(property.name) twice to the entity \(name ?? "?").")
            }
            ownProperties = own
            for property in own { property.entity = self }
        }
    }

    /// Every property, inherited ones included, by name.
    open var propertiesByName: [String: NSPropertyDescription] {
        // Once the model is frozen (a coordinator uses it), built once, in the runtime:
        // predicate checks and key path walks ask for it on every fetch.
        if let runtime, managedObjectModel?.isEditable == false { return runtime.propertiesByName }
        return Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, new in new })
    }

    /// The attributes, inherited ones included, by name.
    open var attributesByName: [String: NSAttributeDescription] {
        Dictionary(properties.compactMap { $0 as? NSAttributeDescription }.map { ($0.name, $0) },
                   uniquingKeysWith: { _, new in new })
    }

    /// The relationships, inherited ones included, by name.
    open var relationshipsByName: [String: NSRelationshipDescription] {
        Dictionary(properties.compactMap { $0 as? NSRelationshipDescription }.map { ($0.name, $0) },
                   uniquingKeysWith: { _, new in new })
    }

    /// The relationships whose destination is exactly `entity` (not one of its sub-entities).
    open func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        properties.compactMap { $0 as? NSRelationshipDescription }
            .filter { $0.destinationEntity === entity }
    }

    // MARK: - Inheritance

    /// The entity this one inherits from; nil for a root entity. Set through the parent's
    /// ``subentities``.
    open var superentity: NSEntityDescription? { _superentity }

    /// Setting it makes this entity the superentity of each one.
    open var subentities: [NSEntityDescription] {
        get { _subentities }
        set {
            assertEditable()
            for old in _subentities { old._superentity = nil }
            _subentities = newValue
            for sub in newValue { sub._superentity = self }
        }
    }

    /// The direct sub-entities, by name.
    open var subentitiesByName: [String: NSEntityDescription] {
        Dictionary(_subentities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Whether this entity is `entity` or inherits from it.
    open func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let e = current {
            if e === entity { return true }
            current = e.superentity
        }
        return false
    }

    // MARK: - Versioning

    /// The version hash of the entity, as Apple computes it (used in store metadata).
    open var versionHash: Data { hashRecordedByStore ?? VersionHash.entity(self) }

    /// The hash a store recorded for this entity, taken instead of our own where our recipe
    /// is unverified (derived attributes), for an entity read from that store's own cached
    /// model (``NSManagedObjectModel/init(cachedInStoreAt:)``): that model is by definition
    /// the one the store was written with. Copies do not keep it (a copy may be edited).
    var hashRecordedByStore: Data?

    // MARK: - Internal

    var runtime: EntityRuntime!

    func assertEditable() {
        if let model = managedObjectModel, !model.isEditable {
            coreDataMisuse("Can't modify an immutable model.")
        }
    }

    open override var description: String {
        "(<NSEntityDescription>) name \(name ?? "nil"), managedObjectClassName \(managedObjectClassName ?? "nil"), superentity \(superentity?.name ?? "nil"), properties \(properties.map(\.name))"
    }
}
