import Foundation

// MARK: - Key-value coding over the runtime slots

extension NSManagedObject {
    /// The value of an attribute or relationship. Fires the fault if the object is one.
    ///
    /// Numbers come back as `NSNumber` (cast with `as? Int`, `as? Double`, ...), to-many
    /// relationships as `Set<NSManagedObject>` (ordered ones as `NSOrderedSet`).
    ///
    /// - Note: Apple parity: an unknown key traps with Apple's
    ///   `NSUnknownKeyException` wording; the C API uses a throwing twin.
    public func value(forKey key: String) -> Any? {
        guard let property = property(forKey: key) else { return value(forUndefinedKey: key) }
        willAccessValue(forKey: key)
        let value = primitiveValue(atSlot: property.slot, property: property)
        didAccessValue(forKey: key)
        return value
    }

    /// Sets an attribute or relationship, recording the change and keeping the inverse
    /// relationship in step.
    ///
    /// A value whose type the attribute cannot hold (a number for a string attribute, a
    /// string for a number, ...) stops the program here, as Apple raises, with Apple's
    /// "Unacceptable type of value for attribute" message: numbers of any Swift type fit
    /// integer, floating-point, Boolean and decimal attributes; strings, dates, data, UUIDs
    /// and URLs fit only their own attribute types.
    ///
    /// - Note: Apple parity: the message names Swift types (`Int`, `String`) where Apple
    ///   names Objective-C classes (`__NSCFNumber`); the C API's throwing twin throws
    ///   instead of stopping.
    public func setValue(_ value: Any?, forKey key: String) {
        guard let property = property(forKey: key) else { return setValue(value, forUndefinedKey: key) }
        if let attribute = property as? NSAttributeDescription, let unwrapped = NSAttributeDescription.unwrap(value),
           !attribute.accepts(unwrapped) {
            coreDataMisuse(attribute.unacceptableTypeMessage(unwrapped))
        }
        willChangeValue(forKey: key)
        setValue(value, for: property)
        didChangeValue(forKey: key)
    }

    /// The value of a property by name, read and written as ``value(forKey:)`` and
    /// ``setValue(_:forKey:)`` do.
    ///
    /// ```swift
    /// item["name"] = "Milk"
    /// let name = item["name"] as? String
    /// ```
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

    /// The stored value without fault firing side effects beyond loading the data, and
    /// without access notifications.
    public func primitiveValue(forKey key: String) -> Any? {
        guard let property = property(forKey: key) else { return value(forUndefinedKey: key) }
        fireFaultIfNeeded()
        return primitiveValue(atSlot: property.slot, property: property)
    }

