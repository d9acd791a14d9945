import Foundation

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
        for property in entity.runtime.slotProperties where storage.isEventDirty(at: property.slot) {
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
            let value = row.values.value(at: attribute.slot)
            return attribute.slotType == .box ? Transformer.decode(value, for: attribute) : attribute.swiftValue(of: value)
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let members = committedToMany[relationship.slot] ?? []
                return relationship.isOrdered ? NSOrderedSet(array: members) : Set(members)
            }
            return context?.destination(of: relationship, in: row, source: objectID)
        default:
            return nil
        }
    }

    /// Whether a property's current value differs from the committed one.
    func differsFromCommitted(_ property: NSPropertyDescription) -> Bool {
        let slot = property.slot
        guard storage.isDirty(at: slot) else { return false }
        if invalidValues[slot] != nil { return true }
        guard let row = committedRow else {
            // Inserted: every value that is set counts.
            return !storage.value(at: slot).isNull
        }
        switch property {
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let committed = Set((committedToMany[slot] ?? []).map(ObjectIdentifier.init))
                let current = Set(toManyMembers(slot: slot, relationship: relationship).map(ObjectIdentifier.init))
                return committed != current
            }
            let current = toOneValue(slot: slot)
            switch row.values.reference(at: slot) {
            case nil: return current != nil
            case let .key(key): return current?.objectID.primaryKey != key.pk
            case let .objectID(committed): return current?.objectID != committed
            }
        case let attribute as NSAttributeDescription where attribute.slotType == .box:
            return true
        default:
            return !storage.value(at: slot).isEqual(to: row.values.value(at: slot))
        }
    }
}
