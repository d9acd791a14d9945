import Foundation

/// `Z_MODELCACHE`: the model a SQLite store was written with, kept in the store itself as
/// Apple's Core Data keeps it — the model's keyed archive (the `.mom` format), compressed
/// with raw DEFLATE, in the table's single row.
///
/// Apple's Core Data reads it when the app no longer ships the model a store was written
/// with (to migrate from it); here it also lets a store be opened with no model file at all
/// (``NSManagedObjectModel/init(cachedInStoreAt:)``).
enum SQLiteModelCache {
    /// Replaces the cached model with `model`.
    static func write(_ model: NSManagedObjectModel, to connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM Z_MODELCACHE")
        let statement = try connection.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
        try statement.bind(1, ModelCacheContent.encode(model))
        try statement.run()
    }

    /// The cached model of the store on `connection`.
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` (134000) when the store has no cached
    ///   model (old stores, or stores written before this cache was filled),
    ///   `NSFileReadCorruptFileError` (259) when the cache does not decode.
    static func read(
        from connection: SQLiteConnection, url: URL, into model: NSManagedObjectModel = NSManagedObjectModel()
    ) throws -> NSManagedObjectModel {
        let exists = try connection.scalarString(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'")
        var compressed: Data?
        if exists == "1" {
            let statement = try connection.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
            if try statement.step() { compressed = statement.data(0) }
        }
        return try ModelCacheContent.decode(compressed, store: "store at \(url.path)", source: url,
                                            userInfo: [NSURLErrorKey: url, NSFilePathErrorKey: url.path], into: model)
    }
}

extension SQLiteStoreBackend {
    /// The model the store at `url` caches, when its entity hashes match `metadata`: the
    /// source of a migration when the app no longer ships the model version the store was
    /// written with, as Apple's Core Data uses it.
    static func cachedSourceModel(at url: URL, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        guard let model = try? NSManagedObjectModel(cachedInSQLiteStoreAt: url),
              model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
        return model
    }
}
