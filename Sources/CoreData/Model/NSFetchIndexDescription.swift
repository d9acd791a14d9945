import Foundation

/// A store index over one or more properties of an entity (`fetchIndex` in model files).
open class NSFetchIndexDescription: NSObject, @unchecked Sendable {
    /// The index's name; the SQLite index is named `Z_<Entity>_<name>`.
    open var name: String
    /// The indexed properties, in order.
    open var elements: [NSFetchIndexElementDescription]
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
}

/// One element of a fetch index: a property (or an expression), its kind and order.
open class NSFetchIndexElementDescription: NSObject, @unchecked Sendable {
    /// The kind of index an element takes part in (Apple's raw values).
    public enum CollationType: UInt, Sendable {
        /// An ordinary B-tree index, comparing bytes.
        case binary = 0
        /// A spatial (R-tree) index.
        ///
        /// - Note: Apple parity: read from model files; the SQLite store creates an ordinary
        ///   index instead.
        case rTree = 1
    }
    /// The indexed property, when the element was made from a description.
    open var property: NSPropertyDescription?
    /// The indexed property's name.
    open var propertyName: String?
    /// The kind of index; ``CollationType/binary`` by default.
    open var collationType: CollationType = .binary
    /// The index's order for this element (default ascending).
    open var isAscending: Bool = true
    /// The index this element belongs to.
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// An element indexing `property`, ascending.
    public init(property: NSPropertyDescription, collationType: CollationType) {
        self.property = property
        self.propertyName = property.name
        self.collationType = collationType
        super.init()
    }

    init(propertyName: String, collationType: CollationType, ascending: Bool) {
        self.propertyName = propertyName
        self.collationType = collationType
        self.isAscending = ascending
        super.init()
    }
}
