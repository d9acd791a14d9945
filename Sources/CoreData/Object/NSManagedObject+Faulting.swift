import Foundation
internal import CCoreDataRuntime

// MARK: - Faults

extension NSManagedObject {
    /// Whether the object's data is not loaded yet (or was discarded). Reading any
    /// property fires the fault.
    public var isFault: Bool {
        cdr_object_fault_state(storage) != CDR_REALIZED
    }

    /// Whether a relationship's destination is not loaded: a to-one whose object is a
    /// fault, or a to-many not read yet. Never fires anything.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = property(forKey: key) as? NSRelationshipDescription else {
            coreDataMisuse("\(key) is not a relationship of the entity \(entity.name ?? "?").")
        }
        if isFault { return true }
        if relationship.isToMany {
            let value = cdr_object_get(storage, relationship.slot)
            return value?.pointee.type != UInt8(CDR_SET.rawValue) && !isInsertedFlag
        }
        return toOneValue(slot: relationship.slot)?.isFault ?? false
    }

    @inline(__always)
    func fireFaultIfNeeded() {
        if cdr_object_fault_state(storage) != CDR_REALIZED { fireFault() }
    }

    /// Fires the fault; traps with Apple's wording when the data is gone (Apple raises
    /// `NSObjectInaccessibleException`). `fireFaultThrowing` is the throwing twin.
    func fireFault() {
        do { try fireFaultThrowing() } catch {
            coreDataMisuse("CoreData could not fulfill a fault for '\(objectID)'")
        }
    }

    func fireFaultThrowing() throws {
        guard cdr_object_fault_state(storage) == CDR_FAULT else { return }
        switch cdr_object_fire(storage) {
        case Int32(CDR_OK):
            awakeFromFetch()
        case Int32(CDR_EBUSY):
            return // already loading (a hook read a value while firing)
        default:
            if let context, context.shouldDeleteInaccessibleFaults {
                // The row is gone: Apple's default is an object with nil values that
                // reports itself deleted, not an exception.
                cdr_object_mark_realized(storage)
                isDeletedFlag = true
                return
            }
            throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                "CoreData could not fulfill a fault for '\(objectID)': the object is not in the store or has no context.",
                userInfo: [NSAffectedObjectsErrorKey: [self]])
        }
    }

    /// The runtime's fulfil callback lands here: loads the row from the coordinator's
    /// row cache (or the store) into the slots.
    func fulfilFault() -> Bool {
        guard let context, let row = try? context.row(forFault: self) else { return false }
        load(row)
        return true
    }

    /// Loads a store row into the slots without marking anything dirty, and makes it
    /// the committed snapshot.
    func load(_ row: StoreRow) {
        let values = row.values
        let runtime = entity.runtime!
        // Stored attributes with a slot type of their own: copied as they are.
        runtime.plainAttributeSlots.withUnsafeBufferPointer { slots in
            for slot in slots {
                if let value = cdr_row_get(values, slot) { _ = cdr_object_load(storage, slot, value) }
            }
        }
        for property in runtime.otherLoadedProperties {
            let slot = property.slot
            switch property {
            case let attribute as NSAttributeDescription:
                guard let value = cdr_row_get(values, slot) else { continue }
                let decoded = Transformer.decode(value.pointee, for: attribute)
                _ = attribute.store(decoded, in: storage, slot: slot, dirty: false)
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                if let references = (row as? ParentRow)?.objectReferences {
                    // A parent context's row: destinations by ID, perhaps temporary.
                    writeToOne(references[slot].flatMap { context?.objectFromParent($0) }, slot: slot, dirty: false)
                    continue
                }
                guard let value = cdr_row_get(values, slot)?.pointee,
                      value.type == UInt8(CDR_INT64.rawValue),
                      let destination = context?.registeredObjectOrFault(
                        entityID: Int(value.length), pk: value.u.i, store: objectID.persistentStore,
                        fallback: relationship.destinationEntity)
                else {
                    writeToOne(nil, slot: slot, dirty: false)
                    continue
                }
                writeToOne(destination, slot: slot, dirty: false)
            default:
                continue
            }
        }
        committedRow = row
    }

    /// Turns a realized object back into a fault, dropping its values (and any unsaved
    /// changes). Inserted objects cannot become faults.
    func turnIntoFault() {
        guard !isFault, !isInsertedFlag else { return }
        willTurnIntoFault()
        cdr_object_turn_into_fault(storage)
        invalidValues.removeAll()
        committedToMany.removeAll()
        didTurnIntoFault()
    }
}
