import Foundation

/// The live `NSMutableOrderedSet` that `mutableOrderedSetValue(forKey:)` returns: reads
/// ask the object for the relationship's current members in order, changes go through
/// the object (inverse upkeep, change tracking, undo).
///
/// - Note: Apple parity: swift-corelibs-foundation's `NSMutableOrderedSet` does not route
///   `add`, `remove` and the bulk mutators through the primitives, so each is overridden.
final class RelationshipMutableOrderedSet: NSMutableOrderedSet {
    let owner: NSManagedObject
    let relationship: NSRelationshipDescription

    init(owner: NSManagedObject, relationship: NSRelationshipDescription) {
        self.owner = owner
        self.relationship = relationship
        super.init(capacity: 0)
    }

    required init?(coder: NSCoder) {
        coreDataMisuse("A relationship ordered set cannot be decoded.")
    }

    required convenience init(arrayLiteral elements: Any...) {
        coreDataMisuse("A relationship ordered set is created by mutableOrderedSetValue(forKey:).")
    }

    private var members: [NSManagedObject] { owner.accessedMembers(of: relationship) }

    private func managed(_ object: Any) -> NSManagedObject {
        relationship.requireMember(object, ordered: true)
    }

    private func checked(_ index: Int, count: Int) {
        if index < 0 || index >= count {
            coreDataMisuse("*** -[_NSFaultingMutableOrderedSet objectAtIndex:]: index \(index) beyond bounds [0 .. \(count - 1)]")
        }
    }

    // MARK: - Reading

    override var count: Int { members.count }

    override func object(at idx: Int) -> Any {
        let members = members
        checked(idx, count: members.count)
        return members[idx]
    }

    override func index(of object: Any) -> Int {
        guard let object = object as? NSManagedObject else { return NSNotFound }
        return members.firstIndex { $0 === object } ?? NSNotFound
    }

    override func contains(_ object: Any) -> Bool { index(of: object) != NSNotFound }

    // MARK: - Writing

    override func insert(_ object: Any, at idx: Int) {
        let member = managed(object)
        if contains(member) { return } // an ordered set ignores a member it already has
        owner.addMembers([member], to: relationship, at: idx)
    }

    override func insert(_ objects: [Any], at indexes: IndexSet) {
        for (object, index) in zip(objects, indexes) { insert(object, at: index) }
    }

    override func add(_ object: Any) {
        let member = managed(object)
        if contains(member) { return }
        owner.addMembers([member], to: relationship, at: Int.max)
    }

    override func addObjects(from array: [Any]) {
        let present = Set(members.map(ObjectIdentifier.init))
        let new = array.map(managed).filter { !present.contains(ObjectIdentifier($0)) }
        owner.addMembers(new, to: relationship, at: Int.max)
    }

    override func removeObject(at idx: Int) {
        let members = members
        checked(idx, count: members.count)
        owner.removeMembers([members[idx]], from: relationship)
    }

    override func removeObjects(at indexes: IndexSet) {
        let members = members
        owner.removeMembers(indexes.filter(members.indices.contains).map { members[$0] }, from: relationship)
    }

    override func remove(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.removeMembers([object], from: relationship)
    }

    override func removeObjects(in array: [Any]) {
        owner.removeMembers(array.compactMap { $0 as? NSManagedObject }, from: relationship)
    }

    override func removeAllObjects() {
        owner.removeMembers(members, from: relationship)
    }

    override func replaceObject(at idx: Int, with obj: Any) {
        checked(idx, count: members.count)
        owner.replaceMember(at: idx, with: managed(obj), in: relationship)
    }

    override func exchangeObject(at idx1: Int, withObjectAt idx2: Int) {
        let members = members
        checked(idx1, count: members.count)
        checked(idx2, count: members.count)
        var reordered = members
        reordered.swapAt(idx1, idx2)
        owner.setValue(NSOrderedSet(array: reordered), for: relationship)
    }

    override func moveObjects(at indexes: IndexSet, to idx: Int) {
        let members = members
        let moving = indexes.filter(members.indices.contains).map { members[$0] }
        owner.addMembers(moving, to: relationship, at: idx)
    }
}
