import Foundation
internal import CCoreDataRuntime

// MARK: - Validation performed on save

extension NSManagedObject {
    /// Runs ``validateValue(_:forKey:)`` on every persistent property, collecting every
    /// failure (one error, or `NSValidationMultipleErrorsError`).
    func validatePropertyValues() throws {
        var errors: [NSError] = []
        for property in entity.runtime.slotProperties where !property.isTransient {
            var value = primitiveValue(atSlot: property.slot, property: property)
            do {
                try validateValue(&value, forKey: property.name)
            } catch let error as NSError {
                errors += Self.flatten(error)
            }
        }
        try Self.throwCombined(errors)
    }

    /// The errors inside a multiple-errors error, or the error itself.
    static func flatten(_ error: NSError) -> [NSError] {
        if error.code == NSValidationMultipleErrorsError,
           let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
            return details
        }
        return [error]
    }

    /// A Deny rule forbids deleting an object that still has related objects.
    func validateDeleteRules() throws {
        var errors: [NSError] = []
        for case let relationship as NSRelationshipDescription in entity.runtime.slotProperties
        where relationship.deleteRule == .denyDeleteRule {
            let related = relationship.isToMany
                ? toManyMembers(slot: relationship.slot, relationship: relationship).filter { !$0.isDeletedFlag }
                : toOneValue(slot: relationship.slot).map { $0.isDeletedFlag ? [] : [$0] } ?? []
            if !related.isEmpty {
                errors.append(validationError(NSValidationRelationshipDeniedDeleteError, relationship.name, related,
                    "The object cannot be deleted while its relationship \(relationship.name) has objects (Deny rule)."))
            }
        }
        try Self.throwCombined(errors)
    }

    func validationError(_ code: Int, _ key: String, _ value: Any?, _ message: String) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return CoreDataError.make(code, "\(entity.name ?? "?"): \(message)", userInfo: info)
    }

    /// A validation error in `NSCocoaErrorDomain` carrying this object, the key and the
    /// value (`NSValidationObjectErrorKey`, `NSValidationKeyErrorKey`,
    /// `NSValidationValueErrorKey`), for custom validation in subclasses.
    public func validationError(code: Int, key: String, value: Any?, message: String) -> NSError {
        validationError(code, key, value, message)
    }

    /// One error as itself; several as `NSValidationMultipleErrorsError`.
    static func throwCombined(_ errors: [NSError]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 {
            throw CoreDataError.make(NSValidationMultipleErrorsError,
                "Multiple validation errors occurred: " + errors.map(\.localizedDescription).joined(separator: "; "),
                userInfo: [NSDetailedErrorsKey: errors])
        }
    }
}

extension NSManagedObjectContext {
    /// Validates every inserted, updated and deleted object, collecting all failures.
    func validateForSave() throws {
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError {
                if error.code == NSValidationMultipleErrorsError,
                   let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
                    errors += details
                } else {
                    errors.append(error)
                }
            }
        }
        for object in inserted.values where !object.isDeletedFlag { collect(object.validateForInsert) }
        for object in touched.values where object.isUpdated { collect(object.validateForUpdate) }
        for object in deleted.values { collect(object.validateForDelete) }
        try NSManagedObject.throwCombined(errors)
    }
}
