// Store types, store options and metadata keys, with Apple's string values.

public let NSSQLiteStoreType = "SQLite"
public let NSInMemoryStoreType = "InMemory"
public let NSBinaryStoreType = "Binary"

public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

public let NSStoreTypeKey = "NSStoreType"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
public let NSPersistentStoreOSCompatibility = "NSPersistentStoreOSCompatibility"
