// Store types, store options and metadata keys, with Apple's string values.

/// The SQLite store: a database file in Core Data's format (see <doc:StoreFormat>).
public let NSSQLiteStoreType = "SQLite"
/// The in-memory store: nothing is written to disk, and its contents go with its coordinator.
public let NSInMemoryStoreType = "InMemory"
/// The PostgreSQL store: Core Data's table layout in a PostgreSQL database, added with a
/// `postgresql://` URL (libpq's connection URI), so that many processes on many machines share
/// one store.
///
/// ```swift
/// let description = NSPersistentStoreDescription(url: URL(string: "postgresql://app@db.example/shop")!)
/// description.type = NSPostgreSQLStoreType
/// ```
///
/// - Note: Apple parity: not one of Apple's store types; OpenCoreData's own, with the SQLite
///   store's semantics (optimistic locking on `Z_OPT`, the merge policies, the same predicates).
public let NSPostgreSQLStoreType = "PostgreSQL"
/// Apple's binary store.
///
/// - Note: Apple parity: not implemented; adding a store of this type throws
///   ``NSPersistentStoreInvalidTypeError``.
public let NSBinaryStoreType = "Binary"

/// A store option: open the store read-only. Saves that touch it fail, and nothing is written to
/// its files.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// A store option: migrate a store written with another version of the model when it is added (on
/// by default in ``NSPersistentStoreDescription``).
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// A store option: infer the mapping between the two model versions for a lightweight migration (on
/// by default in ``NSPersistentStoreDescription``).
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// A PostgreSQL store option: `true` runs each save at SERIALIZABLE isolation instead of READ
/// COMMITTED, so that a save also fails when what it read (not only the rows it writes) changed
/// meanwhile; a save the server refuses as a serialization failure is run again, up to five
/// times, before its error reaches `save()`.
///
/// - Note: Apple parity: OpenCoreData's own option, for ``NSPostgreSQLStoreType``.
public let NSPostgreSQLSerializableOption = "NSPostgreSQLSerializableOption"
/// A store option: a dictionary of SQLite pragmas (name to value) run when the store opens, for
/// example `["journal_mode": "DELETE"]`.
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// A store option asking Apple's store to run `ANALYZE` when it opens.
///
/// - Note: Apple parity: accepted and ignored.
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
/// A store option asking Apple's store to run `VACUUM` when it opens.
///
/// - Note: Apple parity: accepted and ignored.
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
/// A store option: how many seconds to wait for a database that another connection has locked
/// before failing with ``NSPersistentStoreTimeoutError``.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// A store option turning on persistent history tracking: each save and batch request
/// records a transaction (see ``NSPersistentHistoryChangeRequest``).
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// A store option (a true `NSNumber`) asking the coordinator to post
/// ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange`` after every write to the
/// store: by its own contexts, by another coordinator, or by another process.
///
/// ```swift
/// description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
/// ```
///
/// - Note: Apple parity: on Linux the coordinator watches the store's folder with inotify
///   and asks SQLite whether another connection committed (`PRAGMA data_version`), so
///   writes by any SQLite program are seen, not only Core Data's. With history tracking
///   each transaction gets one notification with its token; without it, each commit seen
///   gets one (a save that reserves new primary keys commits twice, and commits landing
///   within a millisecond may share one). A SQLite store in a file only.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

/// In a store's metadata: the store type (`"SQLite"`).
public let NSStoreTypeKey = "NSStoreType"
/// In a store's metadata: the store's unique identifier, a UUID string, which object ID URIs carry.
public let NSStoreUUIDKey = "NSStoreUUID"
/// In a store's metadata: the version hash of each entity of the model the store was written with
/// (entity name to 32 bytes of data).
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// In a store's metadata: the version identifiers of the model the store was written with.
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
/// A metadata key of Apple's store naming the operating system versions it must stay readable by.
///
/// - Note: Apple parity: not read or written here.
public let NSPersistentStoreOSCompatibility = "NSPersistentStoreOSCompatibility"

// MARK: - Options and metadata keys accepted for Apple parity

/// A store option asking Apple's store not to compare the model's version hashes with the
/// store's.
///
/// - Note: Apple parity: accepted and ignored; the version hashes are always compared.
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"
/// A store option: the largest number of connections Apple's store opens for concurrent
/// requests.
///
/// - Note: Apple parity: accepted and ignored.
public let NSPersistentStoreConnectionPoolMaxSizeKey = "NSPersistentStoreConnectionPoolMaxSizeKey"
/// An option of `destroyPersistentStore` and `replacePersistentStore`: go ahead even where
/// Apple's store would refuse because the store is in use.
///
/// - Note: Apple parity: accepted and ignored.
public let NSPersistentStoreForceDestroyOption = "NSPersistentStoreForceDestroyOption"
/// A store option naming the data-protection class of the store's files on Apple's devices.
///
/// - Note: Apple parity: accepted and ignored; Linux has no file protection classes.
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"
/// A store option of Apple's binary store: extra classes its secure decoding accepts.
///
/// - Note: Apple parity: the binary store is not implemented (see ``NSBinaryStoreType``).
public let NSBinaryStoreSecureDecodingClasses = "NSBinaryStoreSecureDecodingClasses"
/// A store option of Apple's binary store: decode it without secure coding.
///
/// - Note: Apple parity: the binary store is not implemented (see ``NSBinaryStoreType``).
public let NSBinaryStoreInsecureDecodingCompatibilityOption = "NSBinaryStoreInsecureDecodingCompatibilityOption"
/// A store option, and a metadata key, for Apple's deferred lightweight migration.
///
/// - Note: Apple parity: accepted and ignored; migrations here are never deferred.
public let NSPersistentStoreDeferredLightweightMigrationOptionKey = "NSPersistentStoreDeferredLightweightMigrationOptionKey"
/// In a store's metadata on Apple's platforms: the version checksum of the model the store was
/// written with.
///
/// - Note: Apple parity: not written here.
public let NSPersistentStoreModelVersionChecksumKey = "NSPersistentStoreModelVersionChecksumKey"
/// A store option carrying an `NSStagedMigrationManager` for Apple's staged migration.
///
/// - Note: Apple parity: staged migration is not implemented; the option is ignored.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"
