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

    // MARK: - Copying and archiving

    override func makeEmptyCopy() -> NSPropertyDescription { NSRelationshipDescription() }

    /// The copy points at the same destination entity and inverse; copying a whole model
    /// points them at the copies.
    override func copyProperties(to copy: NSPropertyDescription) {
        super.copyProperties(to: copy)
        guard let copy = copy as? NSRelationshipDescription else { return }
        copy.destinationEntity = destinationEntity
        copy.inverseRelationship = inverseRelationship
        copy.destinationEntityName = destinationEntity?.name ?? destinationEntityName
        copy.inverseRelationshipName = inverseRelationship?.name ?? inverseRelationshipName
        copy.maxCount = maxCount
        copy.minCount = minCount
        copy.deleteRule = deleteRule
        copy.isOrdered = isOrdered
    }

    /// Archives the relationship: the property's fields, its counts, delete rule and
    /// order, and the names of its destination entity and inverse.
    ///
    /// - Note: Apple parity: the destination and inverse are archived by name
    ///   (Foundation's unarchiver on Linux cannot decode the cycle they form); a decoded
    ///   model, or a model a decoded entity joins, resolves them.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(destinationEntity?.name ?? destinationEntityName, forKey: "NSDestinationEntityName")
        coder.encode(inverseRelationship?.name ?? inverseRelationshipName, forKey: "NSInverseRelationshipName")
        coder.encode(Int64(maxCount), forKey: "NSMaxCount")
        coder.encode(Int64(minCount), forKey: "NSMinCount")
        coder.encode(Int64(deleteRule.rawValue), forKey: "NSDeleteRule")
        coder.encode(isOrdered, forKey: "NSIsOrdered")
    }

    /// Reads a relationship archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        destinationEntityName = coder.decodeObjectIfPresent(forKey: "NSDestinationEntityName") as? String
        inverseRelationshipName = coder.decodeObjectIfPresent(forKey: "NSInverseRelationshipName") as? String
        maxCount = Int(coder.decodeInt64(forKey: "NSMaxCount"))
        minCount = Int(coder.decodeInt64(forKey: "NSMinCount"))
        deleteRule = NSDeleteRule(rawValue: ModelCoding.decodeUInt(forKey: "NSDeleteRule", with: coder))
            ?? .nullifyDeleteRule
        isOrdered = coder.decodeBool(forKey: "NSIsOrdered")
    }

    // Names kept for the XML loader, resolved when the model is frozen.
    var destinationEntityName: String?
    var inverseRelationshipName: String?

    open override var description: String {
        super.description + ", destination \(destinationEntity?.name ?? "nil"), inverse \(inverseRelationship?.name ?? "nil"), toMany \(isToMany)"
    }
}

