import Foundation

/// What an entity needs at run time, built once when its model is frozen: the runtime
/// layout (key → slot), its store identity (`Z_ENT`) and the class of its objects.
final class EntityRuntime: @unchecked Sendable {
    // @unchecked Sendable: immutable after construction; the layout is frozen by the
    // runtime once an object uses it and is safe to share.
    let layout: RuntimeLayout
    /// Every property with a slot, indexed by slot.
    let slotProperties: [NSPropertyDescription]
    let slotByName: [String: Int32]
    /// `slotByName` for key-value reads (see ``SlotKeyTable``).
    let slotKeys: SlotKeyTable
    /// `entity.propertiesByName`, built once: the model is immutable from now on.
    let propertiesByName: [String: NSPropertyDescription]
    /// `Z_ENT`: the entity's number in the store (depth-first, roots sorted by name).
    let entityID: Int
    unowned let root: NSEntityDescription
    /// `ObjectIdentifier(root)`, for keys (no unowned load on hot paths).
    let rootID: ObjectIdentifier
    /// The entity and all its sub-entities, at any depth (unowned: the entity owns its
    /// runtime, so strong references here would keep every frozen model alive forever).
    var family: [NSEntityDescription] { familyMembers.map(\.entity) }
    private let familyMembers: [UnownedEntity]
    unowned let entity: NSEntityDescription
    /// A number no other runtime of this process has (a cache key that cannot be reused).
    let serial = EntityRuntime.serials.next()
    private static let serials = LockedCounter()
    /// Slots of stored attributes that `load` copies from a row as they are, and the
    /// other properties it loads (transformable attributes, to-one relationships).
    let plainAttributeSlots: [Int32]
    let otherLoadedProperties: [NSPropertyDescription]
    /// Slots of the properties with columns (attributes, to-one relationships).
    let storedSlots: [Int32]
    /// Slots of the to-many relationships that are not transient (a save writes their
    /// links or orderings when they changed).
    let persistentToManySlots: [Int32]
    /// What saving must check for each slot (see `ValidationCheck`), by slot.
    let validationChecks: [ValidationCheck]

    init(entity: NSEntityDescription, entityID: Int) {
        self.entity = entity
        let layout = RuntimeLayout(entityName: entity.name ?? "")
        var slots: [NSPropertyDescription] = []
        var byName: [String: Int32] = [:]
        for property in entity.properties {
            let type: SlotType
            switch property {
            case let attribute as NSAttributeDescription: type = attribute.slotType
            case let relationship as NSRelationshipDescription: type = relationship.isToMany ? .set : .object
            default: type = .box
            }
            guard let index = layout.addSlot(key: property.name, type: type) else {
                preconditionFailure("duplicate property \(property.name)")
            }
            if property.slot < 0 { property.slot = index }
            precondition(property.slot == index, "inherited slot mismatch for \(property.name)")
            slots.append(property)
            byName[property.name] = index
        }
        self.layout = layout
        self.slotProperties = slots
        self.slotByName = byName
        self.slotKeys = SlotKeyTable(byName)
        self.propertiesByName = Dictionary(slots.map { ($0.name, $0) }, uniquingKeysWith: { _, new in new })
        self.validationChecks = slots.map(ValidationCheck.of)
        var plain: [Int32] = [], other: [NSPropertyDescription] = []
        for property in slots {
            if let attribute = property as? NSAttributeDescription {
                if attribute.isTransient { continue }
                if attribute.slotType == .box { other.append(attribute) } else { plain.append(attribute.slot) }
            } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                other.append(relationship)
            }
        }
        self.plainAttributeSlots = plain
        self.otherLoadedProperties = other
        self.storedSlots = slots.filter(Self.isStored).map(\.slot)
        self.persistentToManySlots = slots.filter {
            ($0 as? NSRelationshipDescription)?.isToMany == true && !$0.isTransient
        }.map(\.slot)
        self.entityID = entityID
        var root = entity
        while let parent = root.superentity { root = parent }
        self.root = root
        self.rootID = ObjectIdentifier(root)
        var family: [NSEntityDescription] = []
        func walk(_ e: NSEntityDescription) { family.append(e); e.subentities.forEach(walk) }
        walk(entity)
        self.familyMembers = family.map(UnownedEntity.init)
    }
}

extension EntityRuntime {
    /// Whether a property has a column in the store: attributes (not transient) and to-one
    /// relationships.
    static func isStored(_ property: NSPropertyDescription) -> Bool {
        if property.isTransient { return false }
        if let relationship = property as? NSRelationshipDescription { return !relationship.isToMany }
        return property is NSAttributeDescription
    }
}

/// An entity held without a strong reference.
private struct UnownedEntity {
    unowned let entity: NSEntityDescription
}
