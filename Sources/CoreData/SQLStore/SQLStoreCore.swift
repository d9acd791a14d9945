import Foundation

/// The part of a SQL store that does not depend on its engine, shared by the SQLite store and
/// the PostgreSQL store: Core Data's table layout (``SQLiteSchema``) and the entity plans over
/// it (``SQLEntityPlan``), a save's change set applied row by row with optimistic locking
/// (`SQLStoreCore+Save.swift`), fetches and related keys read through the shared predicate
/// compiler (`SQLStoreCore+Fetch.swift`), and the errors for rows the model does not allow.
///
/// A store conforms by giving a connection (``SQLStoreConnection``), its ``SQLDialect``, and the
/// few things only it knows, which stay in the store: how it opens and creates its tables,
/// runs a transaction and turns its engine's failures into Core Data's errors (``reading(_:)``),
/// decodes a column (SQLite's storage classes, PostgreSQL's text results), keeps external
/// binary data, records history and writes its metadata row. Keys, locking and retries are
/// each store's own too (`Z_PRIMARYKEY` in a SQLite transaction, `UPDATE … RETURNING`).
///
/// ## Topics
/// ### Layout
/// - ``schema``
/// - ``plans``
/// ### Engine
/// - ``dialect``
/// - ``reading(_:)``
/// - ``decodeRow(_:_:loadedAt:)``
protocol SQLStoreCore: StoreBackend {
    associatedtype Connection: SQLStoreConnection

    /// The store's tables, columns and join tables.
    var schema: SQLiteSchema { get }
    /// Per `Z_ENT`: how to read and write rows of that concrete entity.
    var plans: [Int: SQLEntityPlan] { get }
    /// Per table index: `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<columns>`.
    var fetchColumnLists: [String] { get }
    /// Per inheritance root: the join-table columns whose rows go with a deleted row.
    var joinColumnsBySourceRoot: [ObjectIdentifier: [(table: String, column: String)]] { get }
    /// INSERT and UPDATE statements' SQL by entity and written fields, built once.
    var writeSQL: [WriteSQLKey: String] { get set }
    /// The metadata as last written to `Z_METADATA` (to write it only when it changed).
    var storedMetadata: NSDictionary { get set }
    /// How the engine spells SQL.
    var dialect: SQLDialect { get }
    /// `The store at /path`, `The PostgreSQL store at postgresql://…`: how messages name it.
    var storeName: String { get }
    /// The userInfo that locates the store in an error (its URL, and path for a file).
    var storeLocation: [String: Any] { get }

    /// Runs a read on the store's connection; the engine's failures become Core Data's
    /// errors (`NSPersistentStoreOperationError` and the codes the engine's failure means).
    func reading<T>(_ body: (Connection) throws -> T) throws -> T
    /// A predicate compiler for fetches of `entity`, in the store's dialect.
    func makeCompiler(_ entity: NSEntityDescription) -> SQLPredicateCompiler
    /// The row under the statement's cursor, whose columns are its table's full select list
    /// (``fetchColumnLists``), of the plan's entity, read at `loadedAt` (``StoreRow/now()``,
    /// taken once per statement).
    func decodeRow(_ statement: Connection.Statement, _ plan: SQLEntityPlan, loadedAt: TimeInterval) throws -> StoreRow

    /// Binds a binary value of an attribute that allows external storage.
    func bindExternal(_ bytes: UnsafeRawBufferPointer, to statement: Connection.Statement, at index: Int32) throws
    /// Called before the columns `fields` of row `pk` are replaced or the row is deleted, for
    /// an entity with external binary data.
    func willReplaceExternalData(of fields: [SQLField], table: String, pk: Int64, on connection: Connection) throws
    /// Whether saves record persistent history (`NSPersistentHistoryTrackingKey`), in the
    /// history tables (`SQLStoreCore+History.swift`), which exist when this is true.
    var tracksHistory: Bool { get }
    /// Called inside a save's transaction just before its history transaction is numbered:
    /// makes sure the history tables exist (SQLite adds them on the first save that records
    /// history), and takes what keeps history numbers in commit order, held until the commit
    /// (PostgreSQL's transaction-scoped advisory lock; SQLite's writer already holds the
    /// whole database).
    func willRecordHistory(on connection: Connection) throws
    /// Writes the metadata row of `Z_METADATA`.
    func writeMetadata(_ metadata: [String: Any], on connection: Connection) throws

