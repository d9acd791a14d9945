import Foundation

// MARK: - Automatic migration with a mapping model

extension NSPersistentStoreCoordinator {
    /// Migrates the SQLite store at `storeURL` into a new store at `destinationURL` with
    /// `mapping`, with an `NSMigrationManager` (the class `NSPersistentStore.migrationManagerClass()`
    /// names): the store side of `NSMigratePersistentStoresAutomaticallyOption` when a
    /// mapping model file fits.
    static func runMappingMigration(
        sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel, mapping: NSMappingModel,
        storeURL: URL, destinationURL: URL, options: [AnyHashable: Any]
    ) throws {
        let manager = NSMigrationManager(sourceModel: sourceModel, destinationModel: destinationModel)
        try manager.migrateStore(from: storeURL, sourceType: NSSQLiteStoreType, options: options, with: mapping,
                                 toDestinationURL: destinationURL, destinationType: NSSQLiteStoreType,
                                 destinationOptions: options)
    }
}
