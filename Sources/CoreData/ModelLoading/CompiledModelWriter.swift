import Foundation

/// Writes a model as Apple's compiled form: the keyed archive of `NSManagedObjectModel`
/// that a `.mom` holds and that Core Data keeps, deflated, in a store's `Z_MODELCACHE`.
///
/// Classes and keys are those ``CompiledModelReader`` reads (and Apple's compiler writes),
/// including the bookkeeping Apple's decoder expects on every property: `_P` (packed
/// flags: bit 1 optional, 2 read-only, 3 transient; bits 4–5 set when there are no
/// validation rules, bit 6 when there is no user info) and `NSFlagsKey` on attributes.
/// Limits read from a model source (minimum, maximum, pattern) are written back as the
/// validation predicates Apple's compiler makes of them.
///
/// - Note: Apple parity: predicates are archived for comparisons, compounds, key paths,
///   constants, variables, `SELF`, built-in functions and aggregates; a predicate using
///   anything else (`SUBQUERY`, `FUNCTION` on an object, `TERNARY`…) is left out of the
///   archive, and a default value of an app's own class is archived as nil.
struct CompiledModelWriter {
    private var builder = KeyedArchiveBuilder()
    /// The model being archived: every entity points back at it.
    private var modelReference = KeyedArchiveBuilder.null

    /// `model` as a keyed archive.
    static func archive(_ model: NSManagedObjectModel) -> Data {
        var writer = CompiledModelWriter()
        let root = writer.model(model)
        return writer.builder.archive(root: root)
    }

    private mutating func model(_ model: NSManagedObjectModel) -> PropertyListValue {
        let (reference, _) = builder.reserve(model)
        modelReference = reference
        let entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        let entries = entities.map { (key: builder.string($0.name), value: entity($0, model: reference)) }
        var fields: [String: PropertyListValue] = [
            "NSEntities": builder.dictionary(entries, mutable: true),
            "NSVersionIdentifiers": builder.set(model.versionIdentifiers.map { builder.value($0.base) }),
            "NSFetchRequestTemplates": KeyedArchiveBuilder.null,
        ]
        let templates = model.fetchRequestTemplatesByName.sorted { $0.key < $1.key }
        if !templates.isEmpty {
            let items = templates.map { (key: builder.string($0.key), value: fetchRequest($0.value)) }
            fields["NSFetchRequestTemplates"] = builder.dictionary(items, mutable: true)
        }
        let configurations = model.configurations
        if !configurations.isEmpty {
            let items = configurations.map { name in
                (key: builder.string(name),
                 value: builder.array((model.entities(forConfigurationName: name) ?? []).map { entity($0, model: reference) }))
            }
            fields["NSConfigurations"] = builder.dictionary(items, mutable: true)
        }
        builder.set(reference, className: "NSManagedObjectModel", classes: ["NSManagedObjectModel", "NSObject"], fields: fields)
        return reference
    }

    // MARK: - Entities

