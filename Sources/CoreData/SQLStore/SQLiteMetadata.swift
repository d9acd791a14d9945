import Foundation

/// Core Data's bookkeeping tables: `Z_PRIMARYKEY` (one row per entity, `Z_MAX` on the
/// root row), `Z_METADATA` (one row: `Z_VERSION` 1, the store UUID, a binary plist) and
/// `Z_MODELCACHE` (<doc:StoreFormat#Bookkeeping-tables>).
///
/// `Z_MODELCACHE` holds the model as Apple's Core Data keeps it (``SQLiteModelCache``).
/// The metadata carries `NSStoreModelVersionHashesDigest` (SHA-512 of each entity's name
/// and hash, in name order) and `NSStoreModelVersionChecksumKey` (the model's
/// `versionChecksum`), as Apple's framework version 1344 writes them.
enum SQLiteMetadata {
    /// The framework version written to new stores: the newest one seen in Apple's stores.
    static let frameworkVersion = 1344

    static let createStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// The metadata of a new store of `model` holding `entities`.
    static func initial(model: NSManagedObjectModel, entities: [NSEntityDescription], uuid: String) -> [String: Any] {
        [
            NSStoreTypeKey: NSSQLiteStoreType,
            NSStoreUUIDKey: uuid,
            "NSPersistenceFrameworkVersion": frameworkVersion,
            NSStoreModelVersionHashesKey: versionHashes(of: entities),
            "NSStoreModelVersionHashesVersion": 3,
            NSStoreModelVersionIdentifiersKey: model.versionIdentifiers.map { "\($0)" }.sorted(),
            "_NSAutoVacuumLevel": "2",
            "NSStoreModelVersionHashesDigest": digest(of: entities),
            "NSStoreModelVersionChecksumKey": checksum(of: entities),
        ]
    }

    /// The keys that describe the store's schema rather than the app's data: the store
    /// keeps them when an app replaces its metadata with a dictionary that leaves them out
    /// (`store.metadata = ["key": value]`), as a store without its version hashes could
    /// never be opened again.
    static let storeKeys = [
        NSStoreUUIDKey, NSStoreModelVersionHashesKey, NSStoreModelVersionIdentifiersKey,
        "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesVersion", "_NSAutoVacuumLevel",
        "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey",
    ]

    /// `metadata` with the store's own keys (``storeKeys``) taken from `stored` where it
    /// lacks them.
    static func keepingStoreKeys(_ metadata: [String: Any], from stored: [String: Any]) -> [String: Any] {
        var merged = metadata
        for key in storeKeys where merged[key] == nil { merged[key] = stored[key] }
        return merged
    }

    /// Entity name → version hash, for the entities a store holds.
    static func versionHashes(of entities: [NSEntityDescription]) -> [String: Data] {
        var result: [String: Data] = [:]
        for entity in entities { if let name = entity.name { result[name] = entity.versionHash } }
        return result
    }

