import Foundation

/// How an entity mapping turns source objects into destination objects.
public enum NSEntityMappingType: UInt, Sendable {
    /// No kind chosen.
    ///
    /// - Note: Apple parity: inferred mappings never use it here.
    case undefinedEntityMappingType = 0
    /// Objects are migrated by custom code (an `NSEntityMigrationPolicy`).
    ///
    /// - Note: Apple parity: custom entity mappings are not supported; inferred mappings
    ///   never use it.
    case customEntityMappingType = 1
    /// A destination entity with no source: no objects are migrated into it.
    case addEntityMappingType = 2
    /// A source entity with no destination: its objects are dropped.
    case removeEntityMappingType = 3
    /// Same entity, same version hash: objects are copied as they are.
    case copyEntityMappingType = 4
    /// Same (or renamed) entity whose properties changed.
    case transformEntityMappingType = 5
}

/// How one destination property gets its value: from a source property, or (for a new
/// property) its default value or nothing.
///
/// - Note: Apple parity: `valueExpression` is not supported; the source property is
///   kept internally.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: built once by inference, not mutated afterwards.

    /// The destination property's name.
    open var name: String?
    /// The source property whose value migrates into this one; `nil` for a new property.
    let sourcePropertyName: String?

    init(name: String, sourcePropertyName: String?) {
        self.name = name
        self.sourcePropertyName = sourcePropertyName
    }
}

/// How the objects of one source entity become objects of one destination entity.
open class NSEntityMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: built once by inference, not mutated afterwards.

    /// `<Source>To<Destination>`, `Add<Destination>` or `Remove<Source>`.
    open var name: String
    /// How the objects migrate: ``NSEntityMappingType/copyEntityMappingType`` for an entity
    /// unchanged in name and version hash, ``NSEntityMappingType/transformEntityMappingType``
    /// for a changed or renamed one, ``NSEntityMappingType/addEntityMappingType`` and
    /// ``NSEntityMappingType/removeEntityMappingType`` for new and dropped entities.
    ///
    /// - Note: Apple parity: this and the other properties describe the inferred mapping;
    ///   migration always uses the mapping it infers itself, so changing them has no effect.
    open var mappingType: NSEntityMappingType
    /// The source entity's name; nil for an add mapping.
    open var sourceEntityName: String?
    /// The destination entity's name; nil for a remove mapping.
    open var destinationEntityName: String?
    /// The source entity's version hash; nil for an add mapping.
    open var sourceEntityVersionHash: Data?
    /// The destination entity's version hash; nil for a remove mapping.
    open var destinationEntityVersionHash: Data?
    /// One mapping per stored attribute of the destination entity, named after it (the
    /// source attribute it reads stays internal); nil for add and remove mappings.
    open var attributeMappings: [NSPropertyMapping]?
    /// One mapping per stored relationship of the destination entity, named after it (the
    /// source relationship it is rebuilt from stays internal); nil for add and remove
    /// mappings.
    open var relationshipMappings: [NSPropertyMapping]?

    /// The entities themselves (the inferred migration works from these).
    let sourceEntity: NSEntityDescription?
    let destinationEntity: NSEntityDescription?

    init(type: NSEntityMappingType, source: NSEntityDescription?, destination: NSEntityDescription?,
         attributes: [NSPropertyMapping]? = nil, relationships: [NSPropertyMapping]? = nil) {
        let from = source?.name ?? "", to = destination?.name ?? ""
        switch type {
        case .addEntityMappingType: name = "Add\(to)"
        case .removeEntityMappingType: name = "Remove\(from)"
        default: name = "\(from)To\(to)"
        }
        mappingType = type
        sourceEntityName = source?.name
        destinationEntityName = destination?.name
        sourceEntityVersionHash = source?.versionHash
        destinationEntityVersionHash = destination?.versionHash
        attributeMappings = attributes
        relationshipMappings = relationships
        sourceEntity = source
        destinationEntity = destination
        super.init()
    }
}

/// The mapping from one model version to another: one ``NSEntityMapping`` per
/// destination entity (and one per dropped source entity).
///
/// Only inferred mapping models exist here, built by
/// ``inferredMappingModel(forSourceModel:destinationModel:)`` for lightweight migration.
///
/// - Note: Apple parity: `.xcmappingmodel` files, custom entity mappings, value
///   expressions and `NSEntityMigrationPolicy` are not supported.
open class NSMappingModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: built once by inference, not mutated afterwards.

    /// Every entity mapping: an add mapping per new destination entity, a copy or transform
    /// mapping per entity found in both versions, then a remove mapping per dropped source
    /// entity.
    ///
    /// ```swift
    /// let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
    /// for entityMapping in mapping.entityMappings {
    ///     print(entityMapping.name, entityMapping.mappingType)
    /// }
    /// ```
    open var entityMappings: [NSEntityMapping]

    /// The entity mappings by ``NSEntityMapping/name`` (`<Source>To<Destination>`,
    /// `Add<Destination>`, `Remove<Source>`), computed from ``entityMappings``.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary(entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    init(entityMappings: [NSEntityMapping]) {
        self.entityMappings = entityMappings
        super.init()
    }

    /// The mapping lightweight migration infers between two versions of a model.
    ///
    /// Entities and properties correspond by name, or by renaming identifier (a
    /// destination element whose renaming identifier is a source element's name or
    /// renaming identifier). Added and removed attributes, entities and relationships,
    /// renames, optionality changes (to non-optional only with a default value), to-one
    /// ↔ to-many and ordering changes, and entities moving in or out of a hierarchy
    /// are inferred.
    ///
    /// - Throws: `NSInferredMappingModelError` (134190), naming the entity and property,
    ///   for a new non-optional attribute without a default value, an attribute whose
    ///   type changed, a relationship whose destination changed, or two source
    ///   hierarchies merged into one.
    open class func inferredMappingModel(
        forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel
    ) throws -> NSMappingModel {
        try MappingInference(source: sourceModel, destination: destinationModel).infer()
    }

    /// The entity mapping whose destination is `entity`.
    func mapping(forDestination entity: NSEntityDescription) -> NSEntityMapping? {
        entityMappings.first { $0.destinationEntity === entity }
    }

    /// The destination entity `entity` (a source entity) migrates into.
    func destination(of entity: NSEntityDescription) -> NSEntityDescription? {
        entityMappings.first { $0.sourceEntity === entity && $0.destinationEntity != nil }?.destinationEntity
    }
}
