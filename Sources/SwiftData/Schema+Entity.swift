import CoreData

extension Schema {
    /// One model class as an entity: its name and persisted properties.
    public final class Entity: @unchecked Sendable, Hashable, CustomStringConvertible {
        // @unchecked Sendable: every stored property is set in init and never changes.

        /// The entity's name: the class's name.
        public let name: String
        /// The attributes, in declaration order.
        public let attributes: [Attribute]
        /// The relationships, in declaration order.
        public let relationships: [Relationship]
        /// The entity of the class's `@Model` superclass, when it has one and the schema
        /// holds it.
        public internal(set) weak var superentity: Entity?
        /// The entities of the schema's classes that directly subclass this entity's class.
        public internal(set) var subentities: Set<Entity> = []
        /// The name of ``superentity``.
        public var superentityName: String? { superentity?.name }
        /// The names of the attributes that must be unique across all records.
        public var uniquenessConstraints: [[String]] {
            attributes.filter { $0.options.contains(.unique) }.map { [$0.name] } + Self.names(type._swiftDataUniqueness, of: type)
        }
        /// The property names of each `#Index` of the class.
        public var indices: [[String]] { Self.names(type._swiftDataIndexes, of: type) }

        private static func names(_ groups: [[AnyKeyPath]], of type: any PersistentModel.Type) -> [[String]] {
            groups.map { group in
                group.compactMap { keyPath in type.schemaMetadata.first { $0.keypath == keyPath }?.name }
            }.filter { !$0.isEmpty }
        }
        let type: any PersistentModel.Type

        init(type: any PersistentModel.Type) {
            self.type = type
            self.name = Schema.entityName(of: type)
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for property in type.schemaMetadata {
                switch PropertyKind.of(property.keypath) {
                case .attribute(let valueType, let isOptional):
                    let given = property.metadata as? Attribute
                    attributes.append(Attribute(
                        name: property.name, keypath: property.keypath, valueType: valueType,
                        isOptional: isOptional, options: given?.options ?? [],
                        originalName: given?.originalName, hashModifier: given?.hashModifier,
                        defaultValue: property.defaultValue))
                case .toOne(let destination, let isOptional):
                    let given = property.metadata as? Relationship
                    relationships.append(Relationship(
                        name: property.name, keypath: property.keypath, destination: destination,
                        isToOne: true, isOptional: isOptional, given: given))
                case .toMany(let destination):
                    let given = property.metadata as? Relationship
                    relationships.append(Relationship(
                        name: property.name, keypath: property.keypath, destination: destination,
                        isToOne: false, isOptional: true, given: given))
                }
            }
            self.attributes = attributes
            self.relationships = relationships
        }

        /// The entity's name and properties.
        public var description: String {
            "\(name)(" + (attributes.map(\.name) + relationships.map(\.name)).joined(separator: ", ") + ")"
        }

        /// Entities are equal when they describe the same class.
        public static func == (lhs: Entity, rhs: Entity) -> Bool { lhs.type == rhs.type }
        /// Hashes the class.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
    }

    /// An attribute of an entity, or the options `@Attribute` gives one.
    public final class Attribute: @unchecked Sendable, Hashable {
        // @unchecked Sendable: every stored property is set in init and never changes.

        /// Options of `@Attribute`.
        public struct Option: Hashable, Sendable {
            let kind: String
            /// Unique across all records of the entity: inserting a duplicate updates the
            /// existing record (an "upsert").
            public static let unique = Option(kind: "unique")
            /// Large values may be kept in a file beside the store.
            public static let externalStorage = Option(kind: "externalStorage")
            /// Not saved: the value lives in the context only.
            public static let transient = Option(kind: "transient")
            /// Kept in persistent history when the record is deleted.
            public static let preserveValueOnDeletion = Option(kind: "preserveValueOnDeletion")
            /// Indexed by Spotlight (recorded; no effect on Linux).
            public static let spotlight = Option(kind: "spotlight")
            /// Encrypted in CloudKit (recorded; no effect on Linux).
            public static let allowsCloudEncryption = Option(kind: "allowsCloudEncryption")
            /// Changes are tracked but not saved.
            public static let ephemeral = Option(kind: "ephemeral")
        }

