import Foundation
@_spi(Tools) import CoreData

/// `coredata model <path>`: prints a model's entities, attributes, relationships and
/// version hashes, from a model file or from the model a store caches (`Z_MODELCACHE`).
enum ModelCommand: Subcommand {
    static let name = "model"
    static let summary = "print a model's entities, properties and version hashes"
    static let usage = """
        model <path> [--version <name> | --all-versions] [--json]
          <path>            a .xcdatamodeld bundle, a .xcdatamodel folder, a .momd/.mom URL
                            with the model source beside it, or a SQLite store: the model
                            it caches (the one that wrote it), read without touching it
          --version <name>  print that version instead of the current one
          --all-versions    print every version of the bundle
          --json            print one JSON object: {"path", "versions": [{"name", "entities"}]}
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--version"], flags: ["--all-versions", "--json"])
        let path = try parsed.positional(0, missing: "the model path")
        let version = parsed.value("--version")
        let allVersions = parsed.has("--all-versions")
        if version != nil && allVersions { throw UsageError("--version and --all-versions exclude each other") }

        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        let versions: [(name: String, model: NSManagedObjectModel)]
        var header = ["Model \(url.path)"]
        if exists && !isFolder.boolValue && !["mom", "omo"].contains(url.pathExtension) {
            // A file that is no compiled model: a store, whose cached model is read.
            if version != nil || allVersions { throw UsageError("a store caches one model version: --version and --all-versions are for model bundles") }
            let model = try NSManagedObjectModel(cachedInStoreAt: url)
            header = ["Model cached in the store \(url.path)"]
            versions = [("(cached)", model)]
        } else {
            let (bundle, designated) = try ModelBundle.resolve(url)
            header = ["Model \(bundle.url.path)", "Versions: " + bundle.versionNames
                .map { $0 == bundle.currentVersionName ? "\($0) (current)" : $0 }.joined(separator: ", ")]
            versions = try (allVersions ? bundle.versionNames : [version ?? designated])
                .map { ($0, try bundle.model(forVersion: $0)) }
        }
        if parsed.has("--json") {
            let object: [String: Any] = [
                "path": url.path,
                "versions": versions.map { json($0.model, version: $0.name) },
            ]
            print(try JSONValues.text(object))
            return ExitStatus.success
        }
        header.forEach { print($0) }
        for (name, model) in versions {
            print("")
            describe(model, version: name)
        }
        return ExitStatus.success
    }

    // MARK: - JSON

    /// One model version as JSON: its entities with their traits, properties (attributes
    /// with type and flags, relationships with destination, inverse and rules), uniqueness
    /// constraints and indexes; version hashes in hex, as the text output prints them.
    static func json(_ model: NSManagedObjectModel, version: String) -> [String: Any] {
        let entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }.map { entity -> [String: Any] in
            var object: [String: Any] = [
                "name": entity.name ?? "",
                "className": entity.managedObjectClassName ?? "NSManagedObject",
                "abstract": entity.isAbstract,
                "versionHash": hex(entity.versionHash),
                "attributes": entity.attributesByName.values.sorted { $0.name < $1.name }.map { attribute -> [String: Any] in
                    var object: [String: Any] = [
                        "name": attribute.name, "type": typeName(attribute), "optional": attribute.isOptional,
                        "transient": attribute.isTransient, "indexed": attribute.isIndexed,
                        "inherited": attribute.entity !== entity,
                    ]
                    if let defaultValue = attribute.defaultValue { object["default"] = JSONValues.value(defaultValue) }
                    if let transformer = attribute.valueTransformerName { object["transformer"] = transformer }
                    return object
                },
                "relationships": entity.relationshipsByName.values.sorted { $0.name < $1.name }.map { relationship -> [String: Any] in
                    [
                        "name": relationship.name, "destination": relationship.destinationEntity?.name ?? "",
                        "toMany": relationship.isToMany, "optional": relationship.isOptional,
                        "ordered": relationship.isOrdered, "transient": relationship.isTransient,
                        "inverse": relationship.inverseRelationship?.name ?? NSNull(),
                        "deleteRule": ruleName(relationship.deleteRule),
                        "minCount": relationship.minCount, "maxCount": relationship.maxCount,
                        "inherited": relationship.entity !== entity,
                    ]
                },
                "uniquenessConstraints": entity.uniquenessConstraints.map { $0.map { "\($0)" } },
                "indexes": entity.indexes.map { ["name": $0.name, "properties": $0.elements.compactMap(\.propertyName)] },
            ]
            if let parent = entity.superentity?.name { object["parent"] = parent }
            return object
        }
        return [
            "name": version,
            "versionIdentifiers": model.versionIdentifiers.compactMap { $0.base as? String }.sorted(),
            "entities": entities,
        ]
    }

    // MARK: - Output

    static func describe(_ model: NSManagedObjectModel, version: String) {
        let identifiers = model.versionIdentifiers.compactMap { $0.base as? String }.sorted()
        print("Version \(version)" + (identifiers.isEmpty ? "" : "  identifiers: \(identifiers.map { "\"\($0)\"" }.joined(separator: ", "))"))
        if !model.configurations.isEmpty {
            for configuration in model.configurations {
                let members = (model.entities(forConfigurationName: configuration) ?? []).compactMap(\.name)
                print("Configuration \(configuration): \(members.joined(separator: ", "))")
            }
        }
        for (name, template) in model.fetchRequestTemplatesByName.sorted(by: { $0.key < $1.key }) {
            print("Fetch request template \(name): entity \(template.entityName ?? "?")")
        }
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            describe(entity)
        }
    }

    static func describe(_ entity: NSEntityDescription) {
        var traits = ["class \(entity.managedObjectClassName ?? "NSManagedObject")"]
        if entity.isAbstract { traits.append("abstract") }
        if let parent = entity.superentity?.name { traits.append("parent \(parent)") }
        if let renaming = entity.renamingIdentifier, renaming != entity.name { traits.append("renamed from \(renaming)") }
        print("")
        print("Entity \(entity.name ?? "?")  (\(traits.joined(separator: ", ")))")
        print("  version hash  \(hex(entity.versionHash))")
        for property in entity.properties {
            let inherited = property.entity !== entity ? "  (inherited from \(property.entity?.name ?? "?"))" : ""
            switch property {
            case let attribute as NSAttributeDescription:
                var flags = [typeName(attribute)]
                flags.append(attribute.isOptional ? "optional" : "required")
                if attribute.isTransient { flags.append("transient") }
                if attribute.isIndexed { flags.append("indexed") }
                if let defaultValue = attribute.defaultValue { flags.append("default \(defaultValue)") }
                if let transformer = attribute.valueTransformerName { flags.append("transformer \(transformer)") }
                print("  attribute     \(attribute.name): \(flags.joined(separator: ", "))\(inherited)")
            case let relationship as NSRelationshipDescription:
                var flags = [relationship.isToMany ? "to-many" : "to-one"]
                flags.append(relationship.isOptional ? "optional" : "required")
                if relationship.isOrdered { flags.append("ordered") }
                if relationship.isTransient { flags.append("transient") }
                if relationship.minCount > 0 { flags.append("min \(relationship.minCount)") }
                if relationship.isToMany && relationship.maxCount > 0 { flags.append("max \(relationship.maxCount)") }
                flags.append("inverse \(relationship.inverseRelationship?.name ?? "none")")
                flags.append("delete rule \(ruleName(relationship.deleteRule))")
                print("  relationship  \(relationship.name) -> \(relationship.destinationEntity?.name ?? "?"): \(flags.joined(separator: ", "))\(inherited)")
            case let fetched as NSFetchedPropertyDescription:
                print("  fetched       \(fetched.name) -> \(fetched.fetchRequest?.entityName ?? "?")\(inherited)")
            default:
                print("  property      \(property.name)\(inherited)")
            }
        }
        for constraint in entity.uniquenessConstraints {
            print("  unique        \(constraint.map { "\($0)" }.joined(separator: ", "))")
        }
        for index in entity.indexes {
            print("  index         \(index.name): \(index.elements.compactMap(\.propertyName).joined(separator: ", "))")
        }
    }

    static func typeName(_ attribute: NSAttributeDescription) -> String {
        switch attribute.attributeType {
        case .undefinedAttributeType: return "Undefined"
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType:
            let elements = (attribute as? NSCompositeAttributeDescription)?.elements.map(\.name) ?? []
            return "Composite(\(elements.joined(separator: ", ")))"
        }
    }

    static func ruleName(_ rule: NSDeleteRule) -> String {
        switch rule {
        case .noActionDeleteRule: return "No Action"
        case .nullifyDeleteRule: return "Nullify"
        case .cascadeDeleteRule: return "Cascade"
        case .denyDeleteRule: return "Deny"
        }
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
