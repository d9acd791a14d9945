import Foundation

/// Reads one Xcode model version (`Foo.xcdatamodel/contents`, XML) into a
/// ``NSManagedObjectModel``.
///
/// What the file says, and where it goes:
/// - `<model userDefinedModelVersionIdentifier>` → `versionIdentifiers` (an empty string
///   counts: Apple stores `[""]` in the store metadata).
/// - `<entity>`: `representedClassName` → `managedObjectClassName`, kept exactly as written
///   (`Foo`, `Module.Foo`, `.Foo`; absent means `NSManagedObject`); `parentEntity`,
///   `isAbstract`, `elementID` → `renamingIdentifier`, `versionHashModifier`, `userInfo`,
///   `uniquenessConstraints`, legacy `compoundIndexes`, `fetchIndex` → `indexes`.
/// - `<attribute>`: `attributeType` (every Xcode spelling); `optional` absent means
///   required; `transient`, `indexed`; `defaultValueString` / `defaultDateTimeInterval`
///   become a typed `defaultValue` (`Int16`, `Int32`, `Int64`, `Double`, `Float`, `Bool`,
///   `Decimal`, `Date`, `String`, `UUID`, `URL`; `YES`/`NO` on a numeric attribute mean
///   1/0, as the model compiler reads them); validation limits go to the internal
///   `minimumValue` / `maximumValue` (`Int64` for integers, `Double` for floating point,
///   `Decimal`, `Int` lengths for strings and binary data, `Date` for dates) and
///   `regularExpression`; `valueTransformerName`, `customClassName` →
///   `attributeValueClassName`, `allowsExternalBinaryDataStorage`,
///   `preserveAfterDeletion`, `usesScalarValueType`, `derived` + `derivationExpression`.
/// - `attributeType="Composite" composite="Name"` becomes an
///   ``NSCompositeAttributeDescription`` whose elements come from `<composite name="Name">`
///   (nested composites stay nested).
/// - `<relationship>`: destination and inverse are resolved here, so a missing one is a
///   load error; `toMany` gives `maxCount` 0 (unbounded) unless the file says otherwise,
///   a to-one has `maxCount` 1; `deletionRule` `Nullify` (also the default), `Cascade`,
///   `Deny`, `No Action`.
/// - `<fetchedProperty>` → ``NSFetchedPropertyDescription``; model-level `<fetchRequest>`
///   → fetch request templates; predicates are kept as raw strings until a predicate
///   parser exists.
/// - `<configuration>` → `setEntities(_:forConfigurationName:)`.
/// - Layout-only elements (`<elements>`) and editor attributes (`syncable`,
///   `codeGenerationType`, positions, tools versions) are ignored.
///
/// - Note: Apple parity: fetch index elements written as `expression=` (not `property=`)
///   are skipped. A date validation limit is read from `minDateTimeInterval` /
///   `maxDateTimeInterval` (seconds since 2001, what Xcode writes beside the string);
///   a file with only the editor's `M/d/yyyy` string is read as that day at 00:00 UTC
///   (Xcode used the editing machine's time zone, which the file does not record).
struct ModelLoader {
    /// The `contents` file being read (named in every error).
    let file: URL

    // MARK: - Entry point

