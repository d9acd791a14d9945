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
