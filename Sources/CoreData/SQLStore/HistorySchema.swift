import Foundation

/// The persistent-history tables of a SQLite store, in the layout Apple's Core Data
/// writes (<doc:StoreFormat#Persistent-history>): `ATRANSACTION`, `ACHANGE` and
/// `ATRANSACTIONSTRING`, numbered 16002, 16001 and 16003 in `Z_PRIMARYKEY`.
enum HistorySchema {
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    /// `Z_PRIMARYKEY` rows: entity number and name.
    static let primaryKeyRows: [(Int64, String)] = [
        (changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING"),
    ]

    /// The tables and indexes, as Apple's stores declare them. `ACHANGE` gets one
    /// `ZTOMBSTONE<n>` column per preserved attribute (``tombstoneColumn(_:)``).
    static let createStatements = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// The `ACHANGE` column holding a deleted object's `index`-th preserved attribute.
    static func tombstoneColumn(_ index: Int) -> String { "ZTOMBSTONE\(index)" }

    /// The attributes of `entity` whose values a delete keeps, in a fixed order (by name):
    /// the `index`-th goes to ``tombstoneColumn(_:)``.
    static func preservedAttributes(of entity: NSEntityDescription) -> [NSAttributeDescription] {
        entity.attributesByName.values
            .filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }
            .sorted { ($0.name) < ($1.name) }
    }

    /// The properties of `entity` an update's `ZCOLUMNS` bit set indexes: the stored
    /// ones, by name. Bit `i` (byte `i / 8`, bit `i % 8`) is set when the `i`-th changed.
    static func trackedProperties(of entity: NSEntityDescription) -> [NSPropertyDescription] {
        entity.properties.filter { !$0.isTransient }.sorted { $0.name < $1.name }
    }
}
