import Foundation

/// What the coordinator asks of the object under `NSPersistentStoreStagedMigrationManagerOptionKey`
/// before it opens a SQLite store: bring the store at `url`, stage by stage, to the model
/// whose stage chain ends at `model`. ``NSStagedMigrationManager`` (Migration/) is the one
/// implementation; the protocol lets the coordinator run it without naming a layer above it.
protocol StagedStoreMigration: AnyObject {
    /// Migrates the store at `url` (added with `options`) through the stages that lead to
    /// `model`; does nothing when the store already fits `model`.
    func migrateStore(at url: URL, options: [AnyHashable: Any], toModel model: NSManagedObjectModel) throws
}
