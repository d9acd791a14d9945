import Foundation

/// A dictionary fetch with aggregates (`NSExpressionDescription` over `count:`, `sum:`,
/// `min:`, `max:`, `average:`) and `propertiesToGroupBy`, as a store computes it: one result
/// row per group of the rows the plan selects, in the order each group's first row (lowest
/// key) comes in the table; without grouped columns, one row over all of them.
///
/// The context builds one only for what a SQL store answers as memory would (attributes of
/// the entity or reached through to-one relationships, of the types whose SQL aggregate
/// equals memory's; see `NSManagedObjectContext+DictionaryResults`);
/// `havingPredicate`, sorts, offset and limit are applied to the rows afterwards.
struct StoreAggregateQuery {
    /// The rows: the entity (and its sub-entities when the plan says so) and the predicate.
    let plan: FetchPlan
    /// The result columns, in order.
    let columns: [Column]

    /// How a value is read from the store.
    enum Read {
        case integer, real, text
    }

    /// An aggregate function over a column's non-NULL values.
    enum Function {
        /// How many values.
        case count
        /// Their sum; 0 over none.
        case sum
        /// The smallest, the largest; NULL over none.
        case min, max
        /// Their mean, as a real number; NULL over none.
        case average
    }

    /// One result column: an aggregate of an attribute, or (`function` nil) an attribute
    /// the rows are grouped by; named by its key path from the entity (`quantity`,
    /// `list.title`).
    struct Column {
        let keyPath: String
        let function: Function?
        let read: Read
    }
}

/// One value of an aggregate result row.
enum StoreAggregateValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A store that computes aggregate queries itself (the SQL stores: `SELECT … GROUP BY`).
protocol AggregatingStoreBackend: StoreBackend {
    /// The result rows of `query`, each with one value per column; nil when the store cannot
    /// answer it (the caller then aggregates fetched objects).
    ///
    /// - Throws: ``StoreFetchUnsupported`` (having read nothing) when the predicate cannot
    ///   be evaluated by the store; the store's read errors.
    func fetchAggregates(_ query: StoreAggregateQuery) throws -> [[StoreAggregateValue]]?
}