    private mutating func entity(_ entity: NSEntityDescription, model: PropertyListValue) -> PropertyListValue {
        let (reference, isNew) = builder.reserve(entity)
        guard isNew else { return reference }
        let name = builder.string(entity.name)
        var fields: [String: PropertyListValue] = [
            "NSEntityName": name,
            "NSClassNameForEntity": builder.string(entity.managedObjectClassName ?? "NSManagedObject"),
            "NSRenamingIdentifier": builder.string(entity.renamingIdentifier ?? entity.name),
            "NSVersionHashModifier": builder.string(entity.versionHashModifier),
            "NSManagedObjectModel": modelReference,
            "NSSuperentity": entity.superentity.map { self.entity($0, model: model) } ?? KeyedArchiveBuilder.null,
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        fields["NSUserInfo"] = userInfo(entity.userInfo, mutable: false)
        let subentities = entity.subentities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        fields["NSSubentities"] = builder.dictionary(
            subentities.map { (key: builder.string($0.name), value: self.entity($0, model: model)) }, mutable: true)
        let own = entity.properties.filter { $0.entity === entity }.sorted { $0.name < $1.name }
        fields["NSProperties"] = builder.dictionary(
            own.compactMap { property in
                self.property(property, entity: reference).map { (key: builder.string(property.name), value: $0) }
            }, mutable: true)
        if !entity.uniquenessConstraints.isEmpty {
            fields["NSUniqueTuples"] = builder.array(entity.uniquenessConstraints.map { tuple in
                builder.array(tuple.map { builder.string(Self.elementName($0)) }, mutable: true)
            }, mutable: true)
        }
        let indexes = entity.indexes.filter { $0.entity === entity || $0.entity == nil }
        // Apple's compiler writes each fetch index again as a legacy compound index.
        let compound = entity.compoundIndexes.map { $0.map(Self.elementName) }
            + indexes.map { $0.elements.map { $0.property?.name ?? $0.propertyName ?? "" } }
        if !compound.isEmpty {
            fields["NSCompoundIndexes"] = builder.array(compound.map { index in
                builder.array(index.map { builder.string($0) }, mutable: true)
            }, mutable: true)
        }
        if !indexes.isEmpty {
            fields["NSFetchIndexDescriptions"] = builder.array(indexes.map { fetchIndex($0, entity: reference) }, mutable: true)
        }
        builder.set(reference, className: "NSEntityDescription", classes: ["NSEntityDescription", "NSObject"], fields: fields)
        return reference
    }

    private static func elementName(_ element: Any) -> String {
        (element as? NSPropertyDescription)?.name ?? (element as? String) ?? "\(element)"
    }

    private mutating func fetchIndex(_ index: NSFetchIndexDescription, entity: PropertyListValue) -> PropertyListValue {
        let (reference, _) = builder.reserve(index)
        let elements = index.elements.map { element -> PropertyListValue in
            builder.add(className: "NSFetchIndexElementDescription",
                        classes: ["NSFetchIndexElementDescription", "NSObject"], fields: [
                "NSPropertyName": builder.string(element.property?.name ?? element.propertyName),
                "NSFetchIndexElementType": .integer(element.collationType == .rTree ? 1 : 0),
                "NSFetchIndexDescription": reference,
                "NSAscending": .bool(element.isAscending),
            ])
        }
        builder.set(reference, className: "NSFetchIndexDescription", classes: ["NSFetchIndexDescription", "NSObject"], fields: [
            "NSIndexName": builder.string(index.name),
            "NSIndexElements": builder.array(elements),
            "NSEntity": entity,
            "NSPartialIndexPredicate": index.partialIndexPredicate.flatMap { predicate($0) } ?? KeyedArchiveBuilder.null,
        ])
        return reference
    }

    // MARK: - Properties

    private mutating func property(_ property: NSPropertyDescription, entity: PropertyListValue) -> PropertyListValue? {
        let (reference, isNew) = builder.reserve(property)
        guard isNew else { return reference }
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": builder.string(property.name),
            "NSEntity": entity,
            "NSRenamingIdentifier": builder.string(property.renamingIdentifier ?? property.name),
        ]
        if property.isOptional { fields["NSIsOptional"] = .bool(true) }
        if property.isTransient { fields["NSIsTransient"] = .bool(true) }
        if let modifier = property.versionHashModifier { fields["NSVersionHashModifier"] = builder.string(modifier) }
        let hasUserInfo = !(property.userInfo?.isEmpty ?? true)
        if hasUserInfo { fields["NSUserInfo"] = userInfo(property.userInfo, mutable: false) }
        var readOnly = false
        var validation: [(NSPredicate, String)] = []
        let className: String
        let classes: [String]
        switch property {
        case let relationship as NSRelationshipDescription:
            className = "NSRelationshipDescription"
            classes = [className, "NSPropertyDescription", "NSObject"]
            let destination = relationship.destinationEntity
            fields["NSDestinationEntity"] = destination.map { self.entity($0, model: KeyedArchiveBuilder.null) }
                ?? KeyedArchiveBuilder.null
            fields["_NSDestinationEntityName"] = builder.string(destination?.name ?? relationship.destinationEntityName)
            let inverse = relationship.inverseRelationship
            fields["_NSInverseRelationshipName"] = builder.string(inverse?.name ?? relationship.inverseRelationshipName)
            fields["NSInverseRelationship"] = inverse.flatMap { inverse in
                inverse.entity.map { owner in self.property(inverse, entity: self.entity(owner, model: KeyedArchiveBuilder.null)) }
            } ?? KeyedArchiveBuilder.null
            fields["NSMinCount"] = .integer(Int64(relationship.minCount))
            fields["NSMaxCount"] = .integer(Int64(relationship.maxCount))
            fields["NSDeleteRule"] = .integer(Int64(relationship.deleteRule.rawValue))
            if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        case let fetched as NSFetchedPropertyDescription:
            className = "NSFetchedPropertyDescription"
            classes = [className, "NSPropertyDescription", "NSObject"]
            readOnly = true
            fields["NSIsReadOnly"] = .bool(true)
            fields["NSIsTransient"] = .bool(true)
            if let request = fetched.fetchRequest {
                fields["NSFetchRequest"] = fetchRequest(request)
                fields["_NSFetchRequestEntityName"] = builder.string(request.entityName ?? request.entity?.name)
            }
        case let attribute as NSAttributeDescription:
            let derived = attribute as? NSDerivedAttributeDescription
            className = derived != nil ? "NSDerivedAttributeDescription" : "NSAttributeDescription"
            classes = derived != nil ? [className, "NSAttributeDescription", "NSPropertyDescription", "NSObject"]
                : [className, "NSPropertyDescription", "NSObject"]
            fields["NSAttributeType"] = .integer(Int64(attribute.attributeType.rawValue))
            fields["NSAttributeValueClassName"] = builder.string(
                attribute.attributeValueClassName ?? CompiledModelReader.defaultClassNames[attribute.attributeType])
            fields["NSDefaultValue"] = builder.value(attribute.defaultValue)
            fields["NSValueTransformerName"] = builder.string(attribute.valueTransformerName)
            var flags: Int64 = 0
            if attribute.allowsExternalBinaryDataStorage { flags |= 4 }
            if attribute.preservesValueInHistoryOnDeletion { flags |= 16 }
            fields["NSFlagsKey"] = .integer(flags)
            if attribute.isIndexed { fields["NSIsIndexed"] = .bool(true) }
            if let derived {
                readOnly = true
                fields["NSIsReadOnly"] = .bool(true)
                fields["NSFilteringPredicate"] = KeyedArchiveBuilder.null
                fields["NSDerivationExpression"] = derived.derivationExpression.flatMap { expression($0) }
                    ?? KeyedArchiveBuilder.null
            }
            validation = Self.limitPredicates(attribute)
        default:
            return nil
        }
        validation += zip(property.validationPredicates, property.validationWarnings).map { ($0, "\($1)") }
        let archived = validation.compactMap { item in predicate(item.0).map { ($0, builder.string(item.1)) } }
        if !archived.isEmpty {
            fields["NSValidationPredicates"] = builder.array(archived.map(\.0))
            fields["NSValidationWarnings"] = builder.array(archived.map(\.1))
        }
        var packed: Int64 = 0x81
        if property.isOptional { packed |= 0x02 }
        if readOnly { packed |= 0x04 }
        if property.isTransient || property is NSFetchedPropertyDescription { packed |= 0x08 }
        if archived.isEmpty { packed |= 0x30 }
        if !hasUserInfo { packed |= 0x40 }
        fields["_P"] = .integer(packed)
        builder.set(reference, className: className, classes: classes, fields: fields)
        return reference
    }

