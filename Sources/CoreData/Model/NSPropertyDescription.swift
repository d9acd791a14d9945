import Foundation

/// A property of an entity: an attribute, a relationship or a fetched property.
///
/// ## Topics
/// ### Identity
/// - ``name``
/// - ``entity``
/// ### Behaviour
/// - ``isOptional``
/// - ``isTransient``
/// - ``isIndexed``
/// ### Copying and archiving
/// - ``copy(with:)``
/// - ``encode(with:)``
/// - ``init(coder:)``
open class NSPropertyDescription: NSObject, NSCopying, NSCoding, @unchecked Sendable {
    // @unchecked Sendable: descriptions are mutable only until their model is frozen by a
    // coordinator (checked by `assertEditable`), and read-only afterwards, as Apple's.

    /// The property's name, also its key for key-value coding.
    open var name: String = "" { willSet { assertEditable() } }
    /// The entity that owns the property; set when the property is added to an entity.
    public internal(set) weak var entity: NSEntityDescription!
    /// Whether a saved object may leave the property empty (default `true`).
    open var isOptional: Bool = true { willSet { assertEditable() } }
    /// Whether the value lives only in memory and never reaches the store.
    open var isTransient: Bool = false { willSet { assertEditable() } }
    /// Whether the store keeps an index on the property.
    open var isIndexed: Bool = false { willSet { assertEditable() } }
    /// Free-form keys and values from the model file's user info, for the application.
    open var userInfo: [AnyHashable: Any]? { willSet { assertEditable() } }
    /// A string mixed into the property's version hash, to mark a change the hash would not
    /// see.
    open var versionHashModifier: String? { willSet { assertEditable() } }
    /// The property's name in an earlier model version (`elementID` in model files), so that a
    /// lightweight migration treats a rename as the same property.
    open var renamingIdentifier: String? { willSet { assertEditable() } }
    /// Whether Spotlight indexes the value.
    ///
    /// - Note: Apple parity: kept, with no effect: there is no Spotlight on Linux.
    open var isIndexedBySpotlight: Bool = false
    /// Conditions a value must satisfy at save; a value failing one is an
    /// ``NSManagedObjectValidationError`` with the matching warning as its message.
    open private(set) var validationPredicates: [NSPredicate] = []
    /// The messages of ``validationPredicates``, one per predicate.
    open private(set) var validationWarnings: [Any] = []

    public override init() { super.init() }

    // MARK: - Copying

    /// A copy of the property that belongs to no entity (so it is editable), with the same
    /// name, flags, user info, version hash modifier, renaming identifier and validation
    /// rules. Subclasses copy what they add: an attribute its type and default value, a
    /// relationship its destination, inverse, counts and delete rule.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = makeEmptyCopy()
        copyProperties(to: copy)
        return copy
    }

    /// A new, empty description of the same kind (our subclasses override it).
    func makeEmptyCopy() -> NSPropertyDescription { NSPropertyDescription() }

    /// Copies what this class declares onto `copy` (each subclass adds its own fields).
    func copyProperties(to copy: NSPropertyDescription) {
        copy.name = name
        copy.isOptional = isOptional
        copy.isTransient = isTransient
        copy.isIndexed = isIndexed
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.isIndexedBySpotlight = isIndexedBySpotlight
        copy.validationPredicates = validationPredicates
        copy.validationWarnings = validationWarnings
    }

    // MARK: - Archiving

    /// Archives the property with a keyed coder such as `NSKeyedArchiver`; subclasses add
    /// what they declare.
    ///
    /// - Note: Apple parity: validation predicates are archived as their format strings
    ///   (Foundation's `NSPredicate` does not archive on Linux), and the owning entity is
    ///   not archived: a decoded property belongs to no entity until one takes it.
    open func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSPropertyName")
        coder.encode(isOptional, forKey: "NSIsOptional")
        coder.encode(isTransient, forKey: "NSIsTransient")
        coder.encode(isIndexed, forKey: "NSIsIndexed")
        coder.encode(isIndexedBySpotlight, forKey: "NSIsIndexedBySpotlight")
        if let userInfo { coder.encode(userInfo, forKey: "NSUserInfo") }
        coder.encode(versionHashModifier, forKey: "NSVersionHashModifier")
        coder.encode(renamingIdentifier, forKey: "NSRenamingIdentifier")
        ModelCoding.encode(validationPredicates, forKey: "NSValidationPredicates", with: coder)
        coder.encode(validationWarnings.map { "\($0)" }, forKey: "NSValidationWarnings")
    }

    /// Reads a property archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init()
        name = coder.decodeObjectIfPresent(forKey: "NSPropertyName") as? String ?? ""
        isOptional = coder.decodeBool(forKey: "NSIsOptional")
        isTransient = coder.decodeBool(forKey: "NSIsTransient")
        isIndexed = coder.decodeBool(forKey: "NSIsIndexed")
        isIndexedBySpotlight = coder.decodeBool(forKey: "NSIsIndexedBySpotlight")
        userInfo = coder.decodeObjectIfPresent(forKey: "NSUserInfo") as? [AnyHashable: Any]
        versionHashModifier = coder.decodeObjectIfPresent(forKey: "NSVersionHashModifier") as? String
        renamingIdentifier = coder.decodeObjectIfPresent(forKey: "NSRenamingIdentifier") as? String
        validationPredicates = ModelCoding.decodePredicates(forKey: "NSValidationPredicates", with: coder)
        validationWarnings = coder.decodeObjectIfPresent(forKey: "NSValidationWarnings") as? [String] ?? []
    }

    /// Sets the validation predicates and their warnings (one warning per predicate).
    open func setValidationPredicates(_ predicates: [NSPredicate]?, withValidationWarnings warnings: [String]?) {
        assertEditable()
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }

    /// The version hash of the property, as Apple computes it.
    open var versionHash: Data { VersionHash.property(self) }

    // MARK: - Internal

    /// The slot index of this property in its entity's runtime layout, or -1 when the
    /// property has no slot (fetched properties).
    var slot: Int32 = -1

    func assertEditable() {
        if let model = entity?.managedObjectModel, !model.isEditable {
            coreDataMisuse("Can't modify an immutable model.")
        }
    }

    open override var description: String {
        "(\(type(of: self))), name \(name), isOptional \(isOptional), isTransient \(isTransient)"
    }
}
