import Foundation

/// Builds an ``NSManagedObjectModel`` from Apple's compiled form of it: the keyed archive
/// that Xcode's model compiler writes as a `.mom` file and that Core Data keeps, deflated,
/// in a SQLite store's `Z_MODELCACHE`.
///
/// The archive's classes and keys:
/// - `NSManagedObjectModel`: `NSEntities` (entity name → entity; an `NSDictionary` or the
///   `NSKnownKeysDictionary1` stores write), `NSVersionIdentifiers` (a set of strings),
///   `NSConfigurations` (name → entities), `NSFetchRequestTemplates` (name → request).
/// - `NSEntityDescription`: `NSEntityName`, `NSClassNameForEntity`, `NSIsAbstract`,
///   `NSSuperentity`, `NSSubentities`, `NSProperties` (name → property),
///   `NSRenamingIdentifier`, `NSVersionHashModifier`, `NSUserInfo`, `NSUniqueTuples`
///   (arrays of property names), `NSCompoundIndexes`, `NSFetchIndexDescriptions`.
/// - Every property: `NSPropertyName`, `NSIsOptional`, `NSIsTransient`, `NSIsIndexed`,
///   `NSRenamingIdentifier`, `NSVersionHashModifier`, `NSUserInfo`,
///   `NSValidationPredicates` + `NSValidationWarnings`.
/// - `NSAttributeDescription` (and `NSDerivedAttributeDescription`): `NSAttributeType`,
///   `NSAttributeValueClassName`, `NSDefaultValue`, `NSValueTransformerName`, `NSFlagsKey`
///   (4: allows external binary storage, 16: preserves its value in history on deletion),
///   `NSDerivationExpression`.
/// - `NSRelationshipDescription`: `NSDestinationEntity` / `_NSDestinationEntityName`,
///   `NSInverseRelationship` / `_NSInverseRelationshipName`, `NSMinCount`, `NSMaxCount`,
///   `NSDeleteRule` (0 no action, 1 nullify, 2 cascade, 3 deny), `NSIsOrdered`.
/// - `NSFetchedPropertyDescription`: `NSFetchRequest`.
///
/// Validation rules come back as Apple's compiler writes them, as predicates on `SELF`
/// or `length` (`SELF >= 3`, `length <= 10`, `SELF MATCHES "…"`); those simple shapes are
/// turned back into the attribute's minimum, maximum and pattern, which is what the XML
/// loader reads from a model source, so a compiled model validates as its source does.
///
/// - Note: Apple parity: default values of an app's own classes (a transformable default
///   archived as a custom class) cannot be rebuilt without that class and are left nil.
struct CompiledModelReader {
    let archive: ArchiveGraph
    /// What the errors name: the `.mom` file or the store.
    let source: URL

    private var entities: [Int: NSEntityDescription] = [:]
    private var properties: [Int: NSPropertyDescription] = [:]

    init(archive: ArchiveGraph, source: URL) {
        self.archive = archive
        self.source = source
    }

    /// The model archived in `data`.
    ///
    /// - Throws: `NSFileReadCorruptFileError` (259) naming `source` when `data` is not a
    ///   keyed archive of a managed object model, or when the archive is damaged.
    static func model(
        from data: Data, source: URL, into model: NSManagedObjectModel = NSManagedObjectModel()
    ) throws -> NSManagedObjectModel {
        do {
            var reader = CompiledModelReader(archive: try ArchiveGraph(data), source: source)
            return try reader.read(into: model)
        } catch let problem as PropertyListFormatError {
            throw ModelLoadError.make(
                ModelLoadError.corruptFile, file: source,
                "the compiled model is damaged or not a Core Data model (\(problem.description))")
        }
    }

    mutating func read(into model: NSManagedObjectModel) throws -> NSManagedObjectModel {
        let root = try archive.root()
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw PropertyListFormatError("the archive holds an \(root.className), not an NSManagedObjectModel")
        }
        var entityList: [NSEntityDescription] = []
        for (_, value) in try root.entries("NSEntities") {
            guard case .uid(let index) = value else { continue }
            entityList.append(try entity(at: index))
        }
        entityList.sort { ($0.name ?? "") < ($1.name ?? "") }
        try checkEntities(entityList)
        // Parents first: a sub-entity leaves out what its parent already declares.
        func depth(_ entity: NSEntityDescription) -> Int {
            var count = 0
            var current = entity.superentity
            while let parent = current, count < 1000 { count += 1; current = parent.superentity }
            return count
        }
        for entity in entityList.sorted(by: { depth($0) < depth($1) }) {
            try fillProperties(of: entity)
        }
        try wireRelationships()
        model.entities = entityList

