import Foundation

/// The objects a context has registered, by key, each held strongly or weakly.
///
/// A context keeps its changed objects alive through its ``ChangeTracker`` (and locked ones
/// through `lockedObjects`); the registry adds a strong reference to every other object only
/// when `retainsRegisteredObjects` is true. Otherwise an unchanged object stays registered
/// while something else uses it, and leaves once the last outside reference goes, as Apple's
/// contexts let unchanged objects go.
///
/// An object that went away leaves an empty entry behind: lookups skip it, and ``prune()``
/// (run as the registry grows) removes such entries and hands back the IDs whose stores asked
/// to hear when the context lets go of their objects (`NSIncrementalStore`).
struct ObjectRegistry<EntryKey: Hashable> {
    /// One registered object.
    struct Entry {
        weak var weakObject: NSManagedObject?
        var strongObject: NSManagedObject?
        /// The object's ID, kept only when its store wants to hear of unregistration.
        let reportedID: NSManagedObjectID?

        init(_ object: NSManagedObject, retained: Bool) {
            weakObject = object
            strongObject = retained ? object : nil
            reportedID = object.objectID.storeReference?.talksToContexts == true ? object.objectID : nil
        }

        var object: NSManagedObject? { strongObject ?? weakObject }
    }

    private var entries: [EntryKey: Entry] = [:]
    /// The entry count at which the next ``insert(_:for:retained:)`` prunes first.
    private var pruneThreshold = 1024

    /// Whether no entry is left (live or not): a cheap "nothing can be registered" test.
    var isEmpty: Bool { entries.isEmpty }

    /// The live object under a key.
    subscript(key: EntryKey) -> NSManagedObject? { entries[key]?.object }

    /// Every live object.
    var objects: [NSManagedObject] { entries.values.compactMap(\.object) }

    /// The IDs of every entry, live or gone, whose store wants to hear of unregistration.
    var reportedIDs: [NSManagedObjectID] { entries.values.compactMap(\.reportedID) }

    /// Registers an object under a key. Returns the reported IDs of objects that went away
    /// and whose entries this insertion dropped: the one it replaces under the same key, and
    /// those a prune removed.
    mutating func insert(_ object: NSManagedObject, for key: EntryKey, retained: Bool) -> [NSManagedObjectID] {
        var released: [NSManagedObjectID] = []
        if entries.count >= pruneThreshold { released = prune() }
        if let previous = entries[key], previous.object == nil, let id = previous.reportedID {
            released.append(id)
        }
        entries[key] = Entry(object, retained: retained)
        return released
    }

    /// Removes the entry under a key.
    mutating func removeValue(forKey key: EntryKey) {
        entries.removeValue(forKey: key)
    }

    /// Removes every entry.
    mutating func removeAll() {
        entries.removeAll()
        pruneThreshold = 1024
    }

    /// Makes room for `count` more entries.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(entries.count + count)
    }

    /// Holds every live object strongly (`true`) or weakly (`false`) from now on.
    mutating func setRetained(_ retained: Bool) {
        for key in Array(entries.keys) {
            guard let object = entries[key]?.object else { continue }
            entries[key]?.strongObject = retained ? object : nil
        }
    }

    /// Drops the entries of objects that went away; returns their reported IDs.
    mutating func prune() -> [NSManagedObjectID] {
        var released: [NSManagedObjectID] = []
        entries = entries.filter { _, entry in
            if entry.object != nil { return true }
            if let id = entry.reportedID { released.append(id) }
            return false
        }
        pruneThreshold = Swift.max(1024, entries.count * 2)
        return released
    }
}
