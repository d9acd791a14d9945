import CCoreDataAPI
@_spi(Tools) import CoreData
import Foundation

// MARK: - Model introspection

/// `cd_model`: a model and C strings for its names, made once and borrowed by callers
/// for as long as the handle lives.
final class ModelBox: CAPIHandle {
    override class var typeName: String { "cd_model" }

    struct Property {
        let name: UnsafeMutablePointer<CChar>
        let kind: Int32
        let attributeType: Int32
        let destination: UnsafeMutablePointer<CChar>?
        let isOptional: Bool
        var isOrdered = false
    }

    struct Entity {
        let name: UnsafeMutablePointer<CChar>
        let parent: String?
        let properties: [Property]
    }

    let model: NSManagedObjectModel
    /// Entities sorted by name, properties sorted by name.
    let entities: [Entity]
    let entityIndex: [String: Int]

    init(_ model: NSManagedObjectModel) {
        self.model = model
        let sorted = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        entities = sorted.map { entity in
            let properties = entity.properties.sorted { $0.name < $1.name }.map { property -> Property in
                switch property {
                case let attribute as NSAttributeDescription:
                    return Property(name: strdup(property.name), kind: Int32(CD_PROPERTY_ATTRIBUTE.rawValue),
                                    attributeType: Int32(attribute.attributeType.rawValue),
                                    destination: nil, isOptional: property.isOptional)
                case let relationship as NSRelationshipDescription:
                    let kind = relationship.isToMany ? CD_PROPERTY_TO_MANY : CD_PROPERTY_TO_ONE
                    return Property(name: strdup(property.name), kind: Int32(kind.rawValue), attributeType: 0,
                                    destination: relationship.destinationEntity?.name.flatMap { strdup($0) },
                                    isOptional: property.isOptional,
                                    isOrdered: relationship.isToMany && relationship.isOrdered)
                default:
                    return Property(name: strdup(property.name), kind: Int32(CD_PROPERTY_OTHER.rawValue),
                                    attributeType: 0, destination: nil, isOptional: property.isOptional)
                }
            }
            return Entity(name: strdup(entity.name ?? ""), parent: entity.superentity?.name, properties: properties)
        }
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() { index[String(cString: entity.name)] = position }
        entityIndex = index
    }

    deinit {
        for entity in entities {
            free(entity.name)
            for property in entity.properties {
                free(property.name)
                free(property.destination)
            }
        }
    }

    func entity(_ name: UnsafePointer<CChar>?) throws -> Entity {
        let name = try requireString(name, "entity")
        guard let position = entityIndex[name] else {
            throw CAPIError(.notFound, "The model has no entity named \(name).")
        }
        return entities[position]
    }

    /// The entity's property at a position of its by-name order, or a range error.
    func property(of entity: UnsafePointer<CChar>?, at index: Int) throws -> Property {
        let properties = try self.entity(entity).properties
        guard index >= 0, index < properties.count else {
            throw CAPIError(.range, "Property index \(UInt(bitPattern: index)) is out of range (the entity has \(properties.count)).")
        }
        return properties[index]
    }
}

@c @implementation public func cd_model_load(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ path: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let url = URL(fileURLWithPath: try requirePath(path, "path"))
        out.pointee = retained(ModelBox(try NSManagedObjectModel.load(contentsOf: url)))
    }
}

@c @implementation public func cd_model_release(_ model: OpaquePointer?) {
    release(model, as: ModelBox.self)
}

@c @implementation public func cd_model_entity_count(
    _ out: UnsafeMutablePointer<Int>?, _ model: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try handle(model, as: ModelBox.self, "model").entities.count
    }
}

@c @implementation public func cd_model_entity_name(
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ model: OpaquePointer?, _ index: Int
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(model, as: ModelBox.self, "model")
        guard index >= 0, index < box.entities.count else {
            throw CAPIError(.range, "Entity index \(UInt(bitPattern: index)) is out of range (the model has \(box.entities.count)).")
        }
        out.pointee = UnsafePointer(box.entities[index].name)
    }
}

@c @implementation public func cd_model_entity_parent(
    _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ model: OpaquePointer?,
    _ entity: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(model, as: ModelBox.self, "model")
        let parent = try box.entity(entity).parent
        out.pointee = parent.flatMap { box.entityIndex[$0] }.map { UnsafePointer(box.entities[$0].name) }
    }
}

@c @implementation public func cd_model_property_count(
    _ out: UnsafeMutablePointer<Int>?, _ model: OpaquePointer?, _ entity: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try handle(model, as: ModelBox.self, "model").entity(entity).properties.count
    }
}

@c @implementation public func cd_model_property(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outKind: UnsafeMutablePointer<Int32>?,
    _ outAttributeType: UnsafeMutablePointer<Int32>?,
    _ outDestination: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ outOptional: UnsafeMutablePointer<Int32>?, _ model: OpaquePointer?,
    _ entity: UnsafePointer<CChar>?, _ index: Int
) -> Int32 {
    capi {
        let property = try handle(model, as: ModelBox.self, "model").property(of: entity, at: index)
        outName?.pointee = UnsafePointer(property.name)
        outKind?.pointee = property.kind
        outAttributeType?.pointee = property.attributeType
        outDestination?.pointee = property.destination.map { UnsafePointer($0) }
        outOptional?.pointee = property.isOptional ? 1 : 0
    }
}

@c @implementation public func cd_model_property_is_ordered(
    _ out: UnsafeMutablePointer<Int32>?, _ model: OpaquePointer?, _ entity: UnsafePointer<CChar>?,
    _ index: Int
) -> Int32 {
    capi {
        let out = try requireOut(out)
        out.pointee = try handle(model, as: ModelBox.self, "model").property(of: entity, at: index).isOrdered ? 1 : 0
    }
}