        for (key, value) in try root.entries("NSConfigurations") {
            guard let name = try archive.string(key) else { continue }
            var members: [NSEntityDescription] = []
            if case .uid(let index) = value, let collection = try archive.object(at: index) {
                let items = collection.fields["NS.objects"] != nil && collection.fields["NS.keys"] == nil
                    ? try collection.members() : try collection.entries().map(\.value)
                for item in items {
                    guard case .uid(let entityIndex) = item, let entity = entities[entityIndex] else { continue }
                    members.append(entity)
                }
            }
            model.setEntities(members.sorted { ($0.name ?? "") < ($1.name ?? "") }, forConfigurationName: name)
        }
        for (key, value) in try root.entries("NSFetchRequestTemplates") {
            guard let name = try archive.string(key), case .uid(let index) = value,
                  let object = try archive.object(at: index) else { continue }
            let (request, predicateText) = try fetchRequest(object)
            if let predicateText { model.fetchRequestTemplatePredicateStrings[name] = predicateText }
            model.setFetchRequestTemplate(request, forName: name)
        }
        let identifiers = try root.members("NSVersionIdentifiers").compactMap { try archive.plainValue($0) as? AnyHashable }
        model.versionIdentifiers = Set(identifiers)
        return model
    }

    // MARK: - Entities

    /// A damaged or hand-made archive must not reach the model as an inheritance cycle or
    /// two entities of one name, which the model's own code would trap on.
    private func checkEntities(_ list: [NSEntityDescription]) throws {
        var names = Set<String>()
        for entity in list {
            guard let name = entity.name, !name.isEmpty else {
                throw PropertyListFormatError("an archived entity has no name")
            }
            guard names.insert(name).inserted else {
                throw PropertyListFormatError("two archived entities are named \(name)")
            }
            var seen = Set<ObjectIdentifier>([ObjectIdentifier(entity)])
            var current = entity.superentity
            while let parent = current {
                guard seen.insert(ObjectIdentifier(parent)).inserted else {
                    throw PropertyListFormatError("the archived entity \(name) inherits from itself")
                }
                current = parent.superentity
            }
        }
    }

    private mutating func entity(at index: Int) throws -> NSEntityDescription {
        if let known = entities[index] { return known }
        guard let object = try archive.object(at: index), object.isKind(of: "NSEntityDescription") else {
            throw PropertyListFormatError("archived object \(index) should be an entity")
        }
        let entity = NSEntityDescription()
        entities[index] = entity
        entity.name = try object.string("NSEntityName")
        if let className = try object.string("NSClassNameForEntity"), !className.isEmpty {
            entity.managedObjectClassName = className
        }
        entity.isAbstract = try object.bool("NSIsAbstract")
        entity.renamingIdentifier = try object.string("NSRenamingIdentifier")
        entity.versionHashModifier = try object.string("NSVersionHashModifier")
        entity.userInfo = try userInfo(object)
        if let parent = object.fields["NSSuperentity"], case .uid(let parentIndex) = parent, parentIndex > 0 {
            let superentity = try self.entity(at: parentIndex)
            if !superentity.subentities.contains(where: { $0 === entity }) {
                superentity.subentities = superentity.subentities + [entity]
            }
        }
        entity.uniquenessConstraints = try object.members("NSUniqueTuples").map { try names($0) as [Any] }
        entity.compoundIndexes = try object.members("NSCompoundIndexes").map { try names($0) as [Any] }
        return entity
    }

    /// An archived array of property names (or of properties).
    private func names(_ value: PropertyListValue) throws -> [String] {
        guard case .uid(let index) = value, let collection = try archive.object(at: index) else { return [] }
        return try collection.members().compactMap { member in
            if let name = try archive.string(member) { return name }
            guard case .uid(let propertyIndex) = member, let property = try archive.object(at: propertyIndex) else { return nil }
            return try property.string("NSPropertyName")
        }
    }

    private mutating func fillProperties(of entity: NSEntityDescription) throws {
        guard let index = entities.first(where: { $0.value === entity })?.key,
              let object = try archive.object(at: index) else { return }
        var own: [NSPropertyDescription] = []
        let inherited = entity.superentity?.propertiesByName ?? [:]
        for (_, value) in try object.entries("NSProperties") {
            guard case .uid(let propertyIndex) = value, let archived = try archive.object(at: propertyIndex) else { continue }
            // Some archives list a sub-entity's inherited properties too: the parent has them.
            if let name = try archived.string("NSPropertyName"), inherited[name] != nil { continue }
            let property = try property(archived, entityName: entity.name ?? "")
            guard !property.name.isEmpty, !own.contains(where: { $0.name == property.name }) else {
                throw PropertyListFormatError(
                    "the archived entity \(entity.name ?? "?") has two properties named \"\(property.name)\" (or one without a name)")
            }
            own.append(property)
        }
        own.sort { $0.name < $1.name }
        entity.properties = own
        var indexes: [NSFetchIndexDescription] = []
        for value in try object.members("NSFetchIndexDescriptions") {
            guard case .uid(let indexIndex) = value, let archived = try archive.object(at: indexIndex) else { continue }
            var elements: [NSFetchIndexElementDescription] = []
            for member in try archived.members("NSIndexElements") {
                guard case .uid(let elementIndex) = member, let element = try archive.object(at: elementIndex),
                      let name = try element.string("NSPropertyName") else { continue }
                let collation: NSFetchIndexElementType = try element.integer("NSFetchIndexElementType") == 1 ? .rTree : .binary
                guard let property = entity.propertiesByName[name] else {
                    throw PropertyListFormatError("the fetch index of \(entity.name ?? "?") names \(name), which the entity lacks")
                }
                let description = NSFetchIndexElementDescription(property: property, collationType: collation)
                description.isAscending = try element.fields["NSAscending"] == nil || element.bool("NSAscending")
                elements.append(description)
            }
            let description = NSFetchIndexDescription(name: try archived.string("NSIndexName") ?? "", elements: elements)
            if let partial = try archived.object("NSPartialIndexPredicate") {
                description.partialIndexPredicate = try parsedPredicate(partial)
            }
            description.entity = entity
            indexes.append(description)
        }
        if !indexes.isEmpty {
            entity.indexes = indexes
            // Apple's compiler also writes each fetch index as a legacy compound index;
            // the model source has only the fetch index.
            let fetchIndexKeys = Set(indexes.map { $0.elements.map { $0.propertyName ?? "" } })
            entity.compoundIndexes = entity.compoundIndexes.filter { index in
                !fetchIndexKeys.contains(index.map { "\($0)" })
            }
        }
    }

    // MARK: - Properties

    private mutating func property(_ object: ArchivedObject, entityName: String) throws -> NSPropertyDescription {
        let property: NSPropertyDescription
        if object.isKind(of: "NSRelationshipDescription") {
            property = try relationship(object)
        } else if object.isKind(of: "NSFetchedPropertyDescription") {
            let fetched = NSFetchedPropertyDescription()
            if let archived = try object.object("NSFetchRequest") {
                let (request, text) = try fetchRequest(archived)
                fetched.fetchRequest = request
                fetched.predicateString = text
            }
            property = fetched
        } else if object.isKind(of: "NSAttributeDescription") {
            property = try attribute(object)
        } else {
            throw PropertyListFormatError("property \(object.index) of \(entityName) is an \(object.className)")
        }
        property.name = try object.string("NSPropertyName") ?? ""
        property.isOptional = try object.bool("NSIsOptional")
        property.isTransient = try object.bool("NSIsTransient")
        property.isIndexed = try object.bool("NSIsIndexed")
        property.renamingIdentifier = try object.string("NSRenamingIdentifier")
        property.versionHashModifier = try object.string("NSVersionHashModifier")
        property.userInfo = try userInfo(object)
        if let attribute = property as? NSAttributeDescription {
            try readValidation(object, into: attribute)
        }
        properties[object.index] = property
        return property
    }

    private func attribute(_ object: ArchivedObject) throws -> NSAttributeDescription {
        let attribute: NSAttributeDescription
        if object.isKind(of: "NSDerivedAttributeDescription") {
            let derived = NSDerivedAttributeDescription()
            if let expression = try object.object("NSDerivationExpression") {
                derived.setDerivation(text: try ArchivedPredicateReader(archive: archive).expression(expression))
            }
            attribute = derived
        } else if object.isKind(of: "NSCompositeAttributeDescription") {
            let composite = NSCompositeAttributeDescription()
            composite.elements = try object.members("NSElements").compactMap { member in
                guard case .uid(let index) = member, let element = try archive.object(at: index) else { return nil }
                let attribute = try self.attribute(element)
                attribute.name = try element.string("NSPropertyName") ?? ""
                attribute.isOptional = try element.bool("NSIsOptional")
                return attribute
            }
            attribute = composite
        } else {
            attribute = NSAttributeDescription()
        }
        let rawType = UInt(clamping: try object.integer("NSAttributeType") ?? 0)
        attribute.attributeType = NSAttributeType(rawValue: rawType) ?? .undefinedAttributeType
        if let className = try object.string("NSAttributeValueClassName"), !className.isEmpty,
           Self.defaultClassNames[attribute.attributeType] != className {
            attribute.attributeValueClassName = className
        }
        attribute.valueTransformerName = try object.string("NSValueTransformerName")
        let flags = try object.integer("NSFlagsKey") ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & 4 != 0
        attribute.preservesValueInHistoryOnDeletion = flags & 16 != 0
        if let value = object.fields["NSDefaultValue"] {
            attribute.defaultValue = Self.typed(try archive.plainValue(value), as: attribute.attributeType)
        }
        return attribute
    }

    /// The class name Apple's compiler writes for each type, which is what an attribute
    /// without `customClassName` reports.
    static let defaultClassNames: [NSAttributeType: String] = [
        .integer16AttributeType: "NSNumber", .integer32AttributeType: "NSNumber",
        .integer64AttributeType: "NSNumber", .doubleAttributeType: "NSNumber",
        .floatAttributeType: "NSNumber", .booleanAttributeType: "NSNumber",
        .decimalAttributeType: "NSDecimalNumber", .stringAttributeType: "NSString",
        .dateAttributeType: "NSDate", .binaryDataAttributeType: "NSData",
        .UUIDAttributeType: "NSUUID", .URIAttributeType: "NSURL",
    ]

    /// An archived default value as the Swift type the XML loader gives that attribute type.
    static func typed(_ value: Any?, as type: NSAttributeType) -> Any? {
        guard let value else { return nil }
        let number = value as? NSNumber
        switch type {
        case .integer16AttributeType: return number.map { Int16(truncatingIfNeeded: $0.int64Value) }
        case .integer32AttributeType: return number.map { Int32(truncatingIfNeeded: $0.int64Value) }
        case .integer64AttributeType: return number.map { $0.int64Value }
        case .doubleAttributeType: return number.map { $0.doubleValue }
        case .floatAttributeType: return number.map { $0.floatValue }
        case .booleanAttributeType: return number.map { $0.boolValue }
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return decimal }
            return number.map { Decimal(string: $0.stringValue) ?? Decimal($0.doubleValue) }
        default: return value
        }
    }

    private func relationship(_ object: ArchivedObject) throws -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.destinationEntityName = try object.string("_NSDestinationEntityName")
            ?? object.object("NSDestinationEntity")?.string("NSEntityName")
        relationship.inverseRelationshipName = try object.string("_NSInverseRelationshipName")
            ?? object.object("NSInverseRelationship")?.string("NSPropertyName")
        relationship.minCount = Int(try object.integer("NSMinCount") ?? 0)
        relationship.maxCount = Int(try object.integer("NSMaxCount") ?? 1)
        relationship.isOrdered = try object.bool("NSIsOrdered")
        switch try object.integer("NSDeleteRule") ?? 1 {
        case 0: relationship.deleteRule = .noActionDeleteRule
        case 2: relationship.deleteRule = .cascadeDeleteRule
        case 3: relationship.deleteRule = .denyDeleteRule
        default: relationship.deleteRule = .nullifyDeleteRule
        }
        return relationship
    }

    /// Destinations and inverses, once every entity and property exists.
    private func wireRelationships() throws {
        let byName = Dictionary(entities.values.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        for case let relationship as NSRelationshipDescription in properties.values {
            let owner = relationship.entity?.name ?? "?"
            guard let name = relationship.destinationEntityName, let destination = byName[name] else {
                throw PropertyListFormatError(
                    "the relationship \(owner).\(relationship.name) has no destination entity in the model")
            }
            relationship.destinationEntity = destination
            if let inverseName = relationship.inverseRelationshipName {
                guard let inverse = destination.relationshipsByName[inverseName] else {
                    throw PropertyListFormatError(
                        "the inverse \(name).\(inverseName) of \(owner).\(relationship.name) is not in the model")
                }
                relationship.inverseRelationship = inverse
            }
        }
    }

    // MARK: - Validation

    /// Apple's compiler writes an attribute's limits as validation predicates; the simple
    /// shapes become the minimum, maximum and pattern again, anything else stays a predicate.
    private func readValidation(_ object: ArchivedObject, into attribute: NSAttributeDescription) throws {
        let predicates = try object.members("NSValidationPredicates")
        guard !predicates.isEmpty else { return }
        let warnings = try object.members("NSValidationWarnings").map { try archive.plainValue($0) }
        var kept: [NSPredicate] = []
        var keptWarnings: [String] = []
        for (offset, value) in predicates.enumerated() {
            guard case .uid(let index) = value, let archived = try archive.object(at: index) else { continue }
            let text = try ArchivedPredicateReader(archive: archive).predicate(archived)
            if applyLimit(text, to: attribute) { continue }
            kept.append(try parsedPredicate(archived))
            let warning = offset < warnings.count ? warnings[offset] : nil
            keptWarnings.append((warning as? String) ?? (warning.map { "\($0)" } ?? ""))
        }
        if !kept.isEmpty { attribute.setValidationPredicates(kept, withValidationWarnings: keptWarnings) }
    }

    /// `SELF >= n`, `length <= n`, `SELF MATCHES "…"` (alone or joined by AND) as limits.
    private func applyLimit(_ text: String, to attribute: NSAttributeDescription) -> Bool {
        let parts = text.components(separatedBy: " AND ").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "() "))
        }
        var minimum: Any?, maximum: Any?, pattern: String?
        for part in parts {
            let words = part.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count == 3, words[0] == "SELF" || words[0] == "length" else { return false }
            if words[1] == "MATCHES" {
                guard words[2].hasPrefix("\""), words[2].hasSuffix("\""), words[2].count >= 2 else { return false }
                pattern = String(words[2].dropFirst().dropLast())
                    .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
                continue
            }
            guard let value = limitValue(words[2], for: attribute) else { return false }
            switch words[1] {
            case ">=": minimum = value
            case "<=": maximum = value
            default: return false
            }
        }
        if let minimum { attribute.minimumValue = minimum }
        if let maximum { attribute.maximumValue = maximum }
        if let pattern { attribute.regularExpression = pattern }
        return true
    }

    private func limitValue(_ text: String, for attribute: NSAttributeDescription) -> Any? {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return Int64(text) ?? Double(text).flatMap { Int64(exactly: $0) }
        case .doubleAttributeType, .floatAttributeType: return Double(text)
        case .decimalAttributeType: return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .stringAttributeType, .binaryDataAttributeType, .URIAttributeType: return Int(text)
        case .dateAttributeType:
            guard text.hasPrefix("CAST("), let seconds = Double(text.dropFirst(5).prefix { $0 != "," }) else { return nil }
            return Date(timeIntervalSinceReferenceDate: seconds)
        default: return nil
        }
    }

    // MARK: - Fetch requests and predicates

    private func fetchRequest(_ object: ArchivedObject) throws -> (NSFetchRequest<NSFetchRequestResult>, String?) {
        let entityName = try object.string("_NSFetchRequestEntityName")
            ?? object.object("NSEntity")?.string("NSEntityName") ?? ""
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
        if case .uid(let index)? = object.fields["NSEntity"], let entity = entities[index] { request.entity = entity }
        request.fetchLimit = Int(try object.integer("NSFetchLimit") ?? 0)
        request.fetchOffset = Int(try object.integer("NSFetchOffset") ?? 0)
        request.fetchBatchSize = Int(try object.integer("NSBatchSize") ?? 0)
        request.resultType = NSFetchRequestResultType(rawValue: UInt(clamping: try object.integer("NSResultType") ?? 0))
        var text: String?
        if let predicate = try object.object("NSPredicate") {
            text = try ArchivedPredicateReader(archive: archive).predicate(predicate)
            request.predicate = try parsedPredicate(predicate)
        }
        return (request, text)
    }

    private func parsedPredicate(_ object: ArchivedObject) throws -> NSPredicate {
        let text = try ArchivedPredicateReader(archive: archive).predicate(object)
        do {
            return try NSPredicate.parse(format: text, arguments: [])
        } catch {
            throw PropertyListFormatError("an archived predicate reads as \"\(text)\", which does not parse")
        }
    }

    // MARK: - Helpers

    /// The user info, nil when empty (as the XML loader leaves an absent `<userInfo>`).
    private func userInfo(_ object: ArchivedObject) throws -> [AnyHashable: Any]? {
        guard let value = object.fields["NSUserInfo"] else { return nil }
        guard let info = try archive.plainValue(value) as? [AnyHashable: Any], !info.isEmpty else { return nil }
        return info
    }
}