    /// The external data files the rows `pks` of table `t` name in `columns` (by default,
    /// every column that may name one), read before a batch request replaces or deletes
    /// them (`SQLStoreCore+Batch.swift`); none where every binary value lives in its row.
    func externalFiles(inTable t: Int, _ pks: [Int64], columns: [String]?, on connection: Connection) throws -> [String]
    /// How a batch request stores a value of an attribute that allows external storage:
    /// always in its row (batch requests write no files), as the engine keeps such values.
    func batchExternalValue(_ bytes: UnsafeRawBufferPointer) -> SQLBinding
}

extension SQLStoreCore {
    /// The plan for `entity`, which a save names; throws when the entity is not in the store.
    func plan(for entity: NSEntityDescription) throws -> SQLEntityPlan {
        guard let plan = plans[entity.runtime.entityID], plan.entity === entity else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The entity \(entity.name ?? "?") is not in \(storeName.lowercasedFirst).")
        }
        return plan
    }

    // MARK: - Rows that break the model's rules

    /// The error for a row of the store that no model-conforming save can have written: a
    /// `Z_ENT` naming no entity of the table, a to-many member or to-one destination of
    /// another entity, an integer too large for its attribute's width. Its message names
    /// the store, the table, the row's `Z_PK` and the column; so do its userInfo keys
    /// `table`, `Z_PK` and `column` (beside ``storeLocation``).
    ///
    /// The code is `NSPersistentStoreOperationError` (134070), the code a store uses
    /// for any read that fails: the database is sound, so `NSFileReadCorruptFileError`
    /// (which SQLite's own corruption reports get) would send the reader looking at the
    /// file rather than at one row, and `NSManagedObjectValidationError` is about objects a
    /// context is saving.
    ///
    /// - Note: Apple parity: Apple's store skips such rows, traps, or wraps such integers;
    ///   reading them here throws instead, so that a damaged store is noticed and named.
    func corruptRow(table: String, pk: Int64, column: String, _ problem: String) -> NSError {
        var info = storeLocation
        info["table"] = table
        info["Z_PK"] = pk
        info["column"] = column
        return CoreDataError.make(
            NSPersistentStoreOperationError,
            "\(storeName) holds a row the model does not allow: table \(table), "
                + "row Z_PK = \(pk), column \(column) \(problem).",
            userInfo: info)
    }

    /// The plan for a row of table `t` whose `Z_ENT` is `entityID`; throws when that is no
    /// entity of this store or an entity stored in another table.
    func rowPlan(_ entityID: Int, table t: Int, pk: Int64) throws -> SQLEntityPlan {
        guard let plan = plans[entityID], plan.table == t else {
            let known = plans.values.filter { $0.table == t }.map { "\($0.entity.runtime.entityID) (\($0.entity.name ?? "?"))" }
            throw corruptRow(
                table: schema.tables[t].name, pk: pk, column: "Z_ENT",
                "holds \(entityID), which is no entity of this table (expected one of \(known.sorted().joined(separator: ", ")))")
        }
        return plan
    }

    /// Checks that `entityID`, the `Z_ENT` of a relationship's member or destination, is
    /// `destination` or one of its sub-entities; `table`, `pk` and `column` say where it
    /// was read.
    func checkMember(
        _ entityID: Int, of destination: NSEntityDescription, table: String, pk: Int64, column: String,
        relationship: NSRelationshipDescription
    ) throws {
        if entityID == destination.runtime.entityID { return }
        var entity = plans[entityID]?.entity
        while let current = entity, current !== destination { entity = current.superentity }
        guard entity == nil else { return }
        let found = plans[entityID]?.entity.name.map { "\(entityID) (\($0))" } ?? "\(entityID), which is no entity of this store,"
        throw corruptRow(
            table: table, pk: pk, column: column,
            "holds \(found) where the relationship \(relationship.entity.name ?? "?").\(relationship.name) "
                + "needs \(destination.name ?? "?") or a sub-entity")
    }
}

fileprivate extension String {
    /// The text with its first letter in lower case (`The store at …` inside a sentence).
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
