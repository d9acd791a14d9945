import Foundation

/// Turns an editable model into a frozen one: resolves relationship destinations and
/// inverses named by the model loader, checks inheritance, numbers the entities as Core
/// Data's store does (`Z_ENT`) and builds each entity's runtime layout.
struct ModelFreezer {
    let model: NSManagedObjectModel

    func freeze() throws {
        let entities = model.entities
        let byName = model.entitiesByName
        for entity in entities {
            guard let name = entity.name, !name.isEmpty else {
                throw invalid("An entity has no name.")
            }
            // Inheritance cycles would loop forever below.
            var seen = Set<ObjectIdentifier>()
            var current: NSEntityDescription? = entity
            while let e = current {
                guard seen.insert(ObjectIdentifier(e)).inserted else {
                    throw invalid("The entity \(name) inherits from itself.")
                }
                current = e.superentity
            }
            if let parent = entity.superentity, parent.managedObjectModel !== model {
                throw invalid("The parent entity of \(name) is not in the model.")
            }
            for case let relationship as NSRelationshipDescription in entity.properties
            where relationship.entity === entity {
                try resolve(relationship, in: entity, byName: byName)
            }
        }
        for (index, entity) in Self.storeOrder(entities).enumerated() {
            entity.runtime = EntityRuntime(entity: entity, entityID: index + 1)
            model.entitiesByStoreID[index + 1] = entity
        }
        model.frozenEntitiesByName = byName
    }

    private func resolve(
        _ relationship: NSRelationshipDescription, in entity: NSEntityDescription,
        byName: [String: NSEntityDescription]
    ) throws {
        let where_ = "\(entity.name ?? "?").\(relationship.name)"
        if relationship.destinationEntity == nil, let name = relationship.destinationEntityName {
            guard let destination = byName[name] else {
                throw invalid("The relationship \(where_) names the destination entity \(name), which is not in the model.")
            }
            relationship.destinationEntity = destination
        }
        guard let destination = relationship.destinationEntity else {
            throw invalid("The relationship \(where_) has no destination entity.")
        }
        if relationship.inverseRelationship == nil, let inverse = relationship.inverseRelationshipName {
            guard let found = destination.relationshipsByName[inverse] else {
                throw invalid("The relationship \(where_) names the inverse \(destination.name ?? "?").\(inverse), which does not exist.")
            }
            relationship.inverseRelationship = found
        }
    }

    /// Core Data's entity numbering: a depth-first pre-order walk of the inheritance
    /// forest, roots and siblings sorted by name case-insensitively.
    static func storeOrder(_ entities: [NSEntityDescription]) -> [NSEntityDescription] {
        func sorted(_ list: [NSEntityDescription]) -> [NSEntityDescription] {
            list.sorted {
                let a = ($0.name ?? "").lowercased(), b = ($1.name ?? "").lowercased()
                return a == b ? ($0.name ?? "") < ($1.name ?? "") : a < b
            }
        }
        var order: [NSEntityDescription] = []
        func walk(_ entity: NSEntityDescription) {
            order.append(entity)
            sorted(entity.subentities).forEach(walk)
        }
        sorted(entities.filter { $0.superentity == nil }).forEach(walk)
        return order
    }

    private func invalid(_ message: String) -> NSError {
        CoreDataError.make(NSManagedObjectValidationError, "Invalid managed object model: \(message)")
    }
}
