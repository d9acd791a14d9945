import Foundation

// MARK: - The model's validation rules for one value

extension NSManagedObject {
    /// Checks `value` against the rules the model gives the property `key`; throws one
    /// error or `NSValidationMultipleErrorsError`.
    func validateModelRules(_ value: Any?, forKey key: String) throws {
        guard let property = property(forKey: key) else { throw unknownKey(key) }
        var errors: [NSError] = []
        func fail(_ code: Int, _ message: String) {
            errors.append(validationError(code, key, value, message))
        }
        let value = NSAttributeDescription.unwrap(value)
        switch property {
        case let relationship as NSRelationshipDescription:
            validateRelationship(relationship, value, fail)
        case let attribute as NSAttributeDescription:
            guard let value else {
                if !attribute.isOptional { fail(NSValidationMissingMandatoryPropertyError, "\(key) is a required value.") }
                break
            }
            if !attribute.accepts(value) {
                fail(NSManagedObjectValidationError, "The value \(value) is not acceptable for the \(attribute.attributeType) attribute \(key).")
                break
            }
            validateLimits(attribute, value, fail)
        default:
            break
        }
        if let value, errors.isEmpty {
            for (index, predicate) in property.validationPredicates.enumerated()
            where !((try? predicate.evaluateOrThrow(with: value)) ?? false) {
                let warning = property.validationWarnings.indices.contains(index) ? "\(property.validationWarnings[index])" : nil
                let error = validationError(NSManagedObjectValidationError, key, value,
                                            warning ?? "The value of \(key) does not satisfy \(predicate.formattedPredicate).")
                var info = error.userInfo
                info[NSValidationPredicateErrorKey] = predicate
                errors.append(NSError(domain: error.domain, code: error.code, userInfo: info))
            }
        }
        try Self.throwCombined(errors)
    }

    private func validateRelationship(_ relationship: NSRelationshipDescription, _ value: Any?,
                                      _ fail: (Int, String) -> Void) {
        let key = relationship.name
        if relationship.isToMany {
            let count = Self.objects(in: value).filter { !$0.isDeletedFlag }.count
            if count == 0 && relationship.isOptional { return }
            if count == 0 && !relationship.isOptional && relationship.minCount <= 1 {
                fail(NSValidationRelationshipLacksMinimumCountError, "\(key) needs at least one object.")
                return
            }
            if relationship.minCount > 0 && count < relationship.minCount {
                fail(NSValidationRelationshipLacksMinimumCountError,
                     "\(key) has \(count) objects; it needs at least \(relationship.minCount).")
            }
            if relationship.maxCount > 0 && count > relationship.maxCount {
                fail(NSValidationRelationshipExceedsMaximumCountError,
                     "\(key) has \(count) objects; it takes at most \(relationship.maxCount).")
            }
        } else if !relationship.isOptional {
            let missing = (value as? NSManagedObject).map(\.isDeletedFlag) ?? true
            if missing { fail(NSValidationMissingMandatoryPropertyError, "\(key) is a required value.") }
        }
    }

    /// Minimum and maximum (value for numbers and dates, length for strings and data),
    /// and the regular expression of strings.
    private func validateLimits(_ attribute: NSAttributeDescription, _ value: Any,
                                _ fail: (Int, String) -> Void) {
        if attribute.minimumValue == nil && attribute.maximumValue == nil
            && (attribute.regularExpression ?? "").isEmpty { return }
        let key = attribute.name
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            guard let number = NSAttributeDescription.double(value) ?? (value as? Decimal).map({ NSDecimalNumber(decimal: $0).doubleValue }) else { return }
            if let minimum = attribute.minimumValue.flatMap(Self.limit), number < minimum {
                fail(NSValidationNumberTooSmallError, "\(key) is \(value); the minimum is \(attribute.minimumValue!).")
            }
            if let maximum = attribute.maximumValue.flatMap(Self.limit), number > maximum {
                fail(NSValidationNumberTooLargeError, "\(key) is \(value); the maximum is \(attribute.maximumValue!).")
            }
        case .dateAttributeType:
            guard let date = value as? Date else { return }
            if let minimum = attribute.minimumValue as? Date, date < minimum {
                fail(NSValidationDateTooSoonError, "\(key) is \(date); it cannot be before \(minimum).")
            }
            if let maximum = attribute.maximumValue as? Date, date > maximum {
                fail(NSValidationDateTooLateError, "\(key) is \(date); it cannot be after \(maximum).")
            }
        case .stringAttributeType:
            guard let string = value as? String else { return }
            let length = string.utf16.count
            if let minimum = attribute.minimumValue.flatMap(Self.limit), Double(length) < minimum {
                fail(NSValidationStringTooShortError, "\(key) has \(length) characters; it needs at least \(Int(minimum)).")
            }
            if let maximum = attribute.maximumValue.flatMap(Self.limit), Double(length) > maximum {
                fail(NSValidationStringTooLongError, "\(key) has \(length) characters; it takes at most \(Int(maximum)).")
            }
            if let pattern = attribute.regularExpression, !pattern.isEmpty, !Self.matches(string, pattern) {
                fail(NSValidationStringPatternMatchingError, "\(key) (\"\(string)\") does not match the pattern \(pattern).")
            }
        case .binaryDataAttributeType:
            guard let data = value as? Data else { return }
            if let minimum = attribute.minimumValue.flatMap(Self.limit), Double(data.count) < minimum {
                fail(NSValidationStringTooShortError, "\(key) has \(data.count) bytes; it needs at least \(Int(minimum)).")
            }
            if let maximum = attribute.maximumValue.flatMap(Self.limit), Double(data.count) > maximum {
                fail(NSValidationStringTooLongError, "\(key) has \(data.count) bytes; it takes at most \(Int(maximum)).")
            }
        default:
            break
        }
    }

    static func limit(_ value: Any) -> Double? {
        if let decimal = value as? Decimal { return NSDecimalNumber(decimal: decimal).doubleValue }
        return NSAttributeDescription.double(value)
    }

    /// Whether the whole string matches the pattern (ICU syntax, as Apple's
    /// `MATCHES`); an invalid pattern matches nothing.
    static func matches(_ string: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return false }
        let range = NSRange(string.startIndex..., in: string)
        return expression.firstMatch(in: string, options: [], range: range) != nil
    }
}

// MARK: - Validation limits for models built in code

extension NSAttributeDescription {
    /// Sets the minimum and maximum the save validates: values for numbers and dates,
    /// lengths for strings and binary data (nil: no limit).
    ///
    /// - Note: Apple parity: Apple sets these with validation predicates
    ///   (`length >= 2`, `SELF <= 10`); the model file's `minValueString`/`maxValueString`
    ///   and date intervals are read into the same limits.
    public func setValidationLimits(minimum: Any?, maximum: Any?) {
        assertEditable()
        minimumValue = minimum
        maximumValue = maximum
    }

    /// The regular expression (ICU syntax) a string must match as a whole.
    public var validationRegularExpression: String? {
        get { regularExpression }
        set { assertEditable(); regularExpression = newValue }
    }
}
