import Foundation

// MARK: - Deferred lightweight migration

extension NSPersistentStoreCoordinator {
    /// Finishes the lightweight migrations that stores added with
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey` left unfinished: builds the
    /// indexes they deferred and removes the key from their metadata. Stores with nothing
    /// pending are left alone.
    ///
    /// ```swift
    /// description.setOption(true as NSNumber, forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)
    /// // … later, when the app is idle:
    /// try container.persistentStoreCoordinator.finishDeferredLightweightMigration()
    /// ```
    ///
    /// - Throws: `NSPersistentStoreSaveError` (or the SQLite failure's code) when a store
    ///   can't be written; that store keeps its deferred work.
    public func finishDeferredLightweightMigration() throws {
        stateLock.lock()
        let stores = persistentStores
        stateLock.unlock()
        for store in stores {
            guard let backend = store.backend as? SQLiteStoreBackend else { continue }
            try performAndWait { try backend.finishDeferredMigration() }
        }
    }

    /// ``finishDeferredLightweightMigration()``, as Apple's background-task spelling.
    ///
    /// - Note: Apple parity: Apple runs this from a `BGProcessingTask` and may stop early;
    ///   here it does the whole work at once, like ``finishDeferredLightweightMigration()``.
    public func finishDeferredLightweightMigrationTask() throws {
        try finishDeferredLightweightMigration()
    }
}
