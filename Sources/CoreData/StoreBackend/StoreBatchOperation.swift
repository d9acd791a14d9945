import Foundation

/// A batch request as a store runs it: rows written in the store, without managed objects.
///
/// Built by the context from an `NSBatchInsertRequest`, `NSBatchUpdateRequest` or
/// `NSBatchDeleteRequest` after the request was checked against the model (keys, types,
/// mandatory values), so a store only encodes and writes.
enum StoreBatchOperation {
    case insert(StoreBatchInsert)
    case update(StoreBatchUpdate)
    case delete(StoreBatchDelete)
}

/// New rows of one concrete entity.
struct StoreBatchInsert {
    let entity: NSEntityDescription
    /// Fills `row` (a row of the entity's layout, reused between calls) with the next
    /// object's values: every stored attribute slot is written (a value, the default or
    /// NULL), relationship slots stay NULL. Appends to `named` (emptied before each call)
    /// the slots the object itself named. Returns false, writing nothing, when there are no
    /// more objects.
    let next: (_ row: StoreRow, _ named: inout [Int32]) throws -> Bool
    /// The entity's uniqueness constraints (its own and inherited ones), as attribute
    /// slots: a new object whose constrained values equal a stored row's updates that row
    /// (the slots it named) instead of inserting one.
    let constraints: [[Int32]]
}

/// New values for the rows of an entity that a predicate selects.
struct StoreBatchUpdate {
    /// The rows: the entity (and its sub-entities when the plan says so) and the predicate.
    let plan: FetchPlan
    /// The attributes to set, each to a constant (in ``constants`` at the attribute's slot)
    /// or to an expression evaluated on each row.
    let assignments: [Assignment]
    /// Constant values, encoded as rows hold them.
    let constants: StoreRow

    struct Assignment {
        let attribute: NSAttributeDescription
        /// Nil for a constant.
        let expression: NSExpression?
    }
}

/// Rows to delete, selected by a fetch plan or by key, with the model's delete rules
/// applied to their relationships (see ``BatchDeletion``).
struct StoreBatchDelete {
    /// The rows a fetch selects (predicate, sort, offset and limit), or nil for `keys`.
    let plan: FetchPlan?
    /// The rows named by object ID, when there is no plan; keys of rows that are gone
    /// already are skipped.
    let keys: [StoreKey]
}
