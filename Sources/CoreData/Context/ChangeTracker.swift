import Foundation

/// What changed in one context: the objects inserted, deleted and touched since the last
/// save, the same for the current event (since the last `processPendingChanges()`), and the
/// deleted objects whose delete rules have not run yet.
///
/// The context records into it; saving, validation, derived attributes, uniqueness checks,
/// notifications and undo read it. Nothing else reaches into the context's bookkeeping.
///
/// "Touched" objects are candidates for the updated set: an object is updated when it was
/// touched and still has a property that differs (its dirty bits), not inserted or deleted.
final class ChangeTracker {
    /// Bits of `NSManagedObject.changeMarks`: the object is in ``touched`` /
    /// ``eventTouched``. Set and cleared only here, together with those dictionaries.
    enum Mark {
        static let touched: UInt8 = 1
        static let eventTouched: UInt8 = 2
        static let both: UInt8 = 3
    }

    private var inserted: [ObjectIdentifier: NSManagedObject] = [:]
    private var deleted: [ObjectIdentifier: NSManagedObject] = [:]
    private var touched: [ObjectIdentifier: NSManagedObject] = [:]
    private var eventInserted: [ObjectIdentifier: NSManagedObject] = [:]
    private var eventDeleted: [ObjectIdentifier: NSManagedObject] = [:]
    private var eventTouched: [ObjectIdentifier: NSManagedObject] = [:]
    /// Deleted objects whose delete rules have not run yet, in deletion order.
    private var pendingDeletes: [NSManagedObject] = []
    /// Deleted objects whose rows another writer already deleted (a merge policy settled
    /// the conflict): the save lets them go without deleting anything in the store.
    private var goneFromStore: Set<ObjectIdentifier> = []

    // MARK: - Recording

    /// An object was inserted (or inserted again, by redo or by a child's save).
    func recordInsert(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        inserted[id] = object
        eventInserted[id] = object
    }

    /// A saved object was deleted.
    func recordDelete(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        deleted[id] = object
        eventDeleted[id] = object
    }

    /// An object is about to change: a candidate for the updated set and the current event.
    @inline(__always)
    func recordChange(_ object: NSManagedObject) {
        // Every write of an object goes through here: the marks answer "already recorded"
        // without hashing.
        let marks = object.changeMarks
        if marks == Mark.both { return }
        let id = ObjectIdentifier(object)
        if marks & Mark.touched == 0 { touched[id] = object }
        if marks & Mark.eventTouched == 0 { eventTouched[id] = object }
        object.changeMarks = Mark.both
    }

    /// An insertion is undone: the object is no longer inserted.
    func cancelInsert(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        inserted.removeValue(forKey: id)
        eventInserted.removeValue(forKey: id)
        pendingDeletes.removeAll { $0 === object }
    }

    /// A deletion is undone (by undo, by inserting the object again or by refreshing it).
    func cancelDelete(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        deleted.removeValue(forKey: id)
        eventDeleted.removeValue(forKey: id)
        pendingDeletes.removeAll { $0 === object }
        goneFromStore.remove(id)
    }

    /// An object's changes are discarded (it became a fault again): no longer touched.
    func cancelChanges(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        touched.removeValue(forKey: id)
        eventTouched.removeValue(forKey: id)
        object.changeMarks = 0
    }

    /// A deleted object's row is already gone from the store.
    func recordGoneFromStore(_ object: NSManagedObject) {
        goneFromStore.insert(ObjectIdentifier(object))
    }

    /// Whether a deleted object's row is already gone from the store.
    func isGoneFromStore(_ object: NSManagedObject) -> Bool {
        !goneFromStore.isEmpty && goneFromStore.contains(ObjectIdentifier(object))
    }

    /// The object leaves the context: forget it everywhere.
    func forget(_ object: NSManagedObject) {
        let id = ObjectIdentifier(object)
        goneFromStore.remove(id)
        inserted.removeValue(forKey: id)
        deleted.removeValue(forKey: id)
        touched.removeValue(forKey: id)
        eventInserted.removeValue(forKey: id)
        eventDeleted.removeValue(forKey: id)
        eventTouched.removeValue(forKey: id)
        object.changeMarks = 0
    }

