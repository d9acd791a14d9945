import Foundation

// MARK: - Undo and redo through the context's undo manager

extension NSManagedObjectContext {
    /// Undoes the last group of changes recorded by ``undoManager``: the current event's
    /// changes are closed into a group first (`processPendingChanges()`), then the group
    /// is reversed, inverses and delete-rule effects included.
    ///
    /// Does nothing without an undo manager.
    public func undo() {
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.undo()
        processPendingChanges()
    }

    /// Redoes the last undone group of changes.
    public func redo() {
        guard let undoManager else { return }
        processPendingChanges()
        undoManager.redo()
        processPendingChanges()
    }

    /// Runs `body` with undo registration off (rollback, refresh, derived values).
    func withoutUndoRegistration<T>(_ body: () throws -> T) rethrows -> T {
        guard let undoManager else { return try body() }
        undoManager.disableUndoRegistration()
        defer { undoManager.enableUndoRegistration() }
        return try body()
    }

    var isRecordingUndo: Bool {
        guard let undoManager else { return false }
        return undoManager.isUndoRegistrationEnabled
    }

    // MARK: - Insertions

    func recordInsertion(_ object: NSManagedObject) {
        guard isRecordingUndo else { return }
        undoManager?.registerUndo(withTarget: self) { $0.undoInsertion(object) }
    }

    private func undoInsertion(_ object: NSManagedObject) {
        guard object.context === self else { return }
        guard object.isInsertedFlag else {
            // Saved since: undoing its insertion deletes it.
            delete(object)
            return
        }
        changes.cancelInsert(object)
        object.isInsertedFlag = false
        object.isDeletedFlag = false
        unregister(object)
        object.awake(fromSnapshotEvents: .undoInsertion)
        undoManager?.registerUndo(withTarget: self) { $0.redoInsertion(object) }
    }

    /// Registers an object again as inserted (redo of an insertion, undo of the removal
    /// of a deleted, never-saved object).
    private func redoInsertion(_ object: NSManagedObject) {
        guard reinsert(object) else { return }
        undoManager?.registerUndo(withTarget: self) { $0.undoInsertion(object) }
    }

    private func reinsert(_ object: NSManagedObject) -> Bool {
        guard object.context == nil || object.context === self else { return false }
        register(object)
        object.isInsertedFlag = true
        object.isDeletedFlag = false
        changes.recordInsert(object)
        return true
    }

    // MARK: - Deletions

    func recordDeletion(_ object: NSManagedObject) {
        guard isRecordingUndo else { return }
        undoManager?.registerUndo(withTarget: self) { $0.undoDeletion(object) }
    }

    private func undoDeletion(_ object: NSManagedObject) {
        object.isDeletedFlag = false
        changes.cancelDelete(object)
        object.awake(fromSnapshotEvents: .undoDeletion)
        undoManager?.registerUndo(withTarget: self) { $0.redoDeletion(object) }
    }

    /// Marks the object deleted again; the effects of its delete rules are redone by
    /// their own recorded actions, so the rules do not run a second time.
    private func redoDeletion(_ object: NSManagedObject) {
        guard object.context === self else { return }
        object.isDeletedFlag = true
        if !object.isInsertedFlag {
            changes.recordDelete(object)
        }
        undoManager?.registerUndo(withTarget: self) { $0.undoDeletion(object) }
    }

    /// A deleted, never-saved object leaves the context (at `processPendingChanges()`).
    func recordRemovalOfDeletedInsert(_ object: NSManagedObject) {
        guard isRecordingUndo else { return }
        undoManager?.registerUndo(withTarget: self) { context in
            guard context.reinsert(object) else { return }
            object.isDeletedFlag = true
            context.undoManager?.registerUndo(withTarget: context) { $0.removeDeletedInsert(object) }
        }
    }

    private func removeDeletedInsert(_ object: NSManagedObject) {
        guard object.context === self else { return }
        object.isInsertedFlag = false
        object.isDeletedFlag = false
        unregister(object)
        recordRemovalOfDeletedInsert(object)
    }
}

// MARK: - Property changes

extension NSManagedObject {
    /// Records the current value of a slot so that undo can put it back. Called before
    /// every change that marks a slot dirty (attributes, to-one, to-many, inverses).
    @inline(__always)
    func recordUndoableChange(ofSlot slot: Int32) {
        guard let context, context.undoManager != nil else { return }
        recordUndoableChangeSlowPath(slot, context)
    }

    private func recordUndoableChangeSlowPath(_ slot: Int32, _ context: NSManagedObjectContext) {
        guard context.isRecordingUndo, !isFault else { return }
        let property = entity.runtime.slotProperties[Int(slot)]
        let old: Any?
        if let relationship = property as? NSRelationshipDescription {
            old = relationship.isToMany
                ? toManyMembers(slot: slot, relationship: relationship)
                : toOneValue(slot: slot)
        } else {
            old = primitiveValue(atSlot: slot, property: property)
        }
        context.undoManager?.registerUndo(withTarget: self) { object in
            object.restoreForUndo(old, property)
        }
    }

    /// Puts back a recorded value, recording the current one for redo.
    private func restoreForUndo(_ value: Any?, _ property: NSPropertyDescription) {
        guard let context else { return }
        context.noteWillChange(self)
        if let relationship = property as? NSRelationshipDescription {
            if relationship.isToMany {
                replaceToManyPrimitive(relationship, with: value as? [NSManagedObject] ?? [])
            } else {
                writeToOne(value as? NSManagedObject, slot: relationship.slot, dirty: true)
            }
        } else {
            setPrimitive(value, for: property)
        }
        awake(fromSnapshotEvents: .undoUpdate)
    }
}
