import Foundation

// MARK: - Faults

extension NSManagedObject {
    /// Whether the object's data is not loaded yet (or was discarded). Reading any
    /// property fires the fault.
    public var isFault: Bool {
        !storage.isRealized
    }

    /// Whether a relationship's destination is not loaded: a to-one whose object is a
    /// fault, or a to-many not read yet. Never fires anything.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = property(forKey: key) as? NSRelationshipDescription else {
            coreDataMisuse("\(key) is not a relationship of the entity \(entity.name ?? "?").")
        }
        if isFault { return true }
        if relationship.isToMany {
            return storage.set(at: relationship.slot) == nil && !isInsertedFlag
        }
        return toOneValue(slot: relationship.slot)?.isFault ?? false
    }

    /// Whether the object is between states: 0 when it is settled (a fault, or realized),
    /// non-zero while the store's values are being loaded into it.
    ///
    /// - Note: Apple parity: Apple also reports the transitions key-value observers see;
    ///   Linux has no key-value observing, so outside a load this is 0.
    public var faultingState: Int {
        storage.faultState == .firing ? 1 : 0
    }

    @inline(__always)
    func fireFaultIfNeeded() {
        if !storage.isRealized { fireFault() }
    }

    /// Fires the fault; traps with Apple's wording when the data is gone (Apple raises
    /// `NSObjectInaccessibleException`). `fireFaultThrowing` is the throwing twin.
    func fireFault() {
        do { try fireFaultThrowing() } catch {
            coreDataMisuse("CoreData could not fulfill a fault for '\(objectID)'")
        }
    }

    /// Fires the fault; when the data is gone, asks the context's
    /// `shouldHandleInaccessibleFault(_:for:triggeredByProperty:)` (unless
    /// `consultingContext` is false, for calls that report the failure as an error) and
    /// throws when it declines.
    func fireFaultThrowing(consultingContext: Bool = true) throws {
        guard storage.faultState == .fault else { return }
        switch storage.fire() {
        case .fulfilled:
            awakeFromFetch()
        case .busy:
            return // already loading (a hook read a value while firing)
        case .failed:
            if consultingContext, let context,
               context.shouldHandleInaccessibleFault(self, for: objectID, triggeredByProperty: nil) {
                // The row is gone: Apple's default is an object with nil values that
                // reports itself deleted, not an exception.
                storage.markRealized()
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

    /// Turns a realized object back into a fault, dropping its values (and any unsaved
    /// changes). Inserted objects cannot become faults.
    func turnIntoFault() {
        guard !isFault, !isInsertedFlag else { return }
        willTurnIntoFault()
        storage.turnIntoFault()
        invalidValues.removeAll()
        committedToMany.removeAll()
        didTurnIntoFault()
    }
}

extension NSManagedObject {
    /// Installs the runtime's callbacks once per process: a firing fault fills itself
    /// through ``fulfilFault()``. Touched by every object and context initializer.
    static let runtimeInstalled: Bool = {
        RuntimeBridge.install { owner in
            Unmanaged<NSManagedObject>.fromOpaque(owner).takeUnretainedValue().fulfilFault()
        }
        return true
    }()
}
