import Foundation

// MARK: - Derived attributes, computed on save

extension NSManagedObject {
    /// Computes the object's derived attributes (no undo registration, no validation of
    /// the expression at run time: one that cannot be parsed or evaluated leaves the
    /// value unchanged).
    func computeDerivedAttributes() {
        for case let attribute as NSDerivedAttributeDescription in entity.runtime.slotProperties {
            guard let expression = attribute.derivationExpression else { continue }
            let value = DerivedValue.evaluate(expression, with: self)
            if let current = primitiveValue(atSlot: attribute.slot, property: attribute),
               let value, "\(current)" == "\(value)" { continue }
            setPrimitive(value, for: attribute)
        }
    }
}

extension NSManagedObjectContext {
    /// Derived attributes of the inserted and updated objects, before validation.
    func computeDerivedAttributes() {
        let objects = changes.savedObjects
        // Aggregates over a to-many change when a member changes: recompute for the
        // members' owners too.
        var owners: [ObjectIdentifier: NSManagedObject] = [:]
        for object in objects {
            owners[ObjectIdentifier(object)] = object
            for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties
            where !relationship.isToMany {
                if let owner = object.toOneValue(slot: relationship.slot), !owner.isDeletedFlag { owners[ObjectIdentifier(owner)] = owner }
            }
        }
        withoutUndoRegistration {
            for object in owners.values where object.entity.runtime.hasDerivedAttributes && !object.isFault {
                object.computeDerivedAttributes()
            }
        }
    }
}

extension EntityRuntime {
    var hasDerivedAttributes: Bool {
        slotProperties.contains { ($0 as? NSDerivedAttributeDescription)?.derivationExpression != nil }
    }
}
