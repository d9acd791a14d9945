import Foundation

/// A save, as the store sees it.
struct StoreChanges {
    struct Write {
        let entity: NSEntityDescription
        let pk: Int64
        /// The object's whole row after this save (its `version` is the new `Z_OPT`:
        /// 1 for an insert, `expectedVersion + 1` for an update). The coordinator caches it.
        let values: StoreRow
        /// The slots to write: every persistent slot for an insert, the changed ones for
        /// an update.
        let changedSlots: [Int32]
        /// For an update: the version the context read, checked against `Z_OPT`.
        let expectedVersion: Int64
        /// The saving context's managed object, for stores that read values from objects
        /// (`NSIncrementalStore`, `NSAtomicStore`); nil when the rows come from elsewhere.
        var object: AnyObject? = nil
    }
    struct Delete {
        let entity: NSEntityDescription
        let pk: Int64
        let expectedVersion: Int64
        /// The deleted managed object (see ``Write/object``).
        var object: AnyObject? = nil
    }
    /// An unchanged object whose row must still be at the version the context read
    /// (`detectConflicts(for:)`): nothing is written for it.
    struct Lock {
        let entity: NSEntityDescription
        let pk: Int64
        let expectedVersion: Int64
        /// The locked managed object (see ``Write/object``).
        var object: AnyObject? = nil
    }
    /// A many-to-many (or unidirectional to-many) link, as join-table rows.
    struct Link: Hashable {
        let relationship: NSRelationshipDescription
        let source: StoreKey
        let destination: StoreKey
    }
    var inserts: [Write] = []
    var updates: [Write] = []
    var deletes: [Delete] = []
    var locks: [Lock] = []
    var linksAdded: [Link] = []
    var linksRemoved: [Link] = []
    /// Full order of ordered to-many relationships whose order changed.
    var orderings: [(relationship: NSRelationshipDescription, source: StoreKey, destinations: [StoreKey])] = []

    /// Whether a to-many is stored as join-table links from this side: many-to-many
    /// (reported by one canonical side) or a to-many without inverse.
    static func ownsLinks(_ relationship: NSRelationshipDescription) -> Bool {
        guard relationship.isToMany else { return false }
        guard let inverse = relationship.inverseRelationship else { return true }
        guard inverse.isToMany else { return false }
        let mine = (relationship.entity.runtime.entityID, relationship.name)
        let theirs = (inverse.entity.runtime.entityID, inverse.name)
        return mine <= theirs
    }
}
