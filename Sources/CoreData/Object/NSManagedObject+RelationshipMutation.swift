import Foundation

// MARK: - Adding and removing relationship members (inverse upkeep included)

extension NSManagedObject {
    /// The to-many relationship named `key`, or a trap with Apple's wording.
    func toManyRelationship(forKey key: String, ordered: Bool) -> NSRelationshipDescription {
        guard let property = property(forKey: key) else {
            _ = value(forUndefinedKey: key)
            coreDataMisuse("unreachable")
        }
        guard let relationship = property as? NSRelationshipDescription, relationship.isToMany else {
            coreDataMisuse("The key \(key) of the entity \(entity.name ?? "?") is not a to-many relationship.")
        }
        if ordered != relationship.isOrdered {
            coreDataMisuse(ordered
                ? "NSManagedObjects of entity '\(entity.name ?? "?")' do not support -mutableOrderedSetValueForKey: for the property '\(key)'"
                : "NSManagedObjects of entity '\(entity.name ?? "?")' do not support -mutableSetValueForKey: for the property '\(key)'")
        }
        return relationship
    }

    /// Adds `members` to a to-many relationship (at `index` for an ordered one, else at
    /// the end), keeping every inverse in step. Members already present are moved to
    /// `index` in an ordered relationship and left alone otherwise.
    func addMembers(_ members: [NSManagedObject], to relationship: NSRelationshipDescription, at index: Int? = nil) {
        guard !members.isEmpty else { return }
        let key = relationship.name
        willChangeValue(forKey: key)
        defer { didChangeValue(forKey: key) }
        for member in members { assertSameContext(member, relationship) }
        context?.noteWillChange(self)
        recordUndoableChange(ofSlot: relationship.slot)
        let set = loadedSet(slot: relationship.slot, relationship: relationship)
        var added: [NSManagedObject] = []
        var position = index.map { max(0, min($0, set.count)) }
        for member in members {
            if var target = position {
                if let existing = set.index(of: member) {
                    if existing < target { target -= 1 }
                    set.remove(member)
                } else {
                    added.append(member)
                }
                set.insert(member, at: target)
                position = target + 1
            } else if set.add(member) {
                added.append(member)
            }
        }
        storage.markDirty(at: relationship.slot)
        guard let inverse = relationship.inverseRelationship else { return }
        for member in added { member.linkInverse(inverse, to: self, through: relationship) }
    }

    /// Removes `members` from a to-many relationship, keeping every inverse in step.
    func removeMembers(_ members: [NSManagedObject], from relationship: NSRelationshipDescription) {
        guard !members.isEmpty else { return }
        let key = relationship.name
        willChangeValue(forKey: key)
        defer { didChangeValue(forKey: key) }
        context?.noteWillChange(self)
        recordUndoableChange(ofSlot: relationship.slot)
        let set = loadedSet(slot: relationship.slot, relationship: relationship)
        var removed: [NSManagedObject] = []
        for member in members where set.remove(member) {
            removed.append(member)
        }
        guard !removed.isEmpty else { return }
        storage.markDirty(at: relationship.slot)
        guard let inverse = relationship.inverseRelationship else { return }
        for member in removed { member.unlinkInverse(inverse, from: self) }
    }

    /// Replaces the member at `index` of an ordered relationship.
    func replaceMember(at index: Int, with member: NSManagedObject, in relationship: NSRelationshipDescription) {
        let members = toManyMembers(slot: relationship.slot, relationship: relationship)
        guard members.indices.contains(index) else {
            coreDataMisuse("*** -[_NSFaultingMutableOrderedSet replaceObjectAtIndex:withObject:]: index \(index) beyond bounds [0 .. \(members.count - 1)]")
        }
        if members[index] === member { return }
        removeMembers([members[index]], from: relationship)
        addMembers([member], to: relationship, at: index)
    }
}

// MARK: - Live collection proxies

extension NSManagedObject {
    /// A mutable set that reads and writes the to-many relationship `key` directly:
    /// adding or removing members changes the relationship at once, with inverse upkeep,
    /// exactly as `setValue(_:forKey:)` does.
    ///
    /// ```swift
    /// list.mutableSetValue(forKey: "items").add(milk)   // milk.list == list
    /// ```
    ///
    /// This is also how a subclass writes Xcode's generated accessors, which Linux cannot
    /// generate:
    ///
    /// ```swift
    /// extension ShoppingList {
    ///     func addToItems(_ value: ShoppingItem) { mutableSetValue(forKey: "items").add(value) }
    ///     func removeFromItems(_ value: ShoppingItem) { mutableSetValue(forKey: "items").remove(value) }
    ///     func addToItems(_ values: NSSet) { mutableSetValue(forKey: "items").union(values as Set) }
    ///     func removeFromItems(_ values: NSSet) { mutableSetValue(forKey: "items").minus(values as Set) }
    /// }
    /// ```
    ///
    /// - Note: Apple parity: the proxy is a live `NSMutableSet` subclass; traps with
    ///   Apple's wording for an unknown key, a key that is not a to-many, or an ordered one.
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        RelationshipMutableSet(owner: self, relationship: toManyRelationship(forKey: key, ordered: false))
    }

    /// A mutable ordered set that reads and writes the ordered to-many relationship `key`
    /// directly, with inverse upkeep (see ``mutableSetValue(forKey:)``).
    ///
    /// Generated-accessor style for ordered relationships:
    ///
    /// ```swift
    /// extension Playlist {
    ///     func insertIntoSongs(_ value: Song, at index: Int) {
    ///         mutableOrderedSetValue(forKey: "songs").insert(value, at: index)
    ///     }
    ///     func removeFromSongs(at index: Int) { mutableOrderedSetValue(forKey: "songs").removeObject(at: index) }
    ///     func addToSongs(_ value: Song) { mutableOrderedSetValue(forKey: "songs").add(value) }
    /// }
    /// ```
    public func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        RelationshipMutableOrderedSet(owner: self, relationship: toManyRelationship(forKey: key, ordered: true))
    }

    /// `mutableSetValue(forKey:)` or `mutableOrderedSetValue(forKey:)` for the first key,
    /// then the same for the rest of a key path (through to-one relationships).
    public func mutableSetValue(forKeyPath keyPath: String) -> NSMutableSet {
        guard let dot = keyPath.lastIndex(of: ".") else { return mutableSetValue(forKey: keyPath) }
        guard let owner = value(forKeyPath: String(keyPath[..<dot])) as? NSManagedObject else {
            coreDataMisuse("The key path \(keyPath) does not lead through to-one relationships to an object.")
        }
        return owner.mutableSetValue(forKey: String(keyPath[keyPath.index(after: dot)...]))
    }
}

// MARK: - What the live relationship sets share

extension NSManagedObject {
    /// The members of a to-many, read with access notifications (as a KVC read is).
    func accessedMembers(of relationship: NSRelationshipDescription) -> [NSManagedObject] {
        willAccessValue(forKey: relationship.name)
        defer { didAccessValue(forKey: relationship.name) }
        return toManyMembers(slot: relationship.slot, relationship: relationship)
    }
}

extension NSRelationshipDescription {
    /// `object` as a member of this relationship; anything else traps with Apple's
    /// wording (Apple raises).
    func requireMember(_ object: Any, ordered: Bool) -> NSManagedObject {
        guard let object = object as? NSManagedObject else {
            coreDataMisuse("Unacceptable type of value for \(ordered ? "ordered " : "")to-many relationship: property = \"\(name)\"; given type = \(type(of: object))")
        }
        return object
    }
}
