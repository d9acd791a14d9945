import Foundation

/// What a store fetch selects. Predicates and sorts are compiled by the store when it
/// can; throwing `StoreFetchUnsupported` asks the caller to filter and sort in memory
/// (the caller then passes no limit or offset either).
struct FetchPlan {
    var entity: NSEntityDescription
    var includesSubentities = true
    var predicate: NSPredicate?
    var sorts: [SortKey] = []
    /// 0 means no limit.
    var limit = 0
    var offset = 0
    /// What the caller will filter and sort by in memory when this plan carries no predicate
    /// or sorts of its own (after `StoreFetchUnsupported`): a store that can narrow its
    /// answer with them may (a custom store's fetch request gets them); every other store
    /// ignores them.
    var hintPredicate: NSPredicate?
    var hintSortDescriptors: [NSSortDescriptor] = []
}

/// One sort criterion of a fetch, resolved from an `NSSortDescriptor`.
struct SortKey {
    enum Comparison { case compare, caseInsensitive, localized, localizedCaseInsensitive, localizedStandard }
    /// A key path from the fetched entity: an attribute, or to-one relationships then an
    /// attribute (`"owner.name"`).
    let keyPath: String
    let ascending: Bool
    let comparison: Comparison
}
