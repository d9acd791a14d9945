import Foundation

/// Infers the mapping model of a lightweight migration (see
/// ``NSMappingModel/inferredMappingModel(forSourceModel:destinationModel:)``).
///
/// An element's *canonical name* is its renaming identifier, else its name: a source
/// and a destination element correspond when the destination's canonical name is the
/// source's name or canonical name.
struct MappingInference {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel
    /// Every reason found so far why the mapping can't be inferred.
    private let problemLog = Problems()

    /// The userInfo key of a 134190 error listing every reason (strings naming entity and
    /// property), not only the first one, which the error's description gives.
    static let problemsKey = "problems"

    private final class Problems {
        var errors: [NSError] = []
    }

    init(source: NSManagedObjectModel, destination: NSManagedObjectModel) {
        self.source = source
        self.destination = destination
    }

    func infer() throws -> NSMappingModel {
        var mappings: [NSEntityMapping] = []
        var used = Set<ObjectIdentifier>()
        var pairs: [(NSEntityDescription, NSEntityDescription)] = []
        for target in ModelFreezer.storeOrder(destination.entities) {
            guard let origin = Self.match(target, among: source.entities, excluding: used) else {
                mappings.append(NSEntityMapping(type: .addEntityMappingType, source: nil, destination: target))
                continue
            }
            used.insert(ObjectIdentifier(origin))
            pairs.append((origin, target))
        }
        let entityMap = Dictionary(pairs.map { (ObjectIdentifier($0.0), $0.1) }, uniquingKeysWith: { a, _ in a })
        for (origin, target) in pairs {
            mappings.append(entityMapping(from: origin, to: target, entityMap: entityMap))
        }
        for origin in ModelFreezer.storeOrder(source.entities) where !used.contains(ObjectIdentifier(origin)) {
            mappings.append(NSEntityMapping(type: .removeEntityMappingType, source: origin, destination: nil))
        }
        checkHierarchies(pairs)
        if let first = problemLog.errors.first {
            var info = first.userInfo
            info[Self.problemsKey] = problemLog.errors.map(\.localizedDescription)
            throw NSError(domain: first.domain, code: first.code, userInfo: info)
        }
        return NSMappingModel(entityMappings: mappings)
    }

    // MARK: - Matching

    static func canonicalName(_ name: String?, _ renamingIdentifier: String?) -> String {
        renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name ?? ""
    }

    /// The source entity corresponding to `target`: same name first, then renaming.
    static func match(
        _ target: NSEntityDescription, among candidates: [NSEntityDescription], excluding used: Set<ObjectIdentifier>
    ) -> NSEntityDescription? {
        let free = candidates.filter { !used.contains(ObjectIdentifier($0)) }
        let canonical = canonicalName(target.name, target.renamingIdentifier)
        return free.first { $0.name == canonical }
            ?? free.first { canonicalName($0.name, $0.renamingIdentifier) == canonical }
    }

    /// The source property corresponding to `target` among `candidates` (same kind).
    static func match(_ target: NSPropertyDescription, among candidates: [NSPropertyDescription]) -> NSPropertyDescription? {
        let canonical = canonicalName(target.name, target.renamingIdentifier)
        let sameKind = candidates.filter {
            !$0.isTransient && type(of: $0) == type(of: target)
        }
        return sameKind.first { $0.name == canonical }
            ?? sameKind.first { canonicalName($0.name, $0.renamingIdentifier) == canonical }
    }

    // MARK: - Value expressions

    /// `$source.<name>`: the source object's value.
    static func sourceValue(_ name: String) -> NSExpression {
        NSExpression(kind: .keyPath(operand: NSExpression(forVariable: "source"), path: name))
    }

    /// `FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
    /// "<name>", $source.<name>)`: the destination objects of the source relationship's members.
    static func relationshipValue(_ name: String) -> NSExpression {
        NSExpression(
            forFunction: NSExpression(forVariable: "manager"),
            selectorName: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
            arguments: [NSExpression(forConstantValue: name), sourceValue(name)])
    }

    // MARK: - Entities

