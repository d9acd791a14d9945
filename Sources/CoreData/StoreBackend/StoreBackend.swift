import Foundation

/// The contract between the coordinator and a store implementation (SQLite, memory, or the
/// adapter over a store class written by an app).
///
/// Rows travel as ``StoreRow``s whose values follow the entity's layout:
/// - attributes: the slot's own type (text for String/URI/Decimal, dates as seconds since
///   2001, UUIDs as 16 bytes; never a box — transformable values are blobs here);
/// - to-one relationships: the ``StoreKey`` of the concrete destination, or NULL;
/// - to-many relationships and transient properties: NULL (to-many are loaded on demand
///   with `relatedKeys`).
///
/// All calls are made with the coordinator's lock held: a backend needs no locking. The
/// context on whose behalf a call is made is the coordinator's `requestingContext`.
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
    /// `relatedKeys` for many sources at once (relationship prefetching, and a batch
    /// delete's rules, which follow to-ones too): source key → member keys, in order.
    /// Sources without members may be absent.
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
    /// Permanent keys for new objects (the saving context's managed objects, all of one
    /// inheritance family), in order, when the store chooses its own identities (a custom
    /// store's `obtainPermanentIDs(for:)`); nil to have keys from ``allocateKeys(entity:count:)``.
    func obtainKeys(for objects: [AnyObject]) throws -> [StoreKey]?
    /// Whether ``save(_:)`` reads the saving context's objects (``StoreChanges/Write/object``),
    /// which must then carry their permanent IDs already, as Apple's custom stores expect.
    var readsObjectsOnSave: Bool { get }
    /// Whether ``save(_:)`` checks optimistic locking itself (every locked, updated and
    /// deleted row at the version the context read, ``StoreChanges/checkVersions(stored:)``).
    /// When false (a store class written by an app, which versions its nodes but is not asked
    /// to compare them), the coordinator compares the versions against those it cached.
    var checksVersions: Bool { get }
    /// Applies a change set atomically (one transaction), checking optimistic locking.
    func save(_ changes: StoreChanges) throws
    /// Releases files and handles.
    func close()
}

extension StoreBackend {
    func obtainKeys(for objects: [AnyObject]) throws -> [StoreKey]? { nil }

    /// Each source's destination through a to-one `relationship`, one lookup per source:
    /// what `relatedKeys(relationship:pks:)` answers for a to-one (a batch delete's cascade
    /// and nullify rules follow to-ones; prefetching reads only to-manys in bulk).
    func toOneKeys(relationship: NSRelationshipDescription, pks: [Int64]) throws -> [Int64: [StoreKey]] {
        var result: [Int64: [StoreKey]] = [:]
        for pk in pks {
            let keys = try relatedKeys(relationship: relationship, pk: pk)
            if !keys.isEmpty { result[pk] = keys }
        }
        return result
    }

    var readsObjectsOnSave: Bool { false }

    var checksVersions: Bool { true }

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