        /// The attribute's name.
        public let name: String
        /// The options given with `@Attribute`.
        public let options: [Option]
        /// The attribute's name in an earlier schema (for migration).
        public let originalName: String?
        /// A value that changes the attribute's version hash.
        public let hashModifier: String?
        /// The attribute's Swift type, without `Optional`.
        public let valueType: Any.Type
        /// Whether the property is optional.
        public let isOptional: Bool
        /// The declaration's initial value, when it has one.
        public let defaultValue: Any?
        let keypath: AnyKeyPath?

        /// The options `@Attribute(...)` records (what the macro writes).
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.name = ""
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.valueType = Any.self
            self.isOptional = true
            self.defaultValue = nil
            self.keypath = nil
        }

        init(name: String, keypath: AnyKeyPath, valueType: Any.Type, isOptional: Bool, options: [Option],
             originalName: String?, hashModifier: String?, defaultValue: Any?) {
            self.defaultValue = defaultValue
            self.name = name
            self.keypath = keypath
            self.valueType = valueType
            self.isOptional = isOptional
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
        }

        /// Whether the attribute is unique.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the attribute is transient.
        public var isTransient: Bool { options.contains(.transient) }

        /// Attributes are equal when their names and options are.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs.name == rhs.name && lhs.options == rhs.options && lhs.valueType == rhs.valueType
        }
        /// Hashes the name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A relationship of an entity, or the options `@Relationship` gives one.
    public final class Relationship: @unchecked Sendable, Hashable {
        // @unchecked Sendable: every stored property is set in init and never changes.

        /// Options of `@Relationship`.
        public struct Option: Hashable, Sendable {
            let kind: String
            /// The related record is unique.
            public static let unique = Option(kind: "unique")
        }

        /// What deleting a model does to the models it relates to.
        public enum DeleteRule: Hashable, Codable, Sendable {
            /// Deletes the related models too.
            case cascade
            /// Refuses the deletion (at save) while any related model remains.
            case deny
            /// Leaves the related models as they are.
            case noAction
            /// Clears the related models' inverse (the default).
            case nullify
        }

        /// The relationship's name.
        public let name: String
        /// The options given with `@Relationship`.
        public let options: [Option]
        /// The delete rule.
        public let deleteRule: DeleteRule
        /// The least number of models a to-many relationship holds (0: no minimum).
        public let minimumModelCount: Int?
        /// The most models a to-many relationship holds (0: no maximum).
        public let maximumModelCount: Int?
        /// The relationship's name in an earlier schema.
        public let originalName: String?
        /// The inverse relationship's key path, when given with `@Relationship(inverse:)`.
        public let inverseKeyPath: AnyKeyPath?
        /// A value that changes the relationship's version hash.
        public let hashModifier: String?
        /// The destination entity's name.
        public let destination: String
        /// Whether the relationship holds one model (else an array of models).
        public let isToOneRelationship: Bool
        /// Whether the relationship may be empty.
        public let isOptional: Bool
        let keypath: AnyKeyPath?
        let destinationType: (any PersistentModel.Type)?

        /// The options `@Relationship(...)` records (what the macro writes).
        public init(_ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
                    maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
                    hashModifier: String? = nil) {
            self.name = ""
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
            self.inverseKeyPath = inverse
            self.hashModifier = hashModifier
            self.destination = ""
            self.isToOneRelationship = false
            self.isOptional = true
            self.keypath = nil
            self.destinationType = nil
        }

        init(name: String, keypath: AnyKeyPath, destination: any PersistentModel.Type, isToOne: Bool,
             isOptional: Bool, given: Relationship?) {
            self.name = name
            self.keypath = keypath
            self.destinationType = destination
            self.destination = Schema.entityName(of: destination)
            self.isToOneRelationship = isToOne
            self.isOptional = isOptional
            self.options = given?.options ?? []
            self.deleteRule = given?.deleteRule ?? .nullify
            self.minimumModelCount = given?.minimumModelCount ?? 0
            self.maximumModelCount = given?.maximumModelCount ?? 0
            self.originalName = given?.originalName
            self.inverseKeyPath = given?.inverseKeyPath
            self.hashModifier = given?.hashModifier
        }

        /// Relationships are equal when their names, destinations and rules are.
        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.deleteRule == rhs.deleteRule
                && lhs.isToOneRelationship == rhs.isToOneRelationship
        }
        /// Hashes the name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }
}
