import Foundation

// MARK: - Objects to rows and back
//
// The one place where an object's slots become a row (for a store's save, or for a child
// context) and a row becomes an object's slots (a fault firing, a refresh, a rollback).

extension NSManagedObject {
    /// Loads a store row into the slots without marking anything dirty, and makes it
    /// the committed snapshot.
    func load(_ row: StoreRow) {
        let runtime = entity.runtime!
        // Stored attributes with a slot type of their own: copied as they are.
        runtime.plainAttributeSlots.withUnsafeBufferPointer { storage.load($0, from: row.values) }
        for property in runtime.otherLoadedProperties {
            let slot = property.slot
            switch property {
            case let attribute as NSAttributeDescription:
                let decoded = Transformer.decode(row.values.value(at: slot), for: attribute)
                _ = attribute.store(decoded, into: storage.loading, slot: slot)
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                writeToOne(context?.destination(of: relationship, in: row, source: objectID), slot: slot, dirty: false)
            default:
                continue
            }
        }
        committedRow = row
    }

    /// The object's persistent values as a row: attributes as a store holds them
    /// (transformable values encoded to bytes), each to-one destination as `reference`
    /// names it (nil leaves the slot NULL). To-many relationships are not in rows.
    ///
    /// With `strict`, a transformable value that its transformer cannot encode throws
    /// `NSManagedObjectValidationError`; otherwise it is left NULL.
    func persistentRow(pk: Int64, version: Int64, strict: Bool,
                       reference: (NSManagedObject) -> RowReference?) throws -> StoreRow {
        let runtime = entity.runtime!
        let row = StoreRow(entity: entity, pk: pk, version: version)
        // Stored attributes with a slot type of their own: copied as they are.
        runtime.plainAttributeSlots.withUnsafeBufferPointer { row.values.store($0, from: storage) }
        for property in runtime.otherLoadedProperties where !property.isTransient {
            let slot = property.slot
            guard let attribute = property as? NSAttributeDescription else {
                row.values.setReference(toOneValue(slot: slot).flatMap(reference), at: slot)
                continue
            }
            guard let boxed = primitiveValue(atSlot: slot, property: attribute) else { continue }
            guard let data = Transformer.encode(boxed, for: attribute) else {
                guard strict else { continue }
                throw CoreDataError.make(NSManagedObjectValidationError,
                    "The value of \(entity.name ?? "?").\(attribute.name) could not be transformed to data (valueTransformerName \(attribute.valueTransformerName ?? "none")).",
                    userInfo: [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: attribute.name])
            }
            row.values.setData(data, at: slot)
        }
        return row
    }
}
