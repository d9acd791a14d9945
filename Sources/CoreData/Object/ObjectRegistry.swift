import Foundation

/// The objects a context has registered, by key: objects with permanent IDs by store,
/// inheritance root and primary key, objects with temporary IDs by ID.
///
/// A context keeps its changed objects alive through its change tracker (and locked ones
/// through `lockedObjects`); the registry holds every other object strongly only when
/// `retainsRegisteredObjects` is true. Otherwise it keeps a plain pointer, and an unchanged
/// object stays registered while something else uses it and leaves at once when the last
/// outside reference goes, as Apple's contexts let unchanged objects go: the object's
/// `deinit` removes its entry, under the registry's lock, before its memory goes.
///
/// Why not a `weak` reference per entry: Swift gives every weakly referenced object a side
/// table (one more allocation, and atomic traffic on every load), which doubled the cost of
/// registering an object. A pointer and the `deinit` hook cost a dictionary removal.
///
/// Thread safety: an object's last reference may go on any thread (its `deinit` runs
/// there), while the context reads and writes the registry on its own queue; every access
/// holds ``lock``. A lookup takes its strong reference with ``RuntimeBridge/tryRetain(_:as:)``
/// under the lock, so an object whose `deinit` has begun (and waits for the lock to remove
/// its entry) is never handed out. Nothing is released while the lock is held: a release
/// could run a `deinit` that takes the lock again.
///
/// The IDs of objects that went away, whose stores asked to hear when a context lets go of
/// their objects (`NSIncrementalStore`), wait in ``released`` until the context next
/// registers an object (it tells the stores on its own queue).
final class ObjectRegistry: @unchecked Sendable {
    // @unchecked Sendable: every field below is read and written under `lock`.

    /// A permanent ID's place in the registry: store, inheritance root and primary key.
    struct Key: Hashable {
        let store: ObjectIdentifier
        let root: ObjectIdentifier
        let pk: Int64

        func hash(into hasher: inout Hasher) { hasher.combine(_rawHashValue(seed: 0)) }
        func _rawHashValue(seed: Int) -> Int { mixKeyHash(store, root, pk, seed: seed) }

        /// The key of a permanent ID (also after its store went away: the identifier is
        /// fixed at the store's creation); nil for a temporary ID.
        init?(_ objectID: NSManagedObjectID) {
            guard let pk = objectID.primaryKey, let store = objectID.storeReference?.identifier else { return nil }
            self.init(store: store, root: objectID.entity.runtime.rootID, pk: pk)
        }

        init(store: ObjectIdentifier, root: ObjectIdentifier, pk: Int64) {
            self.store = store
            self.root = root
            self.pk = pk
        }
    }

    /// An ID's place among the objects without a permanent key (temporary IDs, and IDs of
    /// a store that went away): the ID, compared as `NSManagedObjectID.isEqual(_:)` does,
    /// but without a dynamic `isEqual(_:)` call (and its cast) per probe, and hashed once
    /// (the ID's own `hash` mixed with the table's seed, not SipHash over it).
    struct TemporaryKey: Hashable {
        let objectID: NSManagedObjectID

        init(_ objectID: NSManagedObjectID) { self.objectID = objectID }

        static func == (a: TemporaryKey, b: TemporaryKey) -> Bool {
            if a.objectID === b.objectID { return true }
            if case .temporary(let x) = a.objectID.reference, case .temporary(let y) = b.objectID.reference {
                return x == y
            }
            return a.objectID.isEqual(b.objectID)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(_rawHashValue(seed: 0)) }
        func _rawHashValue(seed: Int) -> Int {
            mixKeyHash(ObjectIdentifier(TemporaryKey.self), ObjectIdentifier(TemporaryKey.self), Int64(objectID.hash),
                       seed: seed)
        }
    }

    /// One registered object.
    struct Entry {
        /// The object, unretained (its `deinit` removes the entry).
        let pointer: UnsafeMutableRawPointer
        /// The object again, retained, when the context retains registered objects.
        var strong: NSManagedObject?
        /// The object's ID, kept only when its store wants to hear of unregistration.
        let reportedID: NSManagedObjectID?

