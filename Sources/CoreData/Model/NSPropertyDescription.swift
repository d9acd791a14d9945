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
open class NSPropertyDescription: NSObject, @unchecked Sendable {
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
