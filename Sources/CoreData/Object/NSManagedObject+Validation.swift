import Foundation

// MARK: - Validation performed on save

extension NSManagedObject {
    /// Runs ``validateValue(_:forKey:)`` on every persistent property, collecting every
    /// failure (one error, or `NSValidationMultipleErrorsError`).
    func validatePropertyValues() throws {
        var errors: [NSError] = []
        if invalidValues.isEmpty && !ValidateValueOverride.isOverridden(by: type(of: self)) {
            // `validateValue` is the model's rules alone: check only what the model declares,
            // straight on the slots, and box values only for properties with rules.
            let checks = entity.runtime.validationChecks
            for (index, property) in entity.runtime.slotProperties.enumerated() {
                switch checks[index] {
                case .skip:
                    continue
                case .mandatory:
                    if !storage.value(at: property.slot).isNull { continue }
                case .loadedToMany:
                    if isInsertedFlag { continue }
                    if storage.set(at: property.slot) != nil { continue }
                case .full:
                    break
                }
                let value = primitiveValue(atSlot: property.slot, property: property)
                do {
                    try validateModelRules(value, forKey: property.name)
                } catch let error as NSError {
                    errors += Self.flatten(error)
                }
            }
            try Self.throwCombined(errors)
            return
        }
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
        let (inserts, updates, deletes) = changes.changesToSave
        for object in inserts where !object.isDeletedFlag { collect(object.validateForInsert) }
        for object in updates { collect(object.validateForUpdate) }
        for object in deletes { collect(object.validateForDelete) }
        try NSManagedObject.throwCombined(errors)
    }
}

/// Finds out whether a class overrides `NSManagedObject.validateValue(_:forKey:)`, so that
/// saving can skip boxing every value for classes that do not. Linux has no Objective-C
/// runtime to ask, so this compares the method's entry in the classes' Swift vtables: the
/// entry is found once by comparing two private probe classes, one of which overrides the
/// method. If the metadata does not look as expected, every class counts as overriding
/// (the slow, always-correct path).
enum ValidateValueOverride {
    private final class Plain: NSManagedObject {}
    private final class Overriding: NSManagedObject {
        override func validateValue(_ value: inout Any?, forKey key: String) throws {
            try super.validateValue(&value, forKey: key)
        }
    }

    /// The method's index among the metadata words, and the base class's word there.
    private static let entry: (index: Int, word: UInt)? = {
        guard let (base, count) = words(NSManagedObject.self),
              let (plain, plainCount) = words(Plain.self),
              let (overriding, overridingCount) = words(Overriding.self),
              plainCount >= count, overridingCount >= count else { return nil }
        // Header words (description, sizes) and initializers differ between the base and
        // a subclass; the method's entry is the one word where the plain subclass keeps
        // the base's value and the overriding one does not.
        var found: [Int] = []
        for i in 0..<count where plain[i] == base[i] && overriding[i] != plain[i] { found.append(i) }
        guard found.count == 1 else { return nil }
        return (found[0], base[found[0]])
    }()

    /// A Swift class's metadata as words from its address point, and how many there are.
    private static func words(_ type: AnyClass) -> (UnsafePointer<UInt>, Int)? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        // Without Objective-C interop: kind, superclass, flags (4), instance address
        // point (4), instance size (4), alignment mask (2), reserved (2), class size (4),
        // class address point (4), ...
        #if canImport(ObjectiveC)
        return nil
        #else
        let classSize = Int(metadata.load(fromByteOffset: 32, as: UInt32.self))
        let addressPoint = Int(metadata.load(fromByteOffset: 36, as: UInt32.self))
        let count = (classSize - addressPoint) / MemoryLayout<UInt>.size
        guard addressPoint >= 0, addressPoint < classSize, count > 8, count < 65_536 else { return nil }
        return (metadata.assumingMemoryBound(to: UInt.self), count)
        #endif
    }

    /// Whether `type` (an NSManagedObject class) or one of its superclasses overrides
    /// `validateValue(_:forKey:)`; true when that cannot be told.
    static func isOverridden(by type: NSManagedObject.Type) -> Bool {
        guard let entry else { return true }
        if type == NSManagedObject.self { return false }
        let metadata = unsafeBitCast(type, to: UnsafePointer<UInt>.self)
        return metadata[entry.index] != entry.word
    }
}
