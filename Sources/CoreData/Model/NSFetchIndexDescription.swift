import Foundation

/// A store index over one or more properties of an entity (`fetchIndex` in model files).
///
/// ## Topics
/// - ``init(name:elements:)``
/// - ``name``
/// - ``elements``
/// - ``partialIndexPredicate``
/// - ``entity``
open class NSFetchIndexDescription: NSObject, NSCopying, NSCoding, @unchecked Sendable {
    // @unchecked Sendable: configured before its entity's model is frozen, then only read.

    /// The index's name; the SQLite index is named `Z_<Entity>_<name>`.
    open var name: String
    /// The indexed properties, in order.
    open var elements: [NSFetchIndexElementDescription] {
        didSet { for element in elements { element.indexDescription = self } }
    }
    /// A condition limiting the index to some rows.
    ///
    /// - Note: Apple parity: kept but not applied; the SQLite index covers every row.
    open var partialIndexPredicate: NSPredicate?
    /// The entity whose ``NSEntityDescription/indexes`` hold this index.
    public internal(set) weak var entity: NSEntityDescription?

    /// An index named `name` over `elements`.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        for element in self.elements { element.indexDescription = self }
    }

    // MARK: - Copying and archiving

    /// A copy with copies of the elements (still naming the same properties) and no
    /// entity.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexDescription(
            name: name, elements: elements.compactMap { $0.copy() as? NSFetchIndexElementDescription })
        copy.partialIndexPredicate = partialIndexPredicate
        return copy
    }

    /// Archives the name, the elements and the partial index predicate (as its format
    /// string: Foundation's `NSPredicate` does not archive on Linux).
    open func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSIndexName")
        coder.encode(elements, forKey: "NSIndexElements")
        ModelCoding.encode(partialIndexPredicate, forKey: "NSPartialIndexPredicate", with: coder)
    }

    /// Reads an index archived by ``encode(with:)``; its elements name their properties
    /// until an entity takes the index.
    public required init?(coder: NSCoder) {
        name = coder.decodeObjectIfPresent(forKey: "NSIndexName") as? String ?? ""
        elements = coder.decodeObjectIfPresent(forKey: "NSIndexElements") as? [NSFetchIndexElementDescription] ?? []
        partialIndexPredicate = ModelCoding.decodePredicate(forKey: "NSPartialIndexPredicate", with: coder)
        super.init()
        for element in elements { element.indexDescription = self }
    }

    /// Points the elements at `entity`'s properties of the same names (after a copy or
    /// a decode).
    func adopt(by entity: NSEntityDescription) {
        self.entity = entity
        let byName = entity.propertiesByName
        for element in elements {
            if let name = element.propertyName, let property = byName[name] { element.property = property }
        }
    }
}

/// The kind of index a fetch index element takes part in (Apple's raw values).
public enum NSFetchIndexElementType: UInt, Sendable {
    /// An ordinary B-tree index, comparing bytes.
    case binary = 0
    /// A spatial (R-tree) index.
    ///
    /// - Note: Apple parity: read from model files; the SQLite store creates no index for
    ///   an R-tree element.
    case rTree = 1
}

/// One element of a fetch index: a property (or an expression), its kind and order.
///
/// ## Topics
/// - ``init(property:collationType:)``
/// - ``property``
/// - ``propertyName``
/// - ``collationType``
/// - ``isAscending``
/// - ``indexDescription``
open class NSFetchIndexElementDescription: NSObject, NSCopying, NSCoding, @unchecked Sendable {
    // @unchecked Sendable: configured before its entity's model is frozen, then only read.

    /// The earlier spelling of ``NSFetchIndexElementType``, kept for code written against
    /// it.
    public typealias CollationType = NSFetchIndexElementType

    /// The indexed property, when the element was made from a description.
    open internal(set) var property: NSPropertyDescription?
    /// The indexed property's name.
    open internal(set) var propertyName: String?
    /// The kind of index; ``NSFetchIndexElementType/binary`` by default.
    open var collationType: NSFetchIndexElementType = .binary
    /// The index's order for this element (default ascending).
    open var isAscending: Bool = true
    /// The index this element belongs to.
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// An element indexing `property` with `collationType`, ascending.
    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        self.property = property
        self.propertyName = property.name
        self.collationType = collationType
        super.init()
    }

    init(propertyName: String, collationType: NSFetchIndexElementType, ascending: Bool) {
        self.propertyName = propertyName
        self.collationType = collationType
        self.isAscending = ascending
        super.init()
    }

    // MARK: - Copying and archiving

    /// A copy indexing the same property, with the same kind and order, in no index.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexElementDescription(
            propertyName: propertyName ?? "", collationType: collationType, ascending: isAscending)
        copy.property = property
        copy.propertyName = propertyName
        return copy
    }

    /// Archives the property's name, the kind and the order.
    open func encode(with coder: NSCoder) {
        coder.encode(property?.name ?? propertyName, forKey: "NSPropertyName")
        coder.encode(Int64(collationType.rawValue), forKey: "NSCollationType")
        coder.encode(isAscending, forKey: "NSIsAscending")
    }

    /// Reads an element archived by ``encode(with:)``; it names its property until an
    /// entity takes its index.
    public required init?(coder: NSCoder) {
        propertyName = coder.decodeObjectIfPresent(forKey: "NSPropertyName") as? String
        collationType = NSFetchIndexElementType(
            rawValue: ModelCoding.decodeUInt(forKey: "NSCollationType", with: coder)) ?? .binary
        isAscending = coder.decodeBool(forKey: "NSIsAscending")
        super.init()
    }
}