    /// Stores a value in the object's own storage, without change notifications or inverse
    /// upkeep (Apple's primitive accessor).
    ///
    /// On its own it records no change: the property does not show in `changedValues()`,
    /// the object does not become updated, and an update save does not write it (an insert
    /// writes every value). Between `willChangeValue(forKey:)` and
    /// `didChangeValue(forKey:)`, as custom accessors call it, it is a change like any
    /// other. Apple's `awakeFromFetch` idiom (computing a transient value) so leaves the
    /// object unchanged, and `awakeFromInsert` defaults are still saved.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        guard let property = property(forKey: key) else { return setValue(value, forUndefinedKey: key) }
        fireFaultIfNeeded()
        if changeBracketDepth > 0 {
            setPrimitive(value, for: property)
        } else {
            setPrimitiveQuietly(value, for: property)
        }
    }

    /// Follows a dotted key path through to-one relationships; a to-many step gives the
    /// set of values of the rest of the path (as Apple's KVC does).
    public func value(forKeyPath keyPath: String) -> Any? {
        guard let dot = keyPath.firstIndex(of: ".") else { return value(forKey: keyPath) }
        let head = String(keyPath[..<dot]), rest = String(keyPath[keyPath.index(after: dot)...])
        switch value(forKey: head) {
        case let object as NSManagedObject: return object.value(forKeyPath: rest)
        case let set as Set<NSManagedObject>:
            return Set(set.compactMap { $0.value(forKeyPath: rest) as? AnyHashable })
        case let ordered as NSOrderedSet:
            return ordered.array.compactMap { ($0 as? NSManagedObject)?.value(forKeyPath: rest) }
        default: return nil
        }
    }

    /// Sets the property named by the last key of a dotted key path on the object the rest
    /// of the path leads to, through to-one relationships (`"list.name"` renames this
    /// object's list). Each step reads with `value(forKey:)`, the last writes with
    /// `setValue(_:forKey:)`.
    ///
    /// When a step before the last is nil (or not an object), nothing is set. An unknown key traps, as
    /// `setValue(_:forKey:)` does.
    ///
    /// - Note: Apple parity: a path through a to-many relationship sets nothing here;
    ///   Apple's key-value coding sets the value on every member of the set.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let dot = keyPath.lastIndex(of: ".") else { return setValue(value, forKey: keyPath) }
        let owner = self.value(forKeyPath: String(keyPath[..<dot])) as? NSManagedObject
        owner?.setValue(value, forKey: String(keyPath[keyPath.index(after: dot)...]))
    }

    /// The values of several properties at once, by key, read with `value(forKey:)`; a nil
    /// value appears as `NSNull`. Fires the fault; an unknown key traps.
    ///
    /// ```swift
    /// let values = item.dictionaryWithValues(forKeys: ["name", "quantity"])
    /// ```
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    /// Sets several properties at once with `setValue(_:forKey:)` (change tracking and
    /// inverse upkeep included); an `NSNull` value sets nil. The keys are applied in no
    /// particular order; an unknown key traps.
    ///
    /// ```swift
    /// item.setValuesForKeys(["name": "Milk", "quantity": 2])
    /// ```
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value is NSNull ? nil : value, forKey: key) }
    }

    /// Apple raises `NSUnknownKeyException`; so do we, as a trap.
    public func value(forUndefinedKey key: String) -> Any? {
        coreDataMisuse("[<\(type(of: self))> valueForUndefinedKey:]: the entity \(entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\".")
    }

    /// Called by the setters for a key that names no property of the entity: traps with the
    /// wording of Apple's `NSUnknownKeyException`. The C API checks keys with a throwing
    /// twin instead.
    ///
    /// - Note: Apple parity: not overridable here (Apple's can be overridden to accept
    ///   extra keys).
    public func setValue(_ value: Any?, forUndefinedKey key: String) {
        coreDataMisuse("[<\(type(of: self))> setValue:forUndefinedKey:]: the entity \(entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\".")
    }

    // MARK: - Throwing twins (C API, user-supplied keys)

    /// `value(forKey:)` that throws for an unknown key instead of trapping.
    func checkedValue(forKey key: String) throws -> Any? {
        guard let property = property(forKey: key) else { throw unknownKey(key) }
        try fireFaultThrowing()
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            _ = try loadedSetThrowing(slot: relationship.slot, relationship: relationship)
        }
        return value(forKey: key)
    }

    /// `setValue(_:forKey:)` that throws for an unknown key or a value of the wrong type.
    func checkedSetValue(_ value: Any?, forKey key: String) throws {
        guard let property = property(forKey: key) else { throw unknownKey(key) }
        try fireFaultThrowing()
        if let attribute = property as? NSAttributeDescription,
           let value = NSAttributeDescription.unwrap(value), !attribute.accepts(value) {
            throw CoreDataError.make(NSManagedObjectValidationError, attribute.unacceptableTypeMessage(value),
                userInfo: [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key, NSValidationValueErrorKey: value])
        }
        if let relationship = property as? NSRelationshipDescription {
            try checkRelationshipValue(value, relationship)
        }
        setValue(value, forKey: key)
    }

    func unknownKey(_ key: String) -> NSError {
        CoreDataError.make(NSManagedObjectValidationError,
            "The entity \(entity.name ?? "?") has no property named \"\(key)\".",
            userInfo: [NSValidationKeyErrorKey: key])
    }

    // MARK: - Slots

    func property(forKey key: String) -> NSPropertyDescription? {
        let runtime = entity.runtime!
        if let slot = runtime.slotKeys.slot(forKey: key) { return runtime.slotProperties[Int(slot)] }
        return property(missedKey: key, runtime)
    }

    /// A key the byte-hashed table did not find: the dictionary's hashing treats canonically
    /// equivalent spellings ("e\u{301}", "é") as the same key, as it always did here.
    @inline(never)
    private func property(missedKey key: String, _ runtime: EntityRuntime) -> NSPropertyDescription? {
        guard let slot = runtime.slotByName[key] else { return nil }
        return runtime.slotProperties[Int(slot)]
    }

    /// Reads a slot as a Swift value (no fault firing, no notifications).
    func primitiveValue(atSlot slot: Int32, property: NSPropertyDescription) -> Any? {
        if let invalid = invalidValues[slot] { return invalid }
        switch property {
        case let attribute as NSAttributeDescription:
            return attribute.swiftValue(of: storage.value(at: slot))
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let members = toManyMembers(slot: slot, relationship: relationship)
                return relationship.isOrdered ? NSOrderedSet(array: members) : Set(members)
            }
            return toOneValue(slot: slot)
        default:
            let value = storage.value(at: slot)
            guard value.type == .box else {
                if let fetched = property as? NSFetchedPropertyDescription { return fetchedValue(fetched) }
                return nil
            }
            return value.boxed
        }
    }

    /// Writes a property with Apple's public-setter semantics: inverse upkeep for
    /// relationships, change tracking for everything.
    func setValue(_ value: Any?, for property: NSPropertyDescription) {
        fireFaultIfNeeded()
        if let relationship = property as? NSRelationshipDescription {
            setRelationship(value, relationship)
        } else {
            setPrimitive(value, for: property)
        }
    }

    func setPrimitive(_ value: Any?, for property: NSPropertyDescription) {
        context?.noteWillChange(self)
        switch property {
        case let attribute as NSAttributeDescription:
            recordUndoableChange(ofSlot: attribute.slot)
            invalidValues.removeValue(forKey: attribute.slot)
            if !attribute.store(value, into: storage, slot: attribute.slot) {
                // Only primitive writes get here with a value of the wrong type (the
                // public setter stops first): validation reports it at save.
                invalidValues[attribute.slot] = value
                storage.markDirty(at: attribute.slot)
            }
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                replaceToManyPrimitive(relationship, with: Self.objects(in: value))
            } else {
                writeToOne(value as? NSManagedObject, slot: relationship.slot, dirty: true)
            }
        default:
            recordUndoableChange(ofSlot: property.slot)
            if let value = NSAttributeDescription.unwrap(value) {
                storage.setBoxed(value, at: property.slot)
            } else {
                storage.setNull(at: property.slot)
            }
        }
    }

    /// Writes a property without recording a change: no dirty bit, no undo, not in the
    /// context's changed objects.
    func setPrimitiveQuietly(_ value: Any?, for property: NSPropertyDescription) {
        switch property {
        case let attribute as NSAttributeDescription:
            invalidValues.removeValue(forKey: attribute.slot)
            if !attribute.store(value, into: storage.loading, slot: attribute.slot) {
                invalidValues[attribute.slot] = value // reported by validation at save
            }
        case let relationship as NSRelationshipDescription:
            if relationship.isToMany {
                let set = loadedSet(slot: relationship.slot, relationship: relationship)
                set.removeAll()
                for member in Self.objects(in: value) { set.add(member) }
            } else {
                writeToOne(value as? NSManagedObject, slot: relationship.slot, dirty: false)
            }
        default:
            if let value = NSAttributeDescription.unwrap(value) {
                _ = storage.loading.setBoxed(value, at: property.slot)
            } else {
                _ = storage.loading.setNull(at: property.slot)
            }
        }
    }

    /// Sets every attribute that has a default value (on insert).
    func applyDefaultValues() {
        for case let attribute as NSAttributeDescription in entity.runtime.slotProperties {
            if let value = attribute.defaultValue {
                _ = attribute.store(value, into: storage.loading, slot: attribute.slot)
            }
        }
    }
}

extension NSAttributeDescription {
    /// Apple's exception message for a value of a type the attribute cannot hold.
    func unacceptableTypeMessage(_ value: Any) -> String {
        "Unacceptable type of value for attribute: property = \"\(name)\"; desired type = \(attributeValueClassName ?? "?"); given type = \(Swift.type(of: value)); value = \(value)."
    }

    /// Whether a (non-nil) value has a type this attribute can store.
    func accepts(_ value: Any) -> Bool {
        switch attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return Self.integer(value) != nil && !(value is String)
        case .doubleAttributeType, .floatAttributeType: return Self.double(value) != nil
        case .booleanAttributeType: return Self.bool(value) != nil
        case .stringAttributeType: return value is String
        case .URIAttributeType: return value is URL
        case .decimalAttributeType: return value is Decimal || value is NSNumber
        case .dateAttributeType: return value is Date
        case .binaryDataAttributeType: return value is Data
        case .UUIDAttributeType: return value is UUID
        default: return true
        }
    }
}
