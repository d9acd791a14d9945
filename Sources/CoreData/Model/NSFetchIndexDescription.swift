import Foundation

/// A store index over one or more properties of an entity (`fetchIndex` in model files).
open class NSFetchIndexDescription: NSObject, @unchecked Sendable {
    open var name: String
    open var elements: [NSFetchIndexElementDescription]
    open var partialIndexPredicate: NSPredicate?
    public internal(set) weak var entity: NSEntityDescription?

    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        for element in self.elements { element.indexDescription = self }
    }
}

/// One element of a fetch index: a property (or an expression), its kind and order.
open class NSFetchIndexElementDescription: NSObject, @unchecked Sendable {
    public enum CollationType: UInt, Sendable {
        case binary = 0
        case rTree = 1
    }
    open var property: NSPropertyDescription?
    open var propertyName: String?
    open var collationType: CollationType = .binary
    open var isAscending: Bool = true
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

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