        init(_ object: NSManagedObject, retained: Bool) {
            pointer = Unmanaged.passUnretained(object).toOpaque()
            strong = retained ? object : nil
            reportedID = object.objectID.storeReference?.talksToContexts == true ? object.objectID : nil
        }

        /// The live object, retained; nil when its `deinit` has begun. Under the lock only.
        var object: NSManagedObject? {
            if let strong { return strong }
            return RuntimeBridge.tryRetain(pointer, as: NSManagedObject.self)
        }
    }

    private let lock = NSLock()
    private var permanent: [Key: Entry] = [:]
    private var temporary: [TemporaryKey: Entry] = [:]
    /// Reported IDs of objects that went away, not yet handed to the context.
    private var released: [NSManagedObjectID] = []

    // MARK: - Looking up

    /// Whether no object with a permanent ID is registered: a cheap "nothing to find" test.
    var hasNoPermanentObjects: Bool {
        lock.lock()
        defer { lock.unlock() }
        return permanent.isEmpty
    }

    /// The live object under a permanent key.
    subscript(key: Key) -> NSManagedObject? {
        lock.lock()
        defer { lock.unlock() }
        return permanent[key]?.object
    }

    /// The live objects under permanent keys, in the keys' order (nil where none is), looked
    /// up under one lock.
    func objects(for keys: [Key]) -> [NSManagedObject?] {
        lock.lock()
        defer { lock.unlock() }
        if permanent.isEmpty { return Array(repeating: nil, count: keys.count) }
        return keys.map { permanent[$0]?.object }
    }

    /// The live object under a temporary ID.
    subscript(temporaryID objectID: NSManagedObjectID) -> NSManagedObject? {
        lock.lock()
        defer { lock.unlock() }
        return temporary[TemporaryKey(objectID)]?.object
    }

    /// Every live object.
    var objects: [NSManagedObject] {
        lock.lock()
        defer { lock.unlock() }
        var result: [NSManagedObject] = []
        result.reserveCapacity(permanent.count + temporary.count)
        for entry in permanent.values { if let object = entry.object { result.append(object) } }
        for entry in temporary.values { if let object = entry.object { result.append(object) } }
        return result
    }

    /// The reported IDs of every registered object with a permanent ID, and of those that
    /// went away and were not handed out yet (which this hands out).
    func takeReportedIDs() -> [NSManagedObjectID] {
        lock.lock()
        defer { lock.unlock() }
        var result = released
        released = []
        for entry in permanent.values { if let id = entry.reportedID { result.append(id) } }
        return result
    }

    // MARK: - Registering

    /// Registers an object under its permanent key, or under its temporary ID when `key` is nil.
    /// Returns the reported IDs of objects that went away since the last call.
    func insert(_ object: NSManagedObject, key: Key?, retained: Bool) -> [NSManagedObjectID] {
        let entry = Entry(object, retained: retained)
        object.registry = self
        object.isRegisteredPermanently = key != nil
        var replaced: Entry?
        lock.lock()
        if let key {
            replaced = permanent.updateValue(entry, forKey: key)
        } else {
            replaced = temporary.updateValue(entry, forKey: TemporaryKey(object.objectID))
        }
        var gone: [NSManagedObjectID] = []
        if !released.isEmpty { swap(&gone, &released) }
        lock.unlock()
        withExtendedLifetime(replaced) {}
        return gone
    }

    /// ``insert(_:key:retained:)`` for many objects with permanent keys (`keys[i]` is
    /// `objects[i]`'s), under one lock. Returns the reported IDs of objects that went away
    /// since the last call.
    func insert(_ objects: [NSManagedObject], keys: [Key], retained: Bool) -> [NSManagedObjectID] {
        var entries: [Entry] = []
        entries.reserveCapacity(objects.count)
        for object in objects {
            entries.append(Entry(object, retained: retained))
            object.registry = self
            object.isRegisteredPermanently = true
        }
        var replaced: [Entry] = []
        lock.lock()
        // The table is moved into a local for the loop: each write to the stored property
        // would begin and end a dynamic exclusivity access of its own.
        var table: [Key: Entry] = [:]
        swap(&table, &permanent)
        table.reserveCapacity(table.count + entries.count)
        for (entry, key) in zip(entries, keys) {
            if let old = table.updateValue(entry, forKey: key) { replaced.append(old) }
        }
        swap(&table, &permanent)
        var gone: [NSManagedObjectID] = []
        if !released.isEmpty { swap(&gone, &released) }
        lock.unlock()
        withExtendedLifetime(replaced) {}
        return gone
    }

