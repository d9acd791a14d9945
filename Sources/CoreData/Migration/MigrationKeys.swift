import Foundation

// MARK: - The variables of a mapping's expressions

/// The name under which a value expression reads the migration manager: `$manager`.
public let NSMigrationManagerKey = "manager"
/// The name under which a value expression reads the source object: `$source`.
public let NSMigrationSourceObjectKey = "source"
/// The name under which a value expression reads the destination object being filled:
/// `$destination`.
public let NSMigrationDestinationObjectKey = "destination"
/// The name under which a value expression reads the entity mapping: `$entityMapping`.
public let NSMigrationEntityMappingKey = "entityMapping"
/// The name under which a value expression reads the property mapping: `$propertyMapping`.
public let NSMigrationPropertyMappingKey = "propertyMapping"
/// The name under which a value expression reads the entity mapping's policy:
/// `$entityPolicy`.
public let NSMigrationEntityPolicyKey = "entityPolicy"
