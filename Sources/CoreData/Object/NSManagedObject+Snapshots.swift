import Foundation

// MARK: - Rows as snapshot dictionaries (merge conflicts)

extension NSManagedObject {
    /// The committed values (the row last read or saved) as a snapshot dictionary, or nil
    /// for an object that has none (inserted, or never fired).
    var committedSnapshot: [String: Any]? {
        committedRow.map(snapshot(of:))
    }

    /// A row of this object as Apple's conflict snapshots hold it: every stored attribute
    /// by name (transformable values decoded), each to-one relationship as the
    /// destination's `NSManagedObjectID`, `NSNull` for nil; no to-many relationship.
    func snapshot(of row: StoreRow) -> [String: Any] {
        var result: [String: Any] = [:]
        for property in row.entity.runtime.slotProperties where EntityRuntime.isStored(property) {
            switch property {
            case let attribute as NSAttributeDescription:
                let value = row.values.value(at: attribute.slot)
                let decoded = attribute.slotType == .box
                    ? Transformer.decode(value, for: attribute) : attribute.swiftValue(of: value)
                result[attribute.name] = decoded ?? NSNull()
            case let relationship as NSRelationshipDescription:
                result[relationship.name] = destinationID(of: relationship, in: row) ?? NSNull()
            default:
                continue
            }
        }
        return result
    }

    /// The ID of a row's to-one destination, without registering or firing anything.
    private func destinationID(of relationship: NSRelationshipDescription, in row: StoreRow) -> NSManagedObjectID? {
        switch row.values.reference(at: relationship.slot) {
        case let .key(key)?:
            let model = objectID.persistentStore?.persistentStoreCoordinator?.managedObjectModel
            guard let entity = model?.entity(forID: key.entityID) ?? relationship.destinationEntity else { return nil }
            return NSManagedObjectID(entity: entity, store: objectID.persistentStore, reference: .permanent(key.pk))
        case let .objectID(destination)?:
            return destination
        case nil:
            return nil
        }
    }
}
