import Foundation
@_spi(Tools) import CoreData

/// `coredata model <path>`: prints a model's entities, attributes, relationships and
/// version hashes.
enum ModelCommand: Subcommand {
    static let name = "model"
    static let summary = "print a model's entities, properties and version hashes"
    static let usage = """
        model <path> [--version <name> | --all-versions]
          <path>            a .xcdatamodeld bundle, a .xcdatamodel folder, or a .momd/.mom
                            URL with the model source beside it
          --version <name>  print that version instead of the current one
          --all-versions    print every version of the bundle
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        var path: String?
        var version: String?
        var allVersions = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--version":
                index += 1
                guard index < arguments.count else { throw UsageError("--version needs a version name") }
                version = arguments[index]
            case "--all-versions":
                allVersions = true
            case "-h", "--help":
                print("usage: coredata \(usage)")
                return ExitStatus.success
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option '\(argument)'") }
                guard path == nil else { throw UsageError("unexpected argument '\(argument)'") }
                path = argument
            }
            index += 1
        }
        guard let path else { throw UsageError("missing the model path") }
        if version != nil && allVersions { throw UsageError("--version and --all-versions exclude each other") }

        let url = URL(fileURLWithPath: path)
        let (bundle, designated) = try ModelBundle.resolve(url)
        print("Model \(bundle.url.path)")
        print("Versions: " + bundle.versionNames.map { $0 == bundle.currentVersionName ? "\($0) (current)" : $0 }
            .joined(separator: ", "))
        let names = allVersions ? bundle.versionNames : [version ?? designated]
        for name in names {
            let model = try bundle.model(forVersion: name)
            print("")
            describe(model, version: name)
        }
        return ExitStatus.success
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
