import Foundation

/// `Z_MODELCACHE` in a PostgreSQL store: the model the store was last written with, kept as
/// the SQLite store keeps it (``SQLiteModelCache``: the model's keyed archive, compressed with
/// raw DEFLATE, in the table's single row), in a `BYTEA` column.
///
/// Written when the store is created and after each migration step; read to open the store
/// with no model file (``NSManagedObjectModel/init(cachedInStoreAt:)``) and to migrate a store
/// whose model version the app no longer ships.
enum PostgreSQLModelCache {
    /// Replaces the cached model with `model`, making the table when it is missing.
    static func write(_ model: NSManagedObjectModel, on connection: PostgreSQLConnection) throws {
        try connection.execute("CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT BYTEA)")
        try connection.execute("DELETE FROM Z_MODELCACHE")
        try connection.execute(
            "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES ($1)",
            [.bytes(ModelCacheContent.encode(model))])
    }

    /// The cached model of the store on `connection` (`url` names it in errors, without its
    /// password as `displayURL`).
    ///
    /// - Throws: `NSPersistentStoreInvalidTypeError` (134000) when the database holds no
    ///   store or no cached model; `NSFileReadCorruptFileError` (259) when the cache does not
    ///   decode; PostgreSQL's failures as ``PostgreSQLError``.
    static func read(from connection: PostgreSQLConnection, url: URL, displayURL: String,
                     into model: NSManagedObjectModel = NSManagedObjectModel()) throws -> NSManagedObjectModel {
        let exists = try connection.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'z_modelcache'"
        ).rowCount > 0
        let result = exists ? try connection.execute("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") : nil
        let compressed = result.flatMap { $0.rowCount > 0 ? $0.data(0, 0) : nil }
        return try ModelCacheContent.decode(compressed, store: "PostgreSQL store at \(displayURL)", source: url,
                                            userInfo: [NSURLErrorKey: url], into: model)
    }
}

extension NSManagedObjectModel {
    /// The model the PostgreSQL store at `url` keeps in `Z_MODELCACHE`, read on a connection
    /// of its own; nothing is written.
    ///
    /// - Throws: `NSPersistentStoreOpenError` when the server cannot be reached; the errors
    ///   of ``PostgreSQLModelCache/read(from:url:displayURL:into:)``.
    convenience init(cachedInPostgreSQLStoreAt url: URL) throws {
        self.init()
        let display = PostgreSQLStoreBackend.displayURL(url)
        do {
            let connection = try PostgreSQLConnection(connectionString: url.absoluteString)
            _ = try PostgreSQLModelCache.read(from: connection, url: url, displayURL: display, into: self)
        } catch let error as PostgreSQLError {
            throw CoreDataError.make(
                NSPersistentStoreOpenError, "The PostgreSQL store at \(display) cannot be read: \(error.message)",
                userInfo: [NSURLErrorKey: url, NSUnderlyingErrorKey: error.nsError])
        }
    }
}
