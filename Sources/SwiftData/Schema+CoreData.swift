import CoreData

/// A relationship being built, with the entity it belongs to.
private struct PendingRelationship {
    let description: NSRelationshipDescription
    let info: Schema.Relationship
    let source: String
}

extension Schema {
    /// The Core Data model of this schema: one entity per class, named as Apple's SwiftData
    /// names them (the class's name), with Apple's type mapping, relationships paired with
    /// their inverses.
    ///
    /// - Throws: ``SwiftDataError/unsupportedType`` for a property type with no store
    ///   mapping, ``SwiftDataError/missingInverse`` for an inverse that does not point back.
    func makeManagedObjectModel() throws -> NSManagedObjectModel {
        _ = ModelObject.registered
        let model = NSManagedObjectModel()
        // Recorded in the store's metadata (NSStoreModelVersionIdentifiersKey): what tells
        // two schema versions with the same version hashes apart during a migration.
        model.versionIdentifiers = [version.description]
        var descriptions: [String: NSEntityDescription] = [:]
        var pending: [PendingRelationship] = []
        var pendingByKeyPath: [AnyKeyPath: Int] = [:]
        for entity in entities {
            let description = NSEntityDescription()
            description.name = entity.name
            description.managedObjectClassName = ModelObject.className
            var properties: [NSPropertyDescription] = []
            for attribute in entity.attributes {
                guard let type = Self.attributeType(of: attribute.valueType) else {
                    throw SwiftDataError(.unsupportedType,
                        "\(entity.name).\(attribute.name) has type \(attribute.valueType), which no store attribute type holds")
                }
                let property = NSAttributeDescription()
                property.name = attribute.name
                property.attributeType = type
                property.isOptional = attribute.isOptional
                property.isTransient = attribute.isTransient
                property.allowsExternalBinaryDataStorage = attribute.options.contains(.externalStorage)
                property.preservesValueInHistoryOnDeletion = attribute.options.contains(.preserveValueOnDeletion)
                property.renamingIdentifier = attribute.originalName
                property.versionHashModifier = attribute.hashModifier
                if let value = attribute.defaultValue { property.defaultValue = ValueBridge.storedDefault(value) }
                properties.append(property)
            }
            for relationship in entity.relationships {
                let property = NSRelationshipDescription()
                property.name = relationship.name
                property.isOptional = relationship.isOptional
                property.renamingIdentifier = relationship.originalName
                property.versionHashModifier = relationship.hashModifier
                property.deleteRule = switch relationship.deleteRule {
                case .cascade: .cascadeDeleteRule
                case .deny: .denyDeleteRule
                case .noAction: .noActionDeleteRule
                case .nullify: .nullifyDeleteRule
                }
                if relationship.isToOneRelationship {
                    property.minCount = relationship.isOptional ? 0 : 1
                    property.maxCount = 1
                } else {
                    property.minCount = relationship.minimumModelCount ?? 0
                    property.maxCount = relationship.maximumModelCount ?? 0
                }
                properties.append(property)
                if let keypath = relationship.keypath { pendingByKeyPath[keypath] = pending.count }
                pending.append(PendingRelationship(description: property, info: relationship, source: entity.name))
            }
            description.properties = properties
            let unique = entity.uniquenessConstraints
            if !unique.isEmpty { description.uniquenessConstraints = unique }
            let byName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            description.indexes = entity.indices.map { names in
                let elements = names.compactMap { byName[$0] }.map {
                    NSFetchIndexElementDescription(property: $0, collationType: .binary)
                }
                return NSFetchIndexDescription(name: "\(entity.name)_" + names.joined(separator: "_"), elements: elements)
            }
            descriptions[entity.name] = description
        }
        // Destinations, then inverses: the one named with `inverse:`, else the single
        // relationship of the destination that points back and names no inverse itself.
        for item in pending { item.description.destinationEntity = descriptions[item.info.destination] }
        for item in pending {
            guard let inverseKeyPath = item.info.inverseKeyPath else { continue }
            guard let index = pendingByKeyPath[inverseKeyPath], pending[index].source == item.info.destination,
                  pending[index].info.destination == item.source else {
                throw SwiftDataError(.missingInverse,
                    "the inverse given for \(item.source).\(item.info.name) is not a relationship of \(item.info.destination) back to \(item.source)")
            }
            item.description.inverseRelationship = pending[index].description
            pending[index].description.inverseRelationship = item.description
        }
        for item in pending where item.description.inverseRelationship == nil && item.info.inverseKeyPath == nil {
            let candidates = pending.filter { other in
                other.description !== item.description && other.source == item.info.destination
                    && other.info.destination == item.source && other.description.inverseRelationship == nil
                    && other.info.inverseKeyPath == nil
            }
            if candidates.count == 1 {
                item.description.inverseRelationship = candidates[0].description
                candidates[0].description.inverseRelationship = item.description
            }
        }
        // Sub-entities: a subclass model's entity inherits its superclass's properties and
        // shares its table (one table per root entity, rows told apart by `Z_ENT`).
        for entity in entities where !entity.subentities.isEmpty {
            descriptions[entity.name]?.subentities = entities.filter { $0.superentity === entity }
                .compactMap { descriptions[$0.name] }
        }
        model.entities = entities.compactMap { descriptions[$0.name] }
        return model
    }

    /// Apple's mapping of Swift types to Core Data attribute types.
    static func attributeType(of type: Any.Type) -> NSAttributeType? {
        switch type {
        case is String.Type: return .stringAttributeType
        case is Bool.Type: return .booleanAttributeType
        case is Int.Type, is Int64.Type, is UInt.Type, is UInt64.Type: return .integer64AttributeType
        case is Int32.Type, is UInt32.Type: return .integer32AttributeType
        case is Int16.Type, is Int8.Type, is UInt16.Type, is UInt8.Type: return .integer16AttributeType
        case is Double.Type: return .doubleAttributeType
        case is Float.Type: return .floatAttributeType
        case is Decimal.Type: return .decimalAttributeType
        case is Date.Type: return .dateAttributeType
        case is Data.Type: return .binaryDataAttributeType
        case is UUID.Type: return .UUIDAttributeType
        case is URL.Type: return .URIAttributeType
        default:
            if let raw = type as? any RawRepresentable.Type, let stored = rawAttributeType(raw) { return stored }
            // Any other `Codable` value (a struct, an enum with associated values, an array
            // or set of values): its encoding, in one binary column (see `ValueBridge`).
            if type is any Codable.Type { return .binaryDataAttributeType }
            return nil
        }
    }

    private static func rawAttributeType<R: RawRepresentable>(_ type: R.Type) -> NSAttributeType? {
        attributeType(of: R.RawValue.self)
    }
}
