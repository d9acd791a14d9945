import Foundation

/// What happens to related objects when the source object is deleted (Apple's raw values).
public enum NSDeleteRule: UInt, Sendable {
    case noActionDeleteRule = 0
    case nullifyDeleteRule = 1
    case cascadeDeleteRule = 2
    case denyDeleteRule = 3
}

/// A relationship from one entity to another, to-one or to-many, with its inverse.
///
/// ## Topics
/// ### Shape
/// - ``destinationEntity``
/// - ``inverseRelationship``
/// - ``isToMany``
/// - ``isOrdered``
/// ### Rules
/// - ``deleteRule``
/// - ``minCount``
/// - ``maxCount``
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    open weak var destinationEntity: NSEntityDescription? { willSet { assertEditable() } }
    open weak var inverseRelationship: NSRelationshipDescription? { willSet { assertEditable() } }
    /// 1 for a to-one relationship; 0 means unbounded.
    open var maxCount: Int = 1 { willSet { assertEditable() } }
    open var minCount: Int = 0 { willSet { assertEditable() } }
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule { willSet { assertEditable() } }
    open var isOrdered: Bool = false { willSet { assertEditable() } }

    /// A to-many relationship has a `maxCount` other than 1.
    open var isToMany: Bool { maxCount != 1 }

    public override init() { super.init() }

    // Names kept for the XML loader, resolved when the model is frozen.
    var destinationEntityName: String?
    var inverseRelationshipName: String?

    open override var description: String {
        super.description + ", destination \(destinationEntity?.name ?? "nil"), inverse \(inverseRelationship?.name ?? "nil"), toMany \(isToMany)"
    }
}

