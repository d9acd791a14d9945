import Foundation

extension NSManagedObjectModel {
    // MARK: - The model a store keeps

    /// Reads the model that the store at `url` keeps in its `Z_MODELCACHE` table: the model
    /// it was last written with, by Apple's Core Data or by this framework. `url` is a SQLite
    /// store's file, or a PostgreSQL store's `postgresql://` URL.
    ///
    /// With it, a store opens without its model file, for inspection: add it read-only.
    ///
    /// ```swift
    /// let model = try NSManagedObjectModel(cachedInStoreAt: storeURL)
    /// let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    /// try coordinator.addPersistentStore(type: .sqlite, at: storeURL,
    ///                                    options: [NSReadOnlyPersistentStoreOption: true])
    /// ```
    ///
    /// Nothing is written in or beside the store.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) when there is no file at `url`;
    ///   `NSPersistentStoreOpenError` when a PostgreSQL server cannot be reached;
    ///   `NSPersistentStoreInvalidTypeError` (134000) when the file is not a store or keeps
    ///   no model (stores of framework versions before 10.5-era Core Data); and
    ///   `NSFileReadCorruptFileError` (259) when the cached model does not decode.
    ///
    /// - Note: Apple parity: beyond Apple. Apple's Core Data reads this cache only
    ///   internally, to migrate a store whose model the app no longer ships; it has no
    ///   public API for it (nor a PostgreSQL store).
    public convenience init(cachedInStoreAt url: URL) throws {
        if url.scheme == "postgresql" || url.scheme == "postgres" {
            try self.init(cachedInPostgreSQLStoreAt: url)
        } else {
            try self.init(cachedInSQLiteStoreAt: url)
        }
    }
}
