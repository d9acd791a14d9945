import Foundation

/// Where fetching meets the predicate layer: in-memory evaluation of a request's
/// predicate against managed objects.
enum PredicateSupport {
    static func evaluate(_ predicate: NSPredicate, with object: NSManagedObject) throws -> Bool {
        predicate.evaluate(with: object)
    }
}

/// Where fetching meets sort descriptors: what a store can sort by itself, and the
/// in-memory order.
enum SortKeyResolver {
    /// The store-level sort key of a descriptor, or nil when only memory can sort by it.
    static func sortKey(for descriptor: NSSortDescriptor) -> SortKey? {
        nil
    }

    static func sorted(_ objects: [NSManagedObject], by descriptors: [NSSortDescriptor]) -> [NSManagedObject] {
        objects.sorted { a, b in
            for descriptor in descriptors {
                switch descriptor.compare(a, to: b) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }
    }
}
