import Foundation

/// How an entity mapping turns source objects into destination objects.
public enum NSEntityMappingType: UInt, Sendable {
    /// No kind chosen.
    case undefinedEntityMappingType = 0
    /// Objects are migrated by custom code: the mapping's `NSEntityMigrationPolicy`.
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

/// How one destination property gets its value during a migration: its
/// ``valueExpression``, evaluated for each source object.
///
/// The expression reads the migration's variables: `$source` (the source object),
/// `$manager` (the ``NSMigrationManager``), `$entityMapping`, `$propertyMapping` and
/// `$entityPolicy` (the mapping's ``NSEntityMigrationPolicy``).
///
/// ```swift
/// let title = NSPropertyMapping()
/// title.name = "title"
/// title.valueExpression = NSExpression(format: "$source.name")
/// ```
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a mapping is configured once, before the migration that reads it.

    /// The destination property's name.
    open var name: String?
    /// The expression whose value the property gets; nil leaves the property as the
    /// destination object's initial value.
    open var valueExpression: NSExpression?
    /// The app's own information about the mapping.
    open var userInfo: [AnyHashable: Any]?
    /// The source property whose value migrates into this one, for the lightweight
    /// migration's SQL; `nil` for a new property.
    var sourcePropertyName: String?

    /// An empty property mapping: set ``name`` and ``valueExpression``.
    public override init() {
        super.init()
    }

    init(name: String, sourcePropertyName: String?, valueExpression: NSExpression? = nil) {
        self.name = name
        self.sourcePropertyName = sourcePropertyName
        self.valueExpression = valueExpression
        super.init()
    }
}

/// How the objects of one source entity become objects of one destination entity.
///
/// A migration manager fetches the source objects with ``sourceExpression`` (by default
/// every object of the source entity), hands each to the mapping's migration policy
/// (``entityMigrationPolicyClassName``, else `NSEntityMigrationPolicy`), which creates the
/// destination objects from ``attributeMappings`` and, once every object exists, sets
/// their relationships from ``relationshipMappings``.
///
/// ```swift
/// let notes = NSEntityMapping()
/// notes.name = "NoteToNote"
/// notes.mappingType = .customEntityMappingType
/// notes.sourceEntityName = "Note"
/// notes.destinationEntityName = "Note"
/// notes.sourceExpression = NSExpression(format:
///     "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Note\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
/// notes.entityMigrationPolicyClassName = "MyApp.NotePolicy"
/// ```
open class NSEntityMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a mapping is configured once, before the migration that reads it.

    /// The mapping's name, unique in its mapping model (`<Source>To<Destination>` in
    /// inferred and Xcode mapping models).
    open var name: String!
    /// What the mapping does: ``NSEntityMappingType/copyEntityMappingType`` for an entity
    /// unchanged in name and version hash, ``NSEntityMappingType/transformEntityMappingType``
    /// for a changed or renamed one, ``NSEntityMappingType/addEntityMappingType`` and
    /// ``NSEntityMappingType/removeEntityMappingType`` for new and dropped entities,
    /// ``NSEntityMappingType/customEntityMappingType`` for one run by custom code.
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    /// The source entity's name; nil for an add mapping.
    open var sourceEntityName: String?
    /// The destination entity's name; nil for a remove mapping.
    open var destinationEntityName: String?
    /// The source entity's version hash: a migration checks it against the source model.
    open var sourceEntityVersionHash: Data?
    /// The destination entity's version hash: a migration checks it against the
    /// destination model.
    open var destinationEntityVersionHash: Data?
    /// One mapping per attribute of the destination entity that gets a value.
    open var attributeMappings: [NSPropertyMapping]?
    /// One mapping per relationship of the destination entity that gets a value.
    open var relationshipMappings: [NSPropertyMapping]?
    /// The expression whose value is the mapping's source objects, evaluated with
    /// `$manager` bound; nil migrates no object.
    open var sourceExpression: NSExpression?
    /// The app's own information about the mapping.
    open var userInfo: [AnyHashable: Any]?
    /// The class of the mapping's migration policy: an `NSEntityMigrationPolicy` subclass,
    /// found with `NSClassFromString`, so a Swift class is named with its module
    /// (`"MyApp.NotePolicy"`; a name without one is also looked for in the modules of the
    /// models' entity classes and of the main executable); nil for `NSEntityMigrationPolicy`
    /// itself.
    open var entityMigrationPolicyClassName: String?

    /// The entities of an inferred mapping (the lightweight migration's SQL works from
    /// these); a migration manager looks entities up by name.
    var sourceEntity: NSEntityDescription?
    var destinationEntity: NSEntityDescription?

    /// An empty entity mapping: set its names, type and expressions.
    public override init() {
        super.init()
    }

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
        if let source, type != .addEntityMappingType {
            sourceExpression = Self.defaultSourceExpression(entityName: source.name ?? "", predicate: nil)
        }
        super.init()
    }

    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", …),
    /// $manager.sourceContext, NO)`: every source object of `entityName` matching
    /// `predicate` (all of them for nil), the source expression Xcode writes.
    static func defaultSourceExpression(entityName: String, predicate: String?) -> NSExpression {
        let request = NSExpression(
            forFunction: NSExpression(forVariable: "manager"),
            selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
            arguments: [NSExpression(forConstantValue: entityName),
                        NSExpression(forConstantValue: predicate.flatMap { $0.isEmpty ? nil : $0 } ?? "TRUEPREDICATE")])
        return NSFetchRequestExpression.expression(
            forFetch: request,
            context: NSExpression(kind: .keyPath(operand: NSExpression(forVariable: "manager"), path: "sourceContext")),
            countOnly: false)
    }
}

