import Foundation

/// The objects of an ``NSBatchInsertRequest`` (dictionaries, a dictionary handler or a
/// managed-object handler), one row at a time, checked against the model: every key must
/// name an attribute, every value fit it; attributes left out get their default, and a
/// mandatory attribute without a value fails the insert.
final class BatchInsertSource {
    private let entity: NSEntityDescription
    /// The entity's stored attributes, in slot order.
    private let attributes: [NSAttributeDescription]
    private let names: [String]
    private let defaults: [Any?]
    private var objects: [[String: Any]]?
    private var position = 0
    private let dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    private let managedObjectHandler: ((NSManagedObject) -> Bool)?

    init(_ request: NSBatchInsertRequest, entity: NSEntityDescription) {
        self.entity = entity
        attributes = entity.runtime.slotProperties.compactMap { property in
            guard let attribute = property as? NSAttributeDescription, !attribute.isTransient else { return nil }
            return attribute
        }
        names = attributes.map(\.name)
        defaults = attributes.map(\.defaultValue)
        objects = request.objectsToInsert
        dictionaryHandler = request.dictionaryHandler
        managedObjectHandler = request.managedObjectHandler
    }

    /// The store operation: rows from this source, upserting on the entity's uniqueness
    /// constraints (its own and its superentities').
    func operation() -> StoreBatchInsert {
        var constraints: [[Int32]] = []
        var current: NSEntityDescription? = entity
        while let level = current {
            for constraint in level.uniquenessConstraints {
                let slots = constraint.compactMap { element -> Int32? in
                    let name = (element as? String) ?? (element as? NSPropertyDescription)?.name
                    guard let name, let slot = entity.runtime.slotByName[name],
                          entity.runtime.slotProperties[Int(slot)] is NSAttributeDescription else { return nil }
                    return slot
                }
                if !slots.isEmpty && slots.count == constraint.count { constraints.append(slots) }
            }
            current = level.superentity
        }
        return StoreBatchInsert(entity: entity, next: { [self] row, named in try next(row, &named) },
                                constraints: constraints)
    }

    /// Writes the next object's values into `row`; false when there are no more.
    func next(_ row: StoreRow, _ named: inout [Int32]) throws -> Bool {
        if let objects {
            guard position < objects.count else { return false }
            position += 1
            try fill(row, from: objects[position - 1], &named)
            return true
        }
        if let dictionaryHandler {
            let dictionary = NSMutableDictionary()
            if dictionaryHandler(dictionary) { return false }
            var values: [String: Any] = [:]
            for (key, value) in dictionary {
                guard let key = key as? String else {
                    throw unknownKey("\(key)")
                }
                values[key] = value
            }
            try fill(row, from: values, &named)
            return true
        }
        if let managedObjectHandler {
            let object = entity.makeObject(insertInto: nil)
            if managedObjectHandler(object) { return false }
            for (index, attribute) in attributes.enumerated() {
                let value = object.primitiveValue(atSlot: attribute.slot, property: attribute)
                try write(value, present: object.storage.isDirty(at: attribute.slot), index, row, &named)
            }
            return true
        }
        return false
    }

    private func fill(_ row: StoreRow, from values: [String: Any], _ named: inout [Int32]) throws {
        var matched = 0
        for index in attributes.indices {
            let value = values[names[index]]
            if value != nil { matched += 1 }
            try write(value, present: value != nil, index, row, &named)
        }
        if matched != values.count {
            let key = values.keys.sorted().first { !names.contains($0) } ?? "?"
            throw unknownKey(key)
        }
    }

    /// Stores one attribute's value (or its default) in the row.
    private func write(_ value: Any?, present: Bool, _ index: Int, _ row: StoreRow, _ named: inout [Int32]) throws {
        let attribute = attributes[index]
        if present { named.append(attribute.slot) }
        try BatchExecution.store(present ? value : defaults[index], attribute, of: entity, into: row, by: "batch insert")
    }

    private func unknownKey(_ key: String) -> NSError {
        let property = entity.propertiesByName[key]
        let what = property is NSRelationshipDescription ? "a relationship, which a batch insert cannot set"
            : property != nil ? "not a stored attribute" : "not a property of the entity"
        return CoreDataError.make(NSManagedObjectValidationError,
            "The batch insert names \(entity.name ?? "?").\(key), \(what).",
            userInfo: [NSValidationKeyErrorKey: key])
    }
}