    private func entityMapping(
        from origin: NSEntityDescription, to target: NSEntityDescription,
        entityMap: [ObjectIdentifier: NSEntityDescription]
    ) -> NSEntityMapping {
        let candidates = Array(origin.properties)
        var attributes: [NSPropertyMapping] = []
        var relationships: [NSPropertyMapping] = []
        for property in target.properties where !property.isTransient {
            let found = Self.match(property, among: candidates)
            if let attribute = property as? NSAttributeDescription {
                check(attribute, from: found as? NSAttributeDescription, in: target)
                attributes.append(NSPropertyMapping(name: property.name, sourcePropertyName: found?.name,
                                                    valueExpression: found.map { Self.sourceValue($0.name) }))
            } else if let relationship = property as? NSRelationshipDescription {
                var sourceName = found?.name
                if let old = found as? NSRelationshipDescription, let oldDestination = old.destinationEntity,
                   entityMap[ObjectIdentifier(oldDestination)] !== relationship.destinationEntity {
                    // A relationship to a different entity is a new relationship for Apple
                    // only when the old destination disappeared; otherwise it can't be inferred.
                    if entityMap[ObjectIdentifier(oldDestination)] != nil {
                        problemLog.errors.append(Self.error(target, property, "its destination changed from \(oldDestination.name ?? "?") to \(relationship.destinationEntity?.name ?? "?")"))
                    }
                    sourceName = nil
                }
                relationships.append(NSPropertyMapping(name: property.name, sourcePropertyName: sourceName,
                                                       valueExpression: sourceName.map(Self.relationshipValue)))
            }
        }
        let type: NSEntityMappingType = origin.versionHash == target.versionHash && origin.name == target.name
            ? .copyEntityMappingType : .transformEntityMappingType
        return NSEntityMapping(type: type, source: origin, destination: target,
                               attributes: attributes, relationships: relationships)
    }

    /// Notes why an attribute's value cannot be inferred, if it can't.
    private func check(_ attribute: NSAttributeDescription, from old: NSAttributeDescription?, in entity: NSEntityDescription) {
        let hasDefault = attribute.defaultValue != nil
        guard let old else {
            if !attribute.isOptional && !hasDefault {
                problemLog.errors.append(Self.error(entity, attribute, "it is a new non-optional attribute without a default value"))
            }
            return
        }
        if old.isOptional && !attribute.isOptional && !hasDefault {
            problemLog.errors.append(Self.error(entity, attribute, "it became non-optional without a default value"))
        }
        if !Self.compatible(old.attributeType, attribute.attributeType) {
            problemLog.errors.append(Self.error(entity, attribute, "its type changed from \(ModelLoader.typeName(old.attributeType)) to \(ModelLoader.typeName(attribute.attributeType))"))
        }
    }

    /// Attribute type changes a lightweight migration carries over: none, except between
    /// the integer widths and between the floating-point types (same storage).
    static func compatible(_ a: NSAttributeType, _ b: NSAttributeType) -> Bool {
        if a == b { return true }
        let integers: Set<NSAttributeType> = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType]
        let floats: Set<NSAttributeType> = [.doubleAttributeType, .floatAttributeType]
        return (integers.contains(a) && integers.contains(b)) || (floats.contains(a) && floats.contains(b))
    }

    /// Two source hierarchies cannot become one destination hierarchy (their primary
    /// keys would collide).
    private func checkHierarchies(_ pairs: [(NSEntityDescription, NSEntityDescription)]) {
        var rootsByDestinationRoot: [ObjectIdentifier: (NSEntityDescription, Set<ObjectIdentifier>)] = [:]
        for (origin, target) in pairs {
            let root = Self.root(of: target)
            rootsByDestinationRoot[ObjectIdentifier(root), default: (root, [])].1.insert(ObjectIdentifier(Self.root(of: origin)))
        }
        for (root, roots) in rootsByDestinationRoot.values where roots.count > 1 {
            problemLog.errors.append(CoreDataError.make(
                NSInferredMappingModelError,
                "Can't infer a mapping model: the hierarchy of \(root.name ?? "?") merges entities from \(roots.count) source hierarchies.",
                userInfo: ["entity": root.name ?? ""]))
        }
    }

    static func root(of entity: NSEntityDescription) -> NSEntityDescription {
        var root = entity
        while let parent = root.superentity { root = parent }
        return root
    }

    static func error(_ entity: NSEntityDescription, _ property: NSPropertyDescription, _ reason: String) -> NSError {
        CoreDataError.make(
            NSInferredMappingModelError,
            "Can't infer a mapping model for \(entity.name ?? "?").\(property.name): \(reason).",
            userInfo: ["entity": entity.name ?? "", "property": property.name])
    }
}
