import Foundation

/// What `validatePropertyValues` must do for one slot when `validateValue(_:forKey:)` is
/// not overridden: the model's rules (`validateModelRules`) can only fail where the model
/// declares something, so properties without rules are not read at all.
enum ValidationCheck {
    /// Transient, or nothing that can fail for a value of the slot's own type.
    case skip
    /// Non-optional, no other rule: fails only when the slot is NULL.
    case mandatory
    /// A to-many without rules: nothing can fail, but the full check loads the set from
    /// the store when it is not loaded, so keep doing that then.
    case loadedToMany
    /// Box the value and run the model's rules.
    case full

    static func of(_ property: NSPropertyDescription) -> ValidationCheck {
        if property.isTransient { return .skip }
        if !property.validationPredicates.isEmpty { return .full }
        switch property {
        case let attribute as NSAttributeDescription:
            // Types whose slot values always read back as an accepted, non-nil value.
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
                 .doubleAttributeType, .floatAttributeType, .booleanAttributeType,
                 .stringAttributeType, .dateAttributeType, .binaryDataAttributeType, .UUIDAttributeType:
                break
            default:
                return .full
            }
            if attribute.minimumValue != nil || attribute.maximumValue != nil { return .full }
            if let pattern = attribute.regularExpression, !pattern.isEmpty { return .full }
            return attribute.isOptional ? .skip : .mandatory
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                guard relationship.isOptional, relationship.minCount <= 0, relationship.maxCount <= 0 else { return .full }
                return .loadedToMany
            }
            return relationship.isOptional ? .skip : .full
        default:
            return .full
        }
    }
}
