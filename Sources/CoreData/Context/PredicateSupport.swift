import Foundation

/// Where fetching meets the predicate layer: in-memory evaluation of a request's
/// predicate against managed objects, with errors (an unknown key, a to-many key path
/// used as a scalar) thrown rather than read as "no match".
enum PredicateSupport {
    static func evaluate(_ predicate: NSPredicate, with object: NSManagedObject) throws -> Bool {
        try predicate.evaluateOrThrow(with: object)
    }
}

/// Where fetching meets sort descriptors: what a store can sort by itself, and the
/// in-memory order (the same one: NULLs first ascending).
enum SortKeyResolver {
    /// The store-level sort key of a descriptor: its key path and comparison selector.
    /// A store that cannot sort by it exactly as ``KeyedSortDescriptor`` compares throws
    /// `StoreFetchUnsupported`, and the context sorts in memory.
    static func sortKey(for descriptor: NSSortDescriptor) -> SortKey? {
        guard let keyed = descriptor as? KeyedSortDescriptor, let key = keyed.keyString,
              !key.contains("@") else { return nil }
        let comparison: SortKey.Comparison
        switch keyed.comparisonSelector.name {
        case "compare:": comparison = .compare
        case "caseInsensitiveCompare:": comparison = .caseInsensitive
        case "localizedCompare:": comparison = .localized
        case "localizedCaseInsensitiveCompare:": comparison = .localizedCaseInsensitive
        case "localizedStandardCompare:": comparison = .localizedStandard
        default: return nil
        }
        return SortKey(keyPath: key, ascending: descriptor.ascending, comparison: comparison)
    }

    /// A fetch's descriptor as a key-based one: Foundation's Swift key path descriptors
    /// on `@Managed` properties become `NSSortDescriptor(key:ascending:)`, so that the
    /// store and memory sort them the same way. Others are returned as they are.
    static func keyed(_ descriptor: NSSortDescriptor) -> NSSortDescriptor {
        guard !(descriptor is KeyedSortDescriptor),
              let key = ManagedKeyPathResolver.key(forAny: descriptor.keyPath) else { return descriptor }
        return KeyedSortDescriptor(key: key, ascending: descriptor.ascending, selector: Selector("compare:"))
    }

    static func sorted(_ objects: [NSManagedObject], by descriptors: [NSSortDescriptor]) -> [NSManagedObject] {
        NSSortDescriptor.sort(objects, by: descriptors)
    }
}
