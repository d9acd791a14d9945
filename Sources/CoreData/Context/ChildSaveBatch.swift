import Foundation

/// One save of a child context: its inserts, updates and deletes become unsaved changes
/// of its parent (same object IDs, temporary ones included), applied on the parent's
/// queue. Nothing reaches a store until the root context saves.
///
/// The child's objects are read into plain values (IDs for objects) on the child's
/// queue; the parent applies them with its own objects. Nothing in the child changes
/// until `commit()`.
final class ChildSaveBatch {
    /// One object's changed properties (transient ones included), as values a parent can
    /// apply.
    private struct Change {
        let objectID: NSManagedObjectID
        var attributes: [(NSAttributeDescription, Any?)] = []
        var toOnes: [(NSRelationshipDescription, NSManagedObjectID?)] = []
        var toManys: [(NSRelationshipDescription, [NSManagedObjectID])] = []
    }

    private unowned let child: NSManagedObjectContext
    private let inserts: [NSManagedObject]
    private let updates: [NSManagedObject]
    private let deletes: [NSManagedObject]

    init(child: NSManagedObjectContext, changes: SaveChanges) {
        self.child = child
        self.inserts = changes.inserts
        self.updates = changes.updates
        self.deletes = changes.deletes
    }

    /// The changed properties of an object, every one for an insert. Transient values go
    /// to the parent too, as on Apple: the parent's object is the same object one level up.
    private func change(of object: NSManagedObject, all: Bool) -> Change {
        var change = Change(objectID: object.objectID)
        for property in object.entity.runtime.slotProperties {
            let slot = property.slot
            guard all || object.storage.isDirty(at: slot) else { continue }
            switch property {
            case let relationship as NSRelationshipDescription where relationship.isToMany:
                let members = object.toManyMembers(slot: slot, relationship: relationship)
                change.toManys.append((relationship, members.filter { !$0.isDeletedFlag }.map(\.objectID)))
            case let relationship as NSRelationshipDescription:
                let destination = object.toOneValue(slot: slot).flatMap { $0.isDeletedFlag ? nil : $0 }
                change.toOnes.append((relationship, destination?.objectID))
            case let attribute as NSAttributeDescription:
                change.attributes.append((attribute, object.primitiveValue(atSlot: slot, property: attribute)))
            default:
                continue
            }
        }
        return change
    }

    /// Hands the changes to the parent, which records them as its own unsaved changes
    /// and posts `NSManagedObjectContextObjectsDidChange`.
    func push(to parent: NSManagedObjectContext) throws {
        let inserted = inserts.map { change(of: $0, all: true) }
        let updated = updates.map { change(of: $0, all: false) }
        let deletedIDs = deletes.map(\.objectID)
        try parent.performAndWait {
            // Find (and load) every updated or deleted object before changing anything, so
            // that a failure leaves the parent as it was.
            var targets: [NSManagedObjectID: NSManagedObject] = [:]
            for objectID in updated.map(\.objectID) + deletedIDs {
                guard let object = parent.object(forSourceID: objectID) else {
                    throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                        "The parent context no longer has the object \(objectID) (it saved since the child read it: obtain permanent IDs before saving the child).",
                        userInfo: [NSAffectedObjectsErrorKey: [objectID]])
                }
                try object.fireFaultThrowing()
                targets[objectID] = object
            }
            for change in inserted { parent.insertFromChild(change.objectID) }
            for change in inserted + updated {
                guard let object = targets[change.objectID] ?? parent.registeredObject(for: change.objectID) else { continue }
                for (attribute, value) in change.attributes { object.setPrimitive(value, for: attribute) }
                for (relationship, destinationID) in change.toOnes {
                    object.setPrimitive(destinationID.flatMap(parent.object(forSourceID:)), for: relationship)
                }
                for (relationship, memberIDs) in change.toManys {
                    object.setPrimitive(memberIDs.compactMap(parent.object(forSourceID:)), for: relationship)
                }
            }
            for objectID in deletedIDs {
                if let object = targets[objectID] { parent.delete(object) }
            }
            parent.processPendingChanges()
        }
    }

    /// The parent took the changes: the child's objects are saved (same IDs), with
    /// their current values as the committed snapshot; deleted ones leave the child.
    func commit() throws {
        for object in inserts { object.isInsertedFlag = false }
        for object in inserts + updates { object.markSaved(as: try object.snapshotRow()) }
        for object in deletes {
            object.isDeletedFlag = false
            child.unregister(object)
        }
        child.changes.clearSaved()
    }
}

extension NSManagedObjectContext {
    /// Registers a child's new object under the child's ID, as an insert of this context.
    fileprivate func insertFromChild(_ objectID: NSManagedObjectID) {
        if registeredObject(for: objectID) != nil { return }
        let object = makeFault(objectID)
        object.storage.markRealized()
        object.isInsertedFlag = true
        changes.recordInsert(object)
        recordInsertion(object)
    }

}