    /// An attribute's limits as the validation predicates Apple's compiler writes.
    private static func limitPredicates(_ attribute: NSAttributeDescription) -> [(NSPredicate, String)] {
        let subject: String
        switch attribute.attributeType {
        case .stringAttributeType, .binaryDataAttributeType, .URIAttributeType: subject = "length"
        default: subject = "SELF"
        }
        func literal(_ value: Any) -> String {
            if let date = value as? Date { return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")" }
            return "\(value)"
        }
        var result: [(NSPredicate, String)] = []
        if let minimum = attribute.minimumValue,
           let predicate = try? NSPredicate.parse(format: "\(subject) >= \(literal(minimum))", arguments: []) {
            result.append((predicate, subject == "length" ? "1660" : "1620"))
        }
        if let maximum = attribute.maximumValue,
           let predicate = try? NSPredicate.parse(format: "\(subject) <= \(literal(maximum))", arguments: []) {
            result.append((predicate, subject == "length" ? "1650" : "1610"))
        }
        if let pattern = attribute.regularExpression,
           let predicate = try? NSPredicate.parse(format: "SELF MATCHES %@", arguments: [pattern]) {
            result.append((predicate, "1680"))
        }
        return result
    }

    // MARK: - Fetch requests

    private mutating func fetchRequest(_ request: NSFetchRequest<NSFetchRequestResult>) -> PropertyListValue {
        let (reference, isNew) = builder.reserve(request)
        guard isNew else { return reference }
        let entity = request.entity.map { self.entity($0, model: KeyedArchiveBuilder.null) } ?? KeyedArchiveBuilder.null
        builder.set(reference, className: "NSFetchRequest", classes: ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"], fields: [
            "NSEntity": entity,
            "NSPredicate": request.predicate.flatMap { predicate($0) } ?? KeyedArchiveBuilder.null,
            "NSSortDescriptors": KeyedArchiveBuilder.null,
            "NSValuesToFetch": KeyedArchiveBuilder.null,
            "NSValuesToGroupBy": KeyedArchiveBuilder.null,
            "NSHavingPredicate": KeyedArchiveBuilder.null,
            "NSRelationshipKeyPathsForPrefetching": KeyedArchiveBuilder.null,
            "NSFetchLimit": .integer(Int64(request.fetchLimit)),
            "NSFetchOffset": .integer(Int64(request.fetchOffset)),
            "NSBatchSize": .integer(Int64(request.fetchBatchSize)),
            "NSResultType": .integer(Int64(request.resultType.rawValue)),
            "NSAllocationType": .integer(0),
            "NSHasFetchRequestFlags": .bool(true),
            "NSFetchRequestFlags": .integer(30),
        ])
        return reference
    }

    // MARK: - Predicates and expressions

    private mutating func predicate(_ predicate: NSPredicate) -> PropertyListValue? {
        switch predicate {
        case let comparison as NSComparisonPredicate:
            guard let left = expression(comparison.leftExpression),
                  let right = expression(comparison.rightExpression) else { return nil }
            let type = comparison.predicateOperatorType.rawValue
            let modifier = Int64(comparison.comparisonPredicateModifier.rawValue)
            let options = Int64(comparison.options.rawValue)
            let opClass: String
            var opFields: [String: PropertyListValue] = ["NSOperatorType": .integer(Int64(type)), "NSModifier": .integer(modifier)]
            var opClasses = ["NSPredicateOperator", "NSObject"]
            switch comparison.predicateOperatorType {
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                opClass = "NSComparisonPredicateOperator"
                opFields["NSVariant"] = .integer(Int64(type))
                opFields["NSOptions"] = .integer(options)
            case .equalTo, .notEqualTo:
                opClass = "NSEqualityPredicateOperator"
                opFields["NSOperatorType"] = .integer(4)
                opFields["NSNegate"] = .bool(comparison.predicateOperatorType == .notEqualTo)
                opFields["NSOptions"] = .integer(options)
            case .matches, .like, .beginsWith, .endsWith:
                opClass = ["NSMatchingPredicateOperator", "NSLikePredicateOperator",
                           "NSBeginsWithPredicateOperator", "NSEndsWithPredicateOperator"][Int(type) - 6]
                opClasses.insert("NSStringPredicateOperator", at: 0)
                opFields["NSFlags"] = .integer(options)
            case .in, .contains:
                opClass = "NSInPredicateOperator"
                opFields["NSFlags"] = .integer(options)
            case .between:
                opClass = "NSBetweenPredicateOperator"
            case .customSelector:
                return nil
            }
            let op = builder.add(className: opClass, classes: [opClass] + opClasses, fields: opFields)
            return builder.add(className: "NSComparisonPredicate", classes: ["NSComparisonPredicate", "NSPredicate", "NSObject"], fields: [
                "NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": op,
            ])
        case let compound as NSCompoundPredicate:
            var members: [PropertyListValue] = []
            for sub in compound.subpredicates {
                guard let archived = self.predicate(sub) else { return nil }
                members.append(archived)
            }
            return builder.add(className: "NSCompoundPredicate", classes: ["NSCompoundPredicate", "NSPredicate", "NSObject"], fields: [
                "NSCompoundPredicateType": .integer(Int64(compound.compoundPredicateType.rawValue)),
                "NSSubpredicates": builder.array(members),
            ])
        default:
            switch predicate.formattedPredicate {
            case "TRUEPREDICATE": return builder.add(className: "NSTruePredicate", classes: ["NSTruePredicate", "NSPredicate", "NSObject"], fields: [:])
            case "FALSEPREDICATE": return builder.add(className: "NSFalsePredicate", classes: ["NSFalsePredicate", "NSPredicate", "NSObject"], fields: [:])
            default: return nil
            }
        }
    }

    private mutating func expression(_ expression: NSExpression) -> PropertyListValue? {
        let base = ["NSExpression", "NSObject"]
        switch expression.kind {
        case .constant(let value):
            return builder.add(className: "NSConstantValueExpression", classes: ["NSConstantValueExpression"] + base, fields: [
                "NSConstantValue": builder.value(value), "NSExpressionType": .integer(0),
            ])
        case .evaluatedObject:
            return builder.add(className: "NSSelfExpression", classes: ["NSSelfExpression"] + base, fields: ["NSExpressionType": .integer(1)])
        case .variable(let name):
            return builder.add(className: "NSVariableExpression", classes: ["NSVariableExpression"] + base, fields: [
                "NSVariable": builder.string(name), "NSExpressionType": .integer(2),
            ])
        case .keyPath(let operand, let path):
            guard let archivedOperand = self.expression(operand) else { return nil }
            let specifier = builder.add(className: "NSKeyPathSpecifierExpression", classes: ["NSKeyPathSpecifierExpression"] + base, fields: [
                "NSKeyPath": builder.string(path), "NSExpressionType": .integer(10),
            ])
            var isSelf = false
            if case .evaluatedObject = operand.kind { isSelf = true }
            return builder.add(className: "NSKeyPathExpression", classes: ["NSKeyPathExpression", "NSFunctionExpression"] + base, fields: [
                "NSOperand": archivedOperand, "NSSelectorName": builder.string("valueForKeyPath:"),
                "NSArguments": builder.array([specifier], mutable: true), "NSExpressionType": .integer(isSelf ? 3 : 4),
            ])
        case .function(let name, let operand, let arguments):
            guard operand == nil else { return nil }
            var archivedArguments: [PropertyListValue] = []
            for argument in arguments {
                guard let archived = self.expression(argument) else { return nil }
                archivedArguments.append(archived)
            }
            let utilities = builder.add(className: "NSConstantValueExpression", classes: ["NSConstantValueExpression"] + base, fields: [
                "NSConstantValueClassName": builder.string("_NSPredicateUtilities"), "NSExpressionType": .integer(0),
            ])
            return builder.add(className: "NSFunctionExpression", classes: ["NSFunctionExpression"] + base, fields: [
                "NSOperand": utilities, "NSSelectorName": builder.string(name),
                "NSArguments": builder.array(archivedArguments), "NSExpressionType": .integer(4),
            ])
        case .aggregate(let items):
            var archived: [PropertyListValue] = []
            for item in items {
                guard let value = self.expression(item) else { return nil }
                archived.append(value)
            }
            return builder.add(className: "NSAggregateExpression", classes: ["NSAggregateExpression"] + base, fields: [
                "NSCollection": builder.array(archived), "NSExpressionType": .integer(14),
            ])
        default:
            return nil
        }
    }

    // MARK: - Helpers

    private mutating func userInfo(_ info: [AnyHashable: Any]?, mutable: Bool) -> PropertyListValue {
        let entries = (info ?? [:]).sorted { "\($0.key)" < "\($1.key)" }
        return builder.dictionary(entries.map { (key: builder.value($0.key.base), value: builder.value($0.value)) }, mutable: mutable)
    }
}