/// The mapping from one model version to another: one ``NSEntityMapping`` per
/// destination entity (and one per dropped source entity).
///
/// A mapping model comes from inference
/// (``inferredMappingModel(forSourceModel:destinationModel:)``), from an Xcode
/// `.xcmappingmodel` file (``init(contentsOf:)``, ``init(from:forSourceModel:destinationModel:)``),
/// or is built in code; an `NSMigrationManager` runs it.
///
/// - Note: Apple parity: Xcode compiles `.xcmappingmodel` sources into `.cdm` archives;
///   here the source files are read as they are (see <doc:DifferencesFromApple>).
open class NSMappingModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a mapping model is configured once, before the migration that reads it.

    /// Every entity mapping, in the order a migration runs them.
    ///
    /// ```swift
    /// let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
    /// for entityMapping in mapping.entityMappings {
    ///     print(entityMapping.name!, entityMapping.mappingType)
    /// }
    /// ```
    open var entityMappings: [NSEntityMapping]!

    /// The entity mappings by ``NSEntityMapping/name``, computed from ``entityMappings``.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary((entityMappings ?? []).map { ($0.name ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// An empty mapping model: set ``entityMappings``.
    public override init() {
        entityMappings = []
        super.init()
    }

    init(entityMappings: [NSEntityMapping]) {
        self.entityMappings = entityMappings
        super.init()
    }

    /// The mapping model read from an Xcode mapping model file (a `.xcmappingmodel`
    /// folder, or the `xcmapping.xml` inside it); nil when the file is missing, is not a
    /// mapping model, or names models that cannot be found.
    ///
    /// The file names the two model versions it maps by path; they are looked for as the
    /// file recorded them and in the folders above the mapping model, where a project
    /// keeps them.
    ///
    /// - Note: Apple parity: Apple reads the compiled `.cdm` form; this reads Xcode's
    ///   source. Its archived expressions are read when they are constants, variables,
    ///   key paths, `FUNCTION(…)` or aggregates; a file holding another kind gives nil.
    public convenience init?(contentsOf url: URL?) {
        guard let url, let loaded = try? MappingModelFile.load(url) else { return nil }
        self.init(entityMappings: loaded.entityMappings)
    }

    /// Throwing twin of ``init(contentsOf:)``: the error says why the file was refused.
    ///
    /// - Throws: `NSMigrationMissingMappingModelError` (134140) naming the file and the
    ///   problem.
    static func mappingModel(contentsOf url: URL) throws -> NSMappingModel {
        try MappingModelFile.load(url)
    }

    /// The mapping model among the mapping model files of `bundles` (the main bundle for
    /// nil) whose entity mappings match `sourceModel` and `destinationModel`: every
    /// mapped entity exists in its model with the version hash the mapping was made
    /// against. Nil when no file matches.
    ///
    /// - Note: Apple parity: Apple searches the compiled `.cdm` files of the bundles;
    ///   here the `.xcmappingmodel` folders at the top of each bundle's resources (and of
    ///   the bundle folder itself) are read.
    public convenience init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?,
                             destinationModel: NSManagedObjectModel?) {
        guard let sourceModel, let destinationModel,
              let found = MappingModelFile.find(in: (bundles ?? [Bundle.main]).map(\.bundleURL),
                                                source: sourceModel, destination: destinationModel)
        else { return nil }
        self.init(entityMappings: found.entityMappings)
    }

    /// The mapping lightweight migration infers between two versions of a model.
    ///
    /// Entities and properties correspond by name, or by renaming identifier (a
    /// destination element whose renaming identifier is a source element's name or
    /// renaming identifier). Added and removed attributes, entities and relationships,
    /// renames, optionality changes (to non-optional only with a default value), to-one
    /// ↔ to-many and ordering changes, and entities moving in or out of a hierarchy
    /// are inferred. Each property mapping has the value expression Xcode writes
    /// (`$source.<name>`, or the manager's `destinationInstancesForSourceRelationshipNamed:sourceInstances:`
    /// for a relationship), so an `NSMigrationManager` can run the mapping too.
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

    /// Whether every entity mapping names entities of the two models with the version
    /// hashes it records (a mapping without hashes matches on names alone).
    func matches(source: NSManagedObjectModel, destination: NSManagedObjectModel) -> Bool {
        mismatch(source: source, destination: destination) == nil
    }

    /// Why the mapping model does not fit the two models, or nil when it does.
    func mismatch(source: NSManagedObjectModel, destination: NSManagedObjectModel) -> String? {
        let sources = source.entitiesByName, destinations = destination.entitiesByName
        for mapping in entityMappings ?? [] {
            let label = mapping.name ?? "?"
            if let name = mapping.sourceEntityName {
                guard let entity = sources[name] else {
                    return "the entity mapping \(label) reads \(name), which the source model does not have"
                }
                if let hash = mapping.sourceEntityVersionHash, hash != entity.versionHash {
                    return "the entity mapping \(label) was made for another version of the source entity \(name)"
                }
            }
            if let name = mapping.destinationEntityName {
                guard let entity = destinations[name] else {
                    return "the entity mapping \(label) writes \(name), which the destination model does not have"
                }
                if let hash = mapping.destinationEntityVersionHash, hash != entity.versionHash {
                    return "the entity mapping \(label) was made for another version of the destination entity \(name)"
                }
            }
        }
        return nil
    }
}