    /// Reads the version folder `versionURL` (which holds `contents`).
    static func loadVersion(at versionURL: URL) throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        try populate(model, fromVersionAt: versionURL)
        return model
    }

    /// Fills an empty `model` from the version folder `versionURL`.
    static func populate(_ model: NSManagedObjectModel, fromVersionAt versionURL: URL) throws {
        let fm = FileManager.default
        let contents = versionURL.appendingPathComponent("contents")
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: contents.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            if fm.fileExists(atPath: versionURL.appendingPathComponent("elements").path) {
                throw ModelLoadError.make(
                    ModelLoadError.corruptFile, file: versionURL,
                    "unsupported legacy model format (the pre-Xcode 4 binary `elements` file); open the model in a current Xcode once so it is saved as XML `contents`")
            }
            throw ModelLoadError.make(
                ModelLoadError.noSuchFile, file: contents, "the model version has no `contents` file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw ModelLoadError.make(
                ModelLoadError.noSuchFile, file: contents, "the file can't be read (\(error.localizedDescription))")
        }
        try ModelLoader(file: contents).populate(model, from: data)
    }

    // MARK: - Model

    func populate(_ model: NSManagedObjectModel, from data: Data) throws {
        let root: ModelXMLElement
        do {
            root = try ModelXMLTree.parse(data)
        } catch {
            throw ModelLoadError.make(
                ModelLoadError.corruptFile, file: file, line: error.line,
                "malformed XML at column \(error.column): \(error.message)")
        }
        guard root.name == "model" else {
            throw ModelLoadError.make(
                ModelLoadError.corruptFile, file: file, line: root.line,
                "the root element is <\(root.name)>, not <model>; this is not an Xcode model file")
        }

        let composites = Dictionary(
            root.children(named: "composite").compactMap { c in c["name"].map { ($0, c) } },
            uniquingKeysWith: { first, _ in first })

        // Entities and their own properties.
        var entities: [NSEntityDescription] = []
        var byName: [String: NSEntityDescription] = [:]
        var parents: [String: (parent: String, line: Int)] = [:]
        for element in root.children(named: "entity") {
            guard let name = element["name"], !name.isEmpty else {
                throw error(line: element.line, "an <entity> has no name")
            }
            guard byName[name] == nil else {
                throw error(entity: name, line: element.line, "the entity is declared twice")
            }
            let entity = try makeEntity(element, name: name, composites: composites)
            entities.append(entity)
            byName[name] = entity
            if let parent = element["parentEntity"], !parent.isEmpty {
                parents[name] = (parent, element.line)
            }
        }

        try wireInheritance(entities: entities, byName: byName, parents: parents)
        try checkInheritedNames(entities)
        let entityElements = root.children(named: "entity")
        for (entity, element) in zip(entities, entityElements) {
            try resolveRelationships(of: entity, element: element, byName: byName)
            try resolveFetchedProperties(of: entity, element: element, byName: byName)
            try resolveIndexes(of: entity, element: element)
        }

        model.entities = entities
        for configuration in root.children(named: "configuration") {
            guard let name = configuration["name"], !name.isEmpty else {
                throw error(line: configuration.line, "a <configuration> has no name")
            }
            var members: [NSEntityDescription] = []
            for member in configuration.children(named: "memberEntity") {
                let memberName = member["name"] ?? ""
                guard let entity = byName[memberName] else {
                    throw error(line: member.line, "the configuration \(name) lists the entity \(memberName), which is not in the model")
                }
                members.append(entity)
            }
            model.setEntities(members, forConfigurationName: name)
        }
        for template in root.children(named: "fetchRequest") {
            guard let name = template["name"], !name.isEmpty else {
                throw error(line: template.line, "a model-level <fetchRequest> has no name")
            }
            let request = try makeFetchRequest(template, byName: byName, owner: "the fetch request template \(name)")
            if let predicate = template["predicateString"] {
                model.fetchRequestTemplatePredicateStrings[name] = predicate
                request.predicate = try parsePredicate(predicate, line: template.line, owner: "the fetch request template \(name)")
            }
            model.setFetchRequestTemplate(request, forName: name)
        }
        if let identifier = root["userDefinedModelVersionIdentifier"] {
            model.versionIdentifiers = [identifier]
        }
    }

    // MARK: - Entities

    private func makeEntity(
        _ element: ModelXMLElement, name: String, composites: [String: ModelXMLElement]
    ) throws -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        if let className = element["representedClassName"], !className.isEmpty {
            entity.managedObjectClassName = className
        }
        entity.isAbstract = element.flag("isAbstract")
        entity.renamingIdentifier = element["elementID"]
        entity.versionHashModifier = element["versionHashModifier"]
        entity.userInfo = userInfo(of: element)

        var properties: [NSPropertyDescription] = []
        var seen = Set<String>()
        for child in element.children {
            let property: NSPropertyDescription
            switch child.name {
            case "attribute":
                property = try makeAttribute(child, entity: name, composites: composites, path: [])
            case "relationship":
                property = try makeRelationship(child, entity: name)
            case "fetchedProperty":
                property = try makeFetchedProperty(child, entity: name)
            default:
                continue
            }
            guard seen.insert(property.name).inserted else {
                throw error(entity: name, property: property.name, line: child.line, "the property is declared twice")
            }
            properties.append(property)
        }
        entity.properties = properties

        if let constraints = element.child(named: "uniquenessConstraints") {
            entity.uniquenessConstraints = constraints.children(named: "uniquenessConstraint").map { constraint in
                constraint.children(named: "constraint").compactMap { $0["value"] } as [Any]
            }
        }
        if let compound = element.child(named: "compoundIndexes") {
            entity.compoundIndexes = compound.children(named: "compoundIndex").map { index in
                index.children(named: "index").compactMap { $0["value"] } as [Any]
            }
        }
        return entity
    }

    /// Sets each entity's superentity, refusing unknown parents and cycles.
    private func wireInheritance(
        entities: [NSEntityDescription], byName: [String: NSEntityDescription],
        parents: [String: (parent: String, line: Int)]
    ) throws {
        for entity in entities {
            let name = entity.name ?? ""
            guard let (parent, line) = parents[name] else { continue }
            guard byName[parent] != nil else {
                throw error(entity: name, line: line, "the parent entity \(parent) is not in the model")
            }
            var chain = [name]
            var current = parent
            while true {
                if chain.contains(current) {
                    throw error(entity: name, line: line, "inheritance cycle: \((chain + [current]).joined(separator: " → "))")
                }
                chain.append(current)
                guard let next = parents[current]?.parent else { break }
                current = next
            }
        }
        for entity in entities {
            guard let (parent, _) = parents[entity.name ?? ""], let superentity = byName[parent] else { continue }
            superentity.subentities = superentity.subentities + [entity]
        }
    }

    /// A sub-entity may not declare a property its parent already has.
    private func checkInheritedNames(_ entities: [NSEntityDescription]) throws {
        for entity in entities {
            guard let inherited = entity.superentity?.propertiesByName else { continue }
            for property in entity.properties where property.entity === entity && inherited[property.name] != nil {
                throw error(
                    entity: entity.name, property: property.name,
                    "the property is already declared by the parent entity \(inherited[property.name]?.entity?.name ?? "?")")
            }
        }
    }

    // MARK: - Attributes

    private func makeAttribute(
        _ element: ModelXMLElement, entity: String, composites: [String: ModelXMLElement], path: [String]
    ) throws -> NSAttributeDescription {
        guard let name = element["name"], !name.isEmpty else {
            throw error(entity: entity, line: element.line, "an <attribute> has no name")
        }
        let typeName = element["attributeType"] ?? "Undefined"
        guard let type = Self.attributeTypes[typeName] else {
            throw error(
                entity: entity, property: name, line: element.line,
                "unknown attributeType \"\(typeName)\" (expected one of \(Self.attributeTypes.keys.sorted().joined(separator: ", ")))")
        }
        let attribute: NSAttributeDescription
        if type == .compositeAttributeType {
            let composite = NSCompositeAttributeDescription()
            guard let compositeName = element["composite"], let definition = composites[compositeName] else {
                throw error(
                    entity: entity, property: name, line: element.line,
                    "the composite \(element["composite"] ?? "(none)") is not declared in the model")
            }
            guard !path.contains(compositeName) else {
                throw error(entity: entity, property: name, line: element.line, "the composite \(compositeName) contains itself")
            }
            composite.elements = try definition.children(named: "attribute").map {
                try makeAttribute($0, entity: entity, composites: composites, path: path + [compositeName])
            }
            attribute = composite
        } else {
            // A derived attribute is an NSDerivedAttributeDescription, as Apple's loader
            // makes it, so models from files and from code derive the same way.
            attribute = element.flag("derived") ? NSDerivedAttributeDescription() : NSAttributeDescription()
            attribute.attributeType = type
        }
        attribute.name = name
        attribute.isOptional = element.flag("optional")
        attribute.isTransient = element.flag("transient")
        attribute.isIndexed = element.flag("indexed")
        if type == .undefinedAttributeType, !attribute.isTransient {
            throw error(entity: entity, property: name, line: element.line, "only a transient attribute can have the Undefined type")
        }
        attribute.renamingIdentifier = element["elementID"]
        attribute.versionHashModifier = element["versionHashModifier"]
        attribute.userInfo = userInfo(of: element)
        attribute.valueTransformerName = element["valueTransformerName"]
        if let className = element["customClassName"], !className.isEmpty {
            attribute.attributeValueClassName = className
        }
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.usesScalarValueType = element.flag("usesScalarValueType")
        if let derived = attribute as? NSDerivedAttributeDescription {
            derived.setDerivation(text: element["derivationExpression"] ?? "")
        }

        let context = (entity: entity, property: name, line: element.line)
        if let interval = element["defaultDateTimeInterval"] {
            guard let seconds = Double(interval) else {
                throw error(entity: entity, property: name, line: element.line, "defaultDateTimeInterval \"\(interval)\" is not a number")
            }
            attribute.defaultValue = Date(timeIntervalSinceReferenceDate: seconds)
        } else if let text = element["defaultValueString"] {
            attribute.defaultValue = try defaultValue(text, type: type, context)
        }
        try readValidation(element, into: attribute, context)
        return attribute
    }

    static let attributeTypes: [String: NSAttributeType] = [
        "Undefined": .undefinedAttributeType,
        "Integer 16": .integer16AttributeType,
        "Integer 32": .integer32AttributeType,
        "Integer 64": .integer64AttributeType,
        "Decimal": .decimalAttributeType,
        "Double": .doubleAttributeType,
        "Float": .floatAttributeType,
        "String": .stringAttributeType,
        "Boolean": .booleanAttributeType,
        "Date": .dateAttributeType,
        "Binary": .binaryDataAttributeType,
        "UUID": .UUIDAttributeType,
        "URI": .URIAttributeType,
        "Transformable": .transformableAttributeType,
        "ObjectID": .objectIDAttributeType,
        "Composite": .compositeAttributeType,
    ]

    private typealias Context = (entity: String, property: String, line: Int)

    /// `defaultValueString` as a value of the attribute's type.
    private func defaultValue(_ text: String, type: NSAttributeType, _ context: Context) throws -> Any? {
        func bad() -> NSError {
            error(entity: context.entity, property: context.property, line: context.line,
                  "defaultValueString \"\(text)\" is not a valid \(Self.typeName(type)) value")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16AttributeType:
            guard let value = (Self.integer(trimmed) ?? Self.booleanWord(trimmed)).flatMap(Int16.init(exactly:)) else { throw bad() }
            return value
        case .integer32AttributeType:
            guard let value = (Self.integer(trimmed) ?? Self.booleanWord(trimmed)).flatMap(Int32.init(exactly:)) else { throw bad() }
            return value
        case .integer64AttributeType:
            guard let value = Self.integer(trimmed) ?? Self.booleanWord(trimmed) else { throw bad() }
            return value
        case .doubleAttributeType:
            guard let value = Double(trimmed) ?? Self.booleanWord(trimmed).map(Double.init) else { throw bad() }
            return value
        case .floatAttributeType:
            guard let value = Float(trimmed) ?? Self.booleanWord(trimmed).map(Float.init) else { throw bad() }
            return value
        case .decimalAttributeType:
            guard let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
                    ?? Self.booleanWord(trimmed).map(Decimal.init) else { throw bad() }
            return value
        case .booleanAttributeType:
            switch trimmed.uppercased() {
            case "YES", "TRUE", "1": return true
            case "NO", "FALSE", "0": return false
            default: throw bad()
            }
        case .stringAttributeType:
            return text
        case .dateAttributeType:
            guard let seconds = Double(trimmed) else { throw bad() }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .UUIDAttributeType:
            guard let value = UUID(uuidString: trimmed) else { throw bad() }
            return value
        case .URIAttributeType:
            guard let value = URL(string: trimmed) else { throw bad() }
            return value
        default:
            // Binary, Transformable, ObjectID and Composite have no textual default.
            return nil
        }
    }

    /// An integer written as `12`, or as `12.0` by some Xcode versions.
    private static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        if let value = Double(text), value.rounded() == value { return Int64(exactly: value) }
        return nil
    }

    /// `YES` / `NO` as 1 / 0: Xcode keeps a Boolean attribute's default when its type is
    /// changed to a number, and the model compiler accepts it.
    private static func booleanWord(_ text: String) -> Int64? {
        switch text.uppercased() {
        case "YES", "TRUE": return 1
        case "NO", "FALSE": return 0
        default: return nil
        }
    }

    private func readValidation(
        _ element: ModelXMLElement, into attribute: NSAttributeDescription, _ context: Context
    ) throws {
        attribute.regularExpression = element["regularExpressionString"]
        func limit(_ text: String?, interval: String?) throws -> Any? {
            switch attribute.attributeType {
            case .dateAttributeType:
                guard let interval else { return try Self.dateLimit(text, context: context, loader: self) }
                guard let seconds = Double(interval) else {
                    throw error(entity: context.entity, property: context.property, line: context.line,
                                "the date limit \"\(interval)\" is not a number of seconds")
                }
                return Date(timeIntervalSinceReferenceDate: seconds)
            default:
                break
            }
            guard let text else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let value: Any?
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                value = Self.integer(trimmed)
            case .doubleAttributeType, .floatAttributeType:
                value = Double(trimmed)
            case .decimalAttributeType:
                value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
            case .stringAttributeType, .binaryDataAttributeType, .URIAttributeType:
                value = Self.integer(trimmed).map { Int($0) }
            default:
                return nil
            }
            guard let value else {
                throw error(entity: context.entity, property: context.property, line: context.line,
                            "the validation limit \"\(text)\" is not valid for a \(Self.typeName(attribute.attributeType)) attribute")
            }
            return value
        }
        attribute.minimumValue = try limit(element["minValueString"], interval: element["minDateTimeInterval"])
        attribute.maximumValue = try limit(element["maxValueString"], interval: element["maxDateTimeInterval"])
    }

    static func typeName(_ type: NSAttributeType) -> String {
        attributeTypes.first { $0.value == type }?.key ?? "\(type.rawValue)"
    }

    // MARK: - Relationships

    private func makeRelationship(_ element: ModelXMLElement, entity: String) throws -> NSRelationshipDescription {
        guard let name = element["name"], !name.isEmpty else {
            throw error(entity: entity, line: element.line, "a <relationship> has no name")
        }
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.isOptional = element.flag("optional")
        relationship.isTransient = element.flag("transient")
        relationship.isOrdered = element.flag("ordered")
        relationship.renamingIdentifier = element["elementID"]
        relationship.versionHashModifier = element["versionHashModifier"]
        relationship.userInfo = userInfo(of: element)
        guard let destination = element["destinationEntity"], !destination.isEmpty else {
            throw error(entity: entity, property: name, line: element.line, "the relationship has no destinationEntity")
        }
        relationship.destinationEntityName = destination
        if let inverse = element["inverseName"], !inverse.isEmpty {
            relationship.inverseRelationshipName = inverse
        }
        func count(_ attribute: String) throws -> Int? {
            guard let text = element[attribute] else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw error(entity: entity, property: name, line: element.line, "\(attribute) \"\(text)\" is not a count")
            }
            return value
        }
        let isToMany = element.flag("toMany")
        relationship.maxCount = try count("maxCount") ?? (isToMany ? 0 : 1)
        relationship.minCount = try count("minCount") ?? 0
        switch element["deletionRule"] ?? "Nullify" {
        case "Nullify": relationship.deleteRule = .nullifyDeleteRule
        case "Cascade": relationship.deleteRule = .cascadeDeleteRule
        case "Deny": relationship.deleteRule = .denyDeleteRule
        case "No Action", "NoAction": relationship.deleteRule = .noActionDeleteRule
        case let other:
            throw error(entity: entity, property: name, line: element.line,
                        "unknown deletionRule \"\(other)\" (expected Nullify, Cascade, Deny or No Action)")
        }
        return relationship
    }

    private func resolveRelationships(
        of entity: NSEntityDescription, element: ModelXMLElement, byName: [String: NSEntityDescription]
    ) throws {
        let lines = Dictionary(
            element.children(named: "relationship").compactMap { r in r["name"].map { ($0, r.line) } },
            uniquingKeysWith: { first, _ in first })
        for case let relationship as NSRelationshipDescription in entity.properties
        where relationship.entity === entity {
            let line = lines[relationship.name]
            let destinationName = relationship.destinationEntityName ?? ""
            guard let destination = byName[destinationName] else {
                throw error(entity: entity.name, property: relationship.name, line: line,
                            "the destination entity \(destinationName) is not in the model")
            }
            relationship.destinationEntity = destination
            guard let inverseName = relationship.inverseRelationshipName else { continue }
            guard let inverse = destination.relationshipsByName[inverseName] else {
                throw error(entity: entity.name, property: relationship.name, line: line,
                            "the inverse relationship \(destinationName).\(inverseName) does not exist")
            }
            relationship.inverseRelationship = inverse
        }
    }

    // MARK: - Fetched properties and fetch requests

    private func makeFetchedProperty(_ element: ModelXMLElement, entity: String) throws -> NSFetchedPropertyDescription {
        guard let name = element["name"], !name.isEmpty else {
            throw error(entity: entity, line: element.line, "a <fetchedProperty> has no name")
        }
        let property = NSFetchedPropertyDescription()
        property.name = name
        property.isOptional = element.flag("optional")
        property.userInfo = userInfo(of: element)
        property.renamingIdentifier = element["elementID"]
        property.versionHashModifier = element["versionHashModifier"]
        return property
    }

    private func resolveFetchedProperties(
        of entity: NSEntityDescription, element: ModelXMLElement, byName: [String: NSEntityDescription]
    ) throws {
        for child in element.children(named: "fetchedProperty") {
            guard let name = child["name"],
                  let property = entity.propertiesByName[name] as? NSFetchedPropertyDescription else { continue }
            guard let request = child.child(named: "fetchRequest") else {
                throw error(entity: entity.name, property: name, line: child.line, "the fetched property has no <fetchRequest>")
            }
            property.fetchRequest = try makeFetchRequest(
                request, byName: byName, owner: "the fetched property", entity: entity.name, property: name)
            property.predicateString = request["predicateString"]
            if let text = property.predicateString {
                property.fetchRequest?.predicate = try parsePredicate(
                    text, line: request.line, owner: "the fetched property", entity: entity.name, property: name)
            }
        }
    }

    /// A fetch request's `predicateString`, parsed (substitution variables stay
    /// unbound until `fetchRequestFromTemplate(withName:substitutionVariables:)`).
    private func parsePredicate(
        _ text: String, line: Int, owner: String, entity: String? = nil, property: String? = nil
    ) throws -> NSPredicate {
        do {
            return try NSPredicate.parse(format: text, arguments: [])
        } catch let parseError as NSError {
            throw error(entity: entity, property: property, line: line,
                        "\(owner) has a predicate that does not parse: \(parseError.localizedDescription)")
        }
    }

    private func makeFetchRequest(
        _ element: ModelXMLElement, byName: [String: NSEntityDescription], owner: String,
        entity owningEntity: String? = nil, property: String? = nil
    ) throws -> NSFetchRequest<NSFetchRequestResult> {
        let entityName = element["entity"] ?? ""
        guard let target = byName[entityName] else {
            throw error(entity: owningEntity, property: property, line: element.line,
                        "\(owner) fetches the entity \(entityName.isEmpty ? "(none)" : entityName), which is not in the model")
        }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
        request.entity = target
        func number(_ key: String) -> Int? { element[key].flatMap { Int($0) } }
        if let limit = number("fetchLimit") { request.fetchLimit = limit }
        if let offset = number("fetchOffset") { request.fetchOffset = offset }
        if let batch = number("fetchBatchSize") { request.fetchBatchSize = batch }
        if let type = number("resultType") { request.resultType = NSFetchRequestResultType(rawValue: UInt(max(type, 0))) }
        if let flag = element["returnDistinctResults"] { request.returnsDistinctResults = flag == "YES" }
        if let flag = element["includeSubentities"] ?? element["includesSubentities"] {
            request.includesSubentities = flag == "YES"
        }
        if let flag = element["includePropertyValues"] ?? element["includesPropertyValues"] {
            request.includesPropertyValues = flag == "YES"
        }
        if let flag = element["returnObjectsAsFaults"] ?? element["returnsObjectsAsFaults"] {
            request.returnsObjectsAsFaults = flag == "YES"
        }
        if let flag = element["includesPendingChanges"] { request.includesPendingChanges = flag == "YES" }
        if let flag = element["refreshObjects"] { request.shouldRefreshRefetchedObjects = flag == "YES" }
        return request
    }

    // MARK: - Indexes

    private func resolveIndexes(of entity: NSEntityDescription, element: ModelXMLElement) throws {
        var indexes: [NSFetchIndexDescription] = []
        for index in element.children(named: "fetchIndex") {
            let name = index["name"] ?? ""
            var elements: [NSFetchIndexElementDescription] = []
            for item in index.children(named: "fetchIndexElement") {
                guard let propertyName = item["property"] else { continue }
                guard let property = entity.propertiesByName[propertyName] else {
                    throw error(entity: entity.name, property: propertyName, line: item.line,
                                "the fetch index \(name) uses a property the entity does not have")
                }
                let collation: NSFetchIndexElementType =
                    item["type"] == "RTree" ? .rTree : .binary
                let description = NSFetchIndexElementDescription(property: property, collationType: collation)
                description.isAscending = item["order"] != "descending"
                elements.append(description)
            }
            let description = NSFetchIndexDescription(name: name, elements: elements)
            description.entity = entity
            indexes.append(description)
        }
        if !indexes.isEmpty { entity.indexes = indexes }
    }

    // MARK: - Helpers

    private func userInfo(of element: ModelXMLElement) -> [AnyHashable: Any]? {
        guard let info = element.child(named: "userInfo") else { return nil }
        var result: [AnyHashable: Any] = [:]
        for entry in info.children(named: "entry") {
            guard let key = entry["key"] else { continue }
            result[key] = entry["value"] ?? ""
        }
        return result
    }

    private func error(
        entity: String? = nil, property: String? = nil, line: Int? = nil, _ problem: String
    ) -> NSError {
        ModelLoadError.make(
            ModelLoadError.invalidModel, file: file, entity: entity, property: property, line: line, problem)
    }

    /// A date limit written only as the model editor's `M/d/yyyy` string.
    private static func dateLimit(_ text: String?, context: Context, loader: ModelLoader) throws -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "M/d/yyyy"
        guard let date = formatter.date(from: text) else {
            throw loader.limitError(context, "the date limit \"\(text)\" is neither seconds nor a M/d/yyyy date")
        }
        return date
    }

    private func limitError(_ context: Context, _ problem: String) -> NSError {
        error(entity: context.entity, property: context.property, line: context.line, problem)
    }
}
