import Foundation

// MARK: - Derived attributes, computed on save

extension NSAttributeDescription {
    /// The expression that computes a derived attribute from the object's other values,
    /// parsed from the model file's `derivationExpression` (nil for stored attributes).
    ///
    /// Supported as Apple documents: a key path copy (`name`), aggregates over a to-many
    /// (`items.@count`, `items.@sum.price`), `lowercase:(name)`, `uppercase:(name)`,
    /// `canonical:(name)` (case- and diacritic-folded) and `now()`.
    public var derivationExpression: NSExpression? {
        get {
            guard let text = derivationExpressionString, !text.isEmpty else { return nil }
            return try? NSExpression.parse(format: DerivedValue.parsable(text).format)
        }
        set {
            assertEditable()
            derivationExpressionString = newValue.map { "\($0)" }
        }
    }

    /// Makes the attribute derived from a format string such as `"items.@count"`.
    public func setDerivationExpression(format: String) {
        assertEditable()
        derivationExpressionString = format
    }
}

enum DerivedValue {
    /// The format our expression parser reads, and whether the result is canonicalised
    /// (`canonical:` is a Core Data derivation function, not an NSExpression one).
    static func parsable(_ text: String) -> (format: String, canonical: Bool) {
        // Model files write functions as `lowercase:(name)`; format strings as `lowercase(name)`.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "([A-Za-z]+):\\(", with: "$1(", options: .regularExpression)
        if trimmed.hasPrefix("canonical(") && trimmed.hasSuffix(")") {
            return (String(trimmed.dropFirst("canonical(".count).dropLast()), true)
        }
        return (trimmed, false)
    }

    static func canonical(_ value: Any?) -> Any? {
        guard let string = value as? String else { return value }
        return string.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

extension NSManagedObject {
    /// Computes the object's derived attributes (no undo registration, no validation of
    /// the expression at run time: one that cannot be parsed or evaluated leaves the
    /// value unchanged).
    func computeDerivedAttributes() {
        for case let attribute as NSAttributeDescription in entity.runtime.slotProperties {
            guard let text = attribute.derivationExpressionString, !text.isEmpty else { continue }
            let (format, canonical) = DerivedValue.parsable(text)
            guard let expression = try? NSExpression.parse(format: format) else { continue }
            var value = expression.expressionValue(with: self, context: nil)
            if canonical { value = DerivedValue.canonical(value) }
            if let current = primitiveValue(atSlot: attribute.slot, property: attribute),
               let value, "\(current)" == "\(value)" { continue }
            setPrimitive(value, for: attribute)
        }
    }
}

extension NSManagedObjectContext {
    /// Derived attributes of the inserted and updated objects, before validation.
    func computeDerivedAttributes() {
        let objects = changes.savedObjects
        // Aggregates over a to-many change when a member changes: recompute for the
        // members' owners too.
        var owners: [ObjectIdentifier: NSManagedObject] = [:]
        for object in objects {
            owners[ObjectIdentifier(object)] = object
            for case let relationship as NSRelationshipDescription in object.entity.runtime.slotProperties
            where !relationship.isToMany {
                if let owner = object.toOneValue(slot: relationship.slot), !owner.isDeletedFlag { owners[ObjectIdentifier(owner)] = owner }
            }
        }
        withoutUndoRegistration {
            for object in owners.values where object.entity.runtime.hasDerivedAttributes && !object.isFault {
                object.computeDerivedAttributes()
            }
        }
    }
}

extension EntityRuntime {
    var hasDerivedAttributes: Bool {
        slotProperties.contains { ($0 as? NSAttributeDescription)?.derivationExpressionString?.isEmpty == false }
    }
}
