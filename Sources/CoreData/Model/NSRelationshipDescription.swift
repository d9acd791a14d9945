import Foundation

/// What happens to related objects when the source object is deleted (Apple's raw values).
public enum NSDeleteRule: UInt, Sendable {
    /// Nothing happens to the related objects; they may be left pointing at a deleted object.
    case noActionDeleteRule = 0
    /// The related objects' inverse relationship is cleared (the default).
    case nullifyDeleteRule = 1
    /// The related objects are deleted too.
    case cascadeDeleteRule = 2
    /// The delete fails at save with ``NSValidationRelationshipDeniedDeleteError`` while the
    /// relationship has any destination.
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
    /// The entity at the other end.
    open weak var destinationEntity: NSEntityDescription? { willSet { assertEditable() } }
    /// The relationship back from the destination, kept in step when either side changes;
    /// nil when there is none.
    open weak var inverseRelationship: NSRelationshipDescription? { willSet { assertEditable() } }
    /// 1 for a to-one relationship; 0 means unbounded.
    open var maxCount: Int = 1 { willSet { assertEditable() } }
    /// The fewest destinations a saved object may have (checked at save for a to-many).
    open var minCount: Int = 0 { willSet { assertEditable() } }
    /// What deleting the source object does to its destinations (default nullify).
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule { willSet { assertEditable() } }
    /// Whether a to-many relationship keeps its members in order (`NSOrderedSet`).
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

