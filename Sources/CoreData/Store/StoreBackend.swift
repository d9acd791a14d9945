import Foundation

/// The contract between the coordinator and a store implementation (SQLite or memory).
///
/// Rows travel as ``StoreRow``s whose values follow the entity's layout:
/// - attributes: the slot's own type (text for String/URI/Decimal, dates as seconds since
///   2001, UUIDs as 16 bytes; never a box — transformable values are blobs here);
/// - to-one relationships: a ``RowReference`` (``StoreKey`` of the concrete destination),
///   or NULL;
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
    /// Reads the attribute `slots` of the rows a plan selects, in order, without building
    /// store rows: `body` gets each row's `Z_ENT`, `Z_PK` and a scratch row holding those
    /// slots (valid only during the call). Returns false, reading nothing, when the store
    /// cannot answer that way (the caller then fetches rows).
    func fetchColumns(_ plan: FetchPlan, slots: [Int32],
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool
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

    func fetchColumns(_ plan: FetchPlan, slots: [Int32],
                      _ body: (_ entityID: Int, _ pk: Int64, _ values: borrowing RowValues) throws -> Void) throws -> Bool {
        false
    }

    func rows(entity: NSEntityDescription, pks: [Int64]) throws -> [StoreRow] {
        try pks.compactMap { try row(entity: entity, pk: $0) }
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [StoreKey] {
        try fetch(plan).map { StoreKey(entityID: $0.entity.runtime.entityID, pk: $0.pk) }
    }
}

/// One row of a store, as runtime values in the entity layout's slot order.
final class StoreRow: @unchecked Sendable {
    // @unchecked Sendable: immutable after the store (or a parent context) filled it; the
    // row cache shares it between contexts under the coordinator's lock.
    let entity: NSEntityDescription
    let pk: Int64
    /// `Z_OPT`, the optimistic-locking version.
    let version: Int64
    let values: RowValues
    /// When the row was read or written (seconds of system uptime), for the contexts'
    /// `stalenessInterval`.
    let loadedAt = ProcessInfo.processInfo.systemUptime

    /// A row of NULLs shaped like the entity's layout, for its filler to write.
    init(entity: NSEntityDescription, pk: Int64, version: Int64) {
        self.entity = entity
        self.pk = pk
        self.version = version
        self.values = RowValues(count: entity.runtime.layout.slotCount)
    }

    var key: StoreKey { StoreKey(entityID: entity.runtime.entityID, pk: pk) }
}

/// How a row names a to-one destination: the one encoding of to-one references in rows.
enum RowReference: Equatable {
    /// A store's row: the destination's entity number and key.
    case key(StoreKey)
    /// A parent context's row for a child: the destination's object ID, which may be
    /// temporary (an object the parent inserted and has not saved).
    case objectID(NSManagedObjectID)
}

extension RowValues {
    /// The to-one reference in a slot, or nil for NULL.
    func reference(at slot: Int32) -> RowReference? {
        let value = value(at: slot)
        switch value.type {
        case .key: return .key(value.key)
        case .box: return (value.boxed as? NSManagedObjectID).map(RowReference.objectID)
        default: return nil
        }
    }

    /// Writes a to-one reference (NULL for nil).
    func setReference(_ reference: RowReference?, at slot: Int32) {
        switch reference {
        case let .key(key)?: setKey(key, at: slot)
        case let .objectID(objectID)?: setBoxed(objectID, at: slot)
        case nil: setNull(at: slot)
        }
    }
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
