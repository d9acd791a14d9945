import Foundation
internal import CCoreDataRuntime

/// The contract between the coordinator and a store implementation (SQLite or memory).
///
/// Rows travel as runtime rows (`cdr_row`) whose slots follow the entity's layout:
/// - attributes: the slot's own type (TEXT for String/URI/Decimal, DATE as seconds since
///   2001, UUID as 16 bytes, BOX is never stored — transformable values are BLOBs here);
/// - to-one relationships: `CDR_INT64` with `u.i` = destination `Z_PK` and `length` =
///   destination `Z_ENT` (the concrete entity), or NULL;
/// - to-many relationships and transient properties: NULL (to-many are loaded on demand
///   with `relatedKeys`).
///
/// All calls are made with the coordinator's lock held: a backend needs no locking.
protocol StoreBackend: AnyObject {
    var storeType: String { get }
    /// Metadata as in memory; persisted by `save` (and on load for a new store).
    var metadata: [String: Any] { get set }

    /// Opens or creates the store for `model` (already frozen). Throws `NSError`s in
    /// `NSCocoaErrorDomain` (`NSPersistentStoreOpenError`, ...-IncompatibleVersionHashError).
    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws

    /// Rows of `entity` (and its sub-entities when `plan.includesSubentities`) in the
    /// plan's order, after offset/limit.
    func fetch(_ plan: FetchPlan) throws -> [StoreRow]
    func count(_ plan: FetchPlan) throws -> Int
    /// The keys of the rows `fetch` would return, without reading their values.
    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey]
    /// The row of one object, or nil when it no longer exists.
    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow?
    /// The rows of several objects of one inheritance family (those that still exist).
    func rows(entity: NSEntityDescription, pks: [Int64]) throws -> [StoreRow]
    /// The keys of the objects related to `pk` through a to-many `relationship`, in order
    /// (ordered relationships by position).
    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey]
    /// `relatedKeys` for many sources at once (relationship prefetching): source key →
    /// member keys, in order. Sources without members may be absent.
    func relatedKeys(relationship: NSRelationshipDescription, pks: [Int64]) throws -> [Int64: [StoreKey]]
    /// The whole rows of those objects, in the same order, when the store reads them in
    /// one query (so that their faults fire from the row cache); nil to use `relatedKeys`.
    func relatedRows(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreRow]?
    /// Reserves `count` new primary keys for the inheritance root of `entity`; returns the
    /// first.
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64
    /// Applies a change set atomically (one transaction), checking optimistic locking.
    func save(_ changes: StoreChanges) throws
    /// Releases files and handles.
    func close()
}

extension StoreBackend {
    func relatedKeys(relationship: NSRelationshipDescription, pks: [Int64]) throws -> [Int64: [StoreKey]] {
        var result: [Int64: [StoreKey]] = [:]
        for pk in pks { result[pk] = try relatedKeys(relationship: relationship, pk: pk) }
        return result
    }

    func relatedRows(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreRow]? { nil }

    func rows(entity: NSEntityDescription, pks: [Int64]) throws -> [StoreRow] {
        try pks.compactMap { try row(entity: entity, pk: $0) }
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        try fetch(plan).map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) }
    }
}

/// An object's identity inside one store.
struct StoreKey: Hashable {
    let entityID: Int
    let pk: Int64
}

/// One row of a store, as runtime values in the entity layout's slot order. (Not final:
/// a parent context describes objects to its children with `ParentRow`.)
class StoreRow: @unchecked Sendable {
    // @unchecked Sendable: immutable after the store filled it; the row cache shares it
    // between contexts under the coordinator's lock.
    let entity: NSEntityDescription
    let pk: Int64
    /// `Z_OPT`, the optimistic-locking version.
    let version: Int64
    let values: OpaquePointer // cdr_row *
    /// When the row was read or written (seconds of system uptime), for the contexts'
    /// `stalenessInterval`.
    let loadedAt = ProcessInfo.processInfo.systemUptime

    init(entity: NSEntityDescription, pk: Int64, version: Int64, values: OpaquePointer) {
        self.entity = entity
        self.pk = pk
        self.version = version
        self.values = values
    }

    /// A row of NULLs shaped like the entity's layout.
    convenience init(entity: NSEntityDescription, pk: Int64, version: Int64) {
        let count = cdr_layout_slot_count(entity.runtime.layout)
        self.init(entity: entity, pk: pk, version: version, values: cdr_row_create(count)!)
    }

    deinit { cdr_row_release(values) }
}

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
    }
    struct Delete {
        let entity: NSEntityDescription
        let pk: Int64
        let expectedVersion: Int64
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
    var linksAdded: [Link] = []
    var linksRemoved: [Link] = []
    /// Full order of ordered to-many relationships whose order changed.
    var orderings: [(relationship: NSRelationshipDescription, source: StoreKey, destinations: [StoreKey])] = []
}