    /// Moves saved objects from their temporary IDs to permanent ones (`objectIDs[i]` is
    /// `objects[i]`'s new ID, `keys[i]` its key), under one lock: each object's temporary
    /// entry goes (when it is still the object's) and a permanent one takes its place.
    /// Returns the reported IDs of objects that went away since the last call.
    func promote(_ objects: [NSManagedObject], to objectIDs: [NSManagedObjectID], keys: [Key],
                 retained: Bool) -> [NSManagedObjectID] {
        var removed: [Entry] = []
        var replaced: [Entry] = []
        lock.lock()
        var table: [Key: Entry] = [:]
        swap(&table, &permanent)
        table.reserveCapacity(table.count + objects.count)
        for i in objects.indices {
            let object = objects[i]
            let pointer = Unmanaged.passUnretained(object).toOpaque()
            if let old = removeEntry(pointer, key: nil, objectID: object.objectID) { removed.append(old) }
            object.objectID = objectIDs[i]
            object.registry = self
            object.isRegisteredPermanently = true
            if let old = table.updateValue(Entry(object, retained: retained), forKey: keys[i]) { replaced.append(old) }
        }
        swap(&table, &permanent)
        var gone: [NSManagedObjectID] = []
        if !released.isEmpty { swap(&gone, &released) }
        lock.unlock()
        withExtendedLifetime((removed, replaced)) {}
        return gone
    }

    /// Removes an object's entry (if the entry is still the object's).
    func remove(_ object: NSManagedObject) {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        let key = object.isRegisteredPermanently ? Key(object.objectID) : nil
        lock.lock()
        let removed = removeEntry(pointer, key: key, objectID: object.objectID)
        lock.unlock()
        object.registry = nil
        withExtendedLifetime(removed) {}
    }

    /// Called by a registered object's `deinit`: removes its entry, keeping its reported ID.
    func objectDidDeinit(_ object: NSManagedObject) {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        let key = object.isRegisteredPermanently ? Key(object.objectID) : nil
        lock.lock()
        if let removed = removeEntry(pointer, key: key, objectID: object.objectID), let id = removed.reportedID {
            released.append(id)
        }
        lock.unlock()
    }

    /// Removes the entry under `key` (or the temporary `objectID`) when it is the object's.
    /// Under the lock.
    private func removeEntry(_ pointer: UnsafeMutableRawPointer, key: Key?, objectID: NSManagedObjectID) -> Entry? {
        // One hash per removal: find the index, check it is the object's entry, remove at
        // that index.
        if let key {
            guard let index = permanent.index(forKey: key), permanent[index].value.pointer == pointer else { return nil }
            return permanent.remove(at: index).value
        }
        guard let index = temporary.index(forKey: TemporaryKey(objectID)), temporary[index].value.pointer == pointer else { return nil }
        return temporary.remove(at: index).value
    }

    /// Removes every entry.
    func removeAll() {
        lock.lock()
        // Released after unlocking: the strong references may be the last ones.
        let dropped = (permanent, temporary)
        permanent = [:]
        temporary = [:]
        released = []
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }

    /// Holds every live object strongly (`true`) or not (`false`) from now on.
    func setRetained(_ retained: Bool) {
        // `held` keeps every object alive until the lock is released, so that dropping a
        // strong reference here never runs a `deinit`.
        var held: [NSManagedObject] = []
        lock.lock()
        for key in Array(permanent.keys) {
            guard let object = permanent[key]?.object else { continue }
            held.append(object)
            permanent[key]?.strong = retained ? object : nil
        }
        for key in Array(temporary.keys) {
            guard let object = temporary[key]?.object else { continue }
            held.append(object)
            temporary[key]?.strong = retained ? object : nil
        }
        lock.unlock()
        withExtendedLifetime(held) {}
    }
}
