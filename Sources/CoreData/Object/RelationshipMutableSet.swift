import Foundation

/// The live `NSMutableSet` that `mutableSetValue(forKey:)` returns: every read asks the
/// object for the relationship's current members, every change goes through the object
/// (inverse upkeep, change tracking, undo).
///
/// - Note: Apple parity: Apple's proxy is a private class too; this one overrides the
///   primitive methods of swift-corelibs-foundation's `NSMutableSet` and its bulk
///   mutators (which on Linux do not all route through the primitives).
final class RelationshipMutableSet: NSMutableSet {
    let owner: NSManagedObject
    let relationship: NSRelationshipDescription

    init(owner: NSManagedObject, relationship: NSRelationshipDescription) {
        self.owner = owner
        self.relationship = relationship
        super.init(capacity: 0)
    }

    required init(capacity numItems: Int) {
        coreDataMisuse("A relationship set is created by mutableSetValue(forKey:).")
    }

    required init?(coder: NSCoder) {
        coreDataMisuse("A relationship set cannot be decoded.")
    }

    required convenience init(arrayLiteral elements: Any...) {
        coreDataMisuse("A relationship set is created by mutableSetValue(forKey:).")
    }

    private var members: [NSManagedObject] { owner.accessedMembers(of: relationship) }

    private func managed(_ object: Any) -> NSManagedObject {
        relationship.requireMember(object, ordered: false)
    }

    // MARK: - Reading

    override var count: Int { members.count }

    override func member(_ object: Any) -> Any? {
        guard let object = object as? NSManagedObject else { return nil }
        return members.first { $0 === object }
    }

    override func objectEnumerator() -> NSEnumerator {
        NSArray(array: members).objectEnumerator()
    }

    override var allObjects: [Any] { members }

    // MARK: - Writing

    override func add(_ object: Any) {
        owner.addMembers([managed(object)], to: relationship)
    }

    override func remove(_ object: Any) {
        guard let object = object as? NSManagedObject else { return }
        owner.removeMembers([object], from: relationship)
    }

    override func addObjects(from array: [Any]) {
        owner.addMembers(array.map(managed), to: relationship)
    }

    override func removeAllObjects() {
        owner.removeMembers(members, from: relationship)
    }

    override func union(_ otherSet: Set<AnyHashable>) {
        owner.addMembers(otherSet.map { managed($0.base) }, to: relationship)
    }

    override func minus(_ otherSet: Set<AnyHashable>) {
        owner.removeMembers(otherSet.compactMap { $0.base as? NSManagedObject }, from: relationship)
    }

    override func intersect(_ otherSet: Set<AnyHashable>) {
        let keep = Set(otherSet.compactMap { ($0.base as? NSManagedObject).map(ObjectIdentifier.init) })
        owner.removeMembers(members.filter { !keep.contains(ObjectIdentifier($0)) }, from: relationship)
    }

    override func setSet(_ otherSet: Set<AnyHashable>) {
        owner.setValue(otherSet.map { managed($0.base) }, for: relationship)
    }
}
