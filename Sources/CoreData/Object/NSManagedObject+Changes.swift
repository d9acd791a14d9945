import Foundation
internal import CCoreDataRuntime

// MARK: - Change tracking

extension NSManagedObject {
    /// Persistent properties whose values differ from the committed snapshot, with their
    /// new values (`NSNull` for nil).
    public func changedValues() -> [String: Any] {
        guard !isFault else { return [:] }
        var result: [String: Any] = [:]
        for property in entity.runtime.slotProperties where !property.isTransient {
            if differsFromCommitted(property) {
                result[property.name] = primitiveValue(atSlot: property.slot, property: property) ?? NSNull()
            }
        }
        return result
    }

    /// Properties changed since the last `processPendingChanges()` (the current event),
    /// with their new values.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        guard !isFault else { return [:] }
        var result: [String: Any] = [:]
        for property in entity.runtime.slotProperties where cdr_object_is_event_dirty(storage, property.slot) {
            result[property.name] = primitiveValue(atSlot: property.slot, property: property) ?? NSNull()
        }
        return result
    }

    /// Whether any persistent property differs from the committed snapshot.
    public var hasPersistentChangedValues: Bool {
        guard !isFault else { return false }
        return entity.runtime.slotProperties.contains { !$0.isTransient && differsFromCommitted($0) }
    }

    /// The values as last read from or written to the store (`nil` keys: every
    /// property). An inserted object has no committed values.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let row = committedRow else { return [:] }
        let properties = keys.map { $0.compactMap(property(forKey:)) } ?? entity.runtime.slotProperties
        var result: [String: Any] = [:]
        for property in properties where !property.isTransient {
            result[property.name] = committedValue(property, row: row) ?? NSNull()
        }
        return result
    }

    func committedValue(_ property: NSPropertyDescription, row: StoreRow) -> Any? {
        switch property {
        case let attribute as NSAttributeDescription:
            guard let value = cdr_row_get(row.values, attribute.slot)?.pointee else { return nil }
            return attribute.slotType == CDR_BOX ? Transformer.decode(value, for: attribute) : attribute.swiftValue(of: value)
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let members = committedToMany[relationship.slot] ?? []
                return relationship.isOrdered ? NSOrderedSet(array: members) : Set(members)
            }
            if let references = (row as? ParentRow)?.objectReferences {
                return references[relationship.slot].flatMap { context?.objectFromParent($0) }
            }
            guard let value = cdr_row_get(row.values, relationship.slot)?.pointee,
                  value.type == UInt8(CDR_INT64.rawValue) else { return nil }
            return context?.registeredObjectOrFault(entityID: Int(value.length), pk: value.u.i,
                                                    store: objectID.persistentStore,
                                                    fallback: relationship.destinationEntity)
        default:
            return nil
        }
    }

    /// Whether a property's current value differs from the committed one.
    func differsFromCommitted(_ property: NSPropertyDescription) -> Bool {
        let slot = property.slot
        guard cdr_object_is_dirty(storage, slot) else { return false }
        if invalidValues[slot] != nil { return true }
        guard let row = committedRow else {
            // Inserted: every value that is set counts.
            return cdr_object_get(storage, slot).map { $0.pointee.type != UInt8(CDR_NULL.rawValue) } ?? false
        }
        switch property {
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let committed = Set((committedToMany[slot] ?? []).map(ObjectIdentifier.init))
                let current = Set(toManyMembers(slot: slot, relationship: relationship).map(ObjectIdentifier.init))
                return committed != current
            }
            let current = toOneValue(slot: slot)
            if let references = (row as? ParentRow)?.objectReferences { return current?.objectID != references[slot] }
            let committedValue = cdr_row_get(row.values, slot)?.pointee
            if committedValue?.type != UInt8(CDR_INT64.rawValue) { return current != nil }
            return current?.objectID.primaryKey != committedValue?.u.i
        case let attribute as NSAttributeDescription where attribute.slotType == CDR_BOX:
            return true
        default:
            guard let current = cdr_object_get(storage, slot), let committed = cdr_row_get(row.values, slot) else { return true }
            return !cdr_value_equal(current, committed)
        }
    }
}
