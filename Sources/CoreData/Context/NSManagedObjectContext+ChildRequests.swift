import Foundation

// MARK: - A context as the object source of its children

/// What a parent context answers its children (``ParentContextObjectSource``), each call on
/// the parent's own queue (`performAndWait`, re-entrant): object values as rows, to-many
/// members and existence checks, all reflecting the parent's unsaved changes. What the
/// parent does not hold it asks its own source in turn.
extension NSManagedObjectContext {
    /// Whether a child may build a fault for this ID: permanent IDs always, temporary ones
    /// when this context or one of its ancestors has the object.
    func knowsObject(_ objectID: NSManagedObjectID) -> Bool {
        guard objectID.isTemporaryID else { return true }
        return performAndWait {
            registeredObject(for: objectID) != nil || (source?.knowsObject(withTemporaryID: objectID) ?? false)
        }
    }

    /// The object's current values in this context, as a row for a child's fault (nil
    /// when the object is unknown here or gone from the store).
    func snapshotRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try performAndWait {
            guard let object = object(forSourceID: objectID) else { return nil }
            try object.fireFaultThrowing()
            if object.committedRow == nil && !object.isInsertedFlag && object.isDeletedFlag { return nil }
            return try object.snapshotRow()
        }
    }

    /// The IDs of the members of a to-many relationship, as this context has them now.
    func relatedIDs(_ relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        try performAndWait {
            guard let object = object(forSourceID: objectID) else { return [] }
            try object.fireFaultThrowing()
            return object.toManyMembers(slot: relationship.slot, relationship: relationship)
                .filter { $0.context === self && !$0.isDeletedFlag }.map(\.objectID)
        }
    }

    /// Throws unless the object exists here (unsaved inserts included) or in the store.
    func checkExistingObject(_ objectID: NSManagedObjectID) throws {
        try performAndWait {
            guard object(forSourceID: objectID) != nil else {
                throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                    "The object \(objectID) is not in this context's parent chain.",
                    userInfo: [NSAffectedObjectsErrorKey: [objectID]])
            }
            _ = try existingObject(with: objectID)
        }
    }

    /// Permanent IDs for objects known here by temporary IDs (obtained here, or by the
    /// ancestor that inserted them); other IDs come back unchanged.
    func permanentIDs(forTemporaryIDs ids: [NSManagedObjectID]) throws -> [NSManagedObjectID] {
        try performAndWait {
            let objects = ids.map(object(forSourceID:))
            try obtainPermanentIDs(for: objects.compactMap { $0 })
            return zip(ids, objects).map { id, object in object?.objectID ?? id }
        }
    }
}

extension NSManagedObject {
    /// The object's persistent values as a row for a child context: to-one destinations by
    /// object ID (a destination may have only a temporary one). To-many members are read
    /// on demand.
    func snapshotRow() throws -> StoreRow {
        try persistentRow(pk: objectID.primaryKey ?? 0, version: committedRow?.version ?? 0, strict: false) {
            $0.context != nil ? .objectID($0.objectID) : nil
        }
    }
}