    /// Whether the current event inserted the object (no change event announced it yet).
    func isInsertedInCurrentEvent(_ object: NSManagedObject) -> Bool {
        eventInserted[ObjectIdentifier(object)] != nil
    }

    /// An object whose insert an earlier event announced left the context unsaved (it was
    /// deleted): this event announces it as deleted.
    func recordRemovalOfAnnouncedInsert(_ object: NSManagedObject) {
        eventDeleted[ObjectIdentifier(object)] = object
    }

    // MARK: - Delete rules

    /// Queues a deleted object for its delete rules.
    func enqueueDeleteRules(for object: NSManagedObject) { pendingDeletes.append(object) }

    /// The next deleted object whose delete rules must run, if any.
    func nextPendingDelete() -> NSManagedObject? {
        pendingDeletes.isEmpty ? nil : pendingDeletes.removeFirst()
    }

    // MARK: - Reading

    var insertedObjects: [NSManagedObject] { Array(inserted.values) }
    var deletedObjects: [NSManagedObject] { Array(deleted.values) }
    var updatedObjects: [NSManagedObject] { touched.values.filter(\.isUpdated) }
    /// Inserted objects not deleted since, and updated ones: what validation, derived
    /// attributes and uniqueness constraints look at.
    var savedObjects: [NSManagedObject] {
        inserted.values.filter { !$0.isDeletedFlag } + touched.values.filter(\.isUpdated)
    }
    /// Every object inserted, deleted or touched: what a rollback reverts.
    var changedObjects: (inserted: [NSManagedObject], others: [NSManagedObject]) {
        (Array(inserted.values), Array(touched.values) + Array(deleted.values))
    }

    var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || touched.values.contains { $0.isUpdated }
    }

    /// Whether unsaved changes touch objects of `entity`'s inheritance hierarchy (a fetch
    /// must then fold them into what its source returns).
    func hasChanges(inHierarchyOf entity: NSEntityDescription) -> Bool {
        let root = entity.runtime.root
        func related(_ object: NSManagedObject) -> Bool { object.entity.runtime.root === root }
        return inserted.values.contains(where: related) || deleted.values.contains(where: related)
            || touched.values.contains { related($0) && $0.isUpdated }
    }

    // MARK: - Events and saves

    /// Ends the current event: returns what it inserted, updated and deleted in `context`
    /// (for ObjectsDidChange), clears the objects' event dirty bits and starts a new event.
    func endEvent(in context: NSManagedObjectContext)
        -> (inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>) {
        let insertedNow = Set(eventInserted.values.filter { $0.context === context })
        let deletedNow = Set(eventDeleted.values)
        // An object inserted in an earlier event and changed in this one is updated for
        // this event (as on Apple), though the context still counts it as inserted.
        let updatedNow = Set(eventTouched.values.filter {
            $0.context === context && eventInserted[ObjectIdentifier($0)] == nil && !$0.isDeletedFlag
                && $0.storage.hasEventDirty
        })
        for object in eventTouched.values {
            object.storage.clearEventDirty()
            object.changeMarks &= ~Mark.eventTouched
        }
        for object in eventInserted.values { object.storage.clearEventDirty() }
        eventInserted.removeAll()
        eventDeleted.removeAll()
        eventTouched.removeAll()
        return (insertedNow, updatedNow, deletedNow)
    }

    /// The changes a save writes: inserts (not deleted since), updates and deletes.
    var changesToSave: (inserts: [NSManagedObject], updates: [NSManagedObject], deletes: [NSManagedObject]) {
        (Array(inserted.values), touched.values.filter(\.isUpdated), Array(deleted.values))
    }

    /// A save committed every change: nothing is inserted, deleted or touched any more.
    func clearSaved() {
        inserted.removeAll()
        deleted.removeAll()
        for object in touched.values { object.changeMarks &= ~Mark.touched }
        touched.removeAll()
        goneFromStore.removeAll()
    }

    /// Forgets everything (reset, rollback).
    func removeAll() {
        clearSaved()
        eventInserted.removeAll()
        eventDeleted.removeAll()
        for object in eventTouched.values { object.changeMarks &= ~Mark.eventTouched }
        eventTouched.removeAll()
        pendingDeletes.removeAll()
    }
}