    /// `NSStoreModelVersionHashesDigest`: Base64 of the SHA-512 of each entity's name and
    /// version hash, in name order.
    static func digest(of entities: [NSEntityDescription]) -> String {
        var hasher = SHA512()
        for (name, hash) in versionHashes(of: entities).sorted(by: { VersionHash.compareNames($0.key, $1.key) }) {
            hasher.update(name.utf8)
            hasher.update(hash)
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: Base64 of the SHA-256 of the entities' version
    /// hashes, in name order (the model's `versionChecksum`).
    static func checksum(of entities: [NSEntityDescription]) -> String {
        var hasher = SHA256()
        for (_, hash) in versionHashes(of: entities).sorted(by: { VersionHash.compareNames($0.key, $1.key) }) {
            hasher.update(hash)
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    // MARK: - Z_METADATA

    /// The metadata of an open store: the plist's keys plus `NSStoreUUID` from `Z_UUID`.
    static func read(from connection: SQLiteConnection) throws -> [String: Any] {
        let statement = try connection.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try statement.step() else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The store has no metadata row in Z_METADATA.")
        }
        var metadata = try decodeRow(uuid: statement.string(0), plist: statement.data(1))
        if metadata[NSStoreTypeKey] == nil { metadata[NSStoreTypeKey] = NSSQLiteStoreType }
        return metadata
    }

    /// Writes the metadata row: `NSStoreUUID` into `Z_UUID`, every other key into the plist.
    static func write(_ metadata: [String: Any], to connection: SQLiteConnection) throws {
        let row = try encodeRow(metadata, storeType: NSSQLiteStoreType)
        let statement = try connection.cached(
            "INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        if let uuid = row.uuid { try statement.bind(1, uuid) } else { try statement.bindNull(1) }
        try statement.bind(2, row.plist)
        try statement.run()
    }

    /// The metadata a `Z_METADATA` row holds (of any SQL store): the plist's keys, version
    /// hashes as `Data`, plus `NSStoreUUID` from `Z_UUID`.
    static func decodeRow(uuid: String?, plist data: Data?) throws -> [String: Any] {
        var metadata: [String: Any] = [:]
        if let data, !data.isEmpty {
            let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            guard let dictionary = plist as? [String: Any] else {
                throw CoreDataError.make(NSPersistentStoreInvalidTypeError, "The store's Z_PLIST metadata is not a dictionary.")
            }
            metadata = dictionary
        }
        if let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Any] {
            metadata[NSStoreModelVersionHashesKey] = hashes.compactMapValues { value -> Data? in
                (value as? Data) ?? (value as? NSData).map { Data(referencing: $0) }
            }
        }
        if let uuid { metadata[NSStoreUUIDKey] = uuid }
        return metadata
    }

    /// A `Z_METADATA` row for `metadata` (of any SQL store): `NSStoreUUID` for `Z_UUID`, every
    /// other key, with `storeType` as the store type, as a binary plist for `Z_PLIST`.
    static func encodeRow(_ metadata: [String: Any], storeType: String) throws -> (uuid: String?, plist: Data) {
        var plist = metadata
        let uuid = plist.removeValue(forKey: NSStoreUUIDKey) as? String
        plist[NSStoreTypeKey] = storeType
        do {
            return (uuid, try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
        } catch {
            throw CoreDataError.make(
                NSPersistentStoreSaveError,
                "The store metadata cannot be written as a property list: \(error.localizedDescription)")
        }
    }

    // MARK: - Z_PRIMARYKEY

    /// One row per entity of `entitiesByID` (abstract and sub-entities included), `Z_MAX` 0.
    static func insertPrimaryKeyRows(_ entitiesByID: [Int: NSEntityDescription], into connection: SQLiteConnection) throws {
        let statement = try connection.cached(
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for (id, entity) in entitiesByID.sorted(by: { $0.key < $1.key }) {
            try statement.bind(1, Int64(id))
            try statement.bind(2, entity.name ?? "")
            try statement.bind(3, Int64(entity.superentity?.runtime.entityID ?? 0))
            try statement.run()
        }
    }

    /// The `Z_ENT` numbers present in `Z_PRIMARYKEY`.
    static func entityIDs(in connection: SQLiteConnection) throws -> Set<Int> {
        let statement = try connection.prepare("SELECT Z_ENT FROM Z_PRIMARYKEY")
        var ids = Set<Int>()
        while try statement.step() { ids.insert(Int(statement.int64(0))) }
        return ids
    }
}

extension SQLiteMetadata {
    /// Compares the store's `NSStoreModelVersionHashes` with the model's.
    static func checkVersionHashes(stored: [String: Any], entities: [NSEntityDescription]) throws {
        let ours = versionHashes(of: entities)
        let theirs = stored[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        // Apple's hashes are computed exactly (Model/VersionHash.swift): the store is
        // compatible when it recorded the same hash for exactly the same entities.
        guard ours != theirs else { return }
        throw CoreDataError.make(
            NSPersistentStoreIncompatibleVersionHashError,
            "The model used to open the store is incompatible with the one used to create the store.",
            userInfo: [
                "metadata": stored,
                "storeVersionHashes": theirs,
                "modelVersionHashes": ours,
                "reason": "The model used to open the store is incompatible with the one used to create the store",
            ])
    }
}
