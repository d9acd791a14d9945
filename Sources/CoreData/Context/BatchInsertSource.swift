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
    private let slots: [Int32]
    private let kinds: [FastKind]
    private let defaults: [Any?]
    /// Whether rows report the slots their object named (only upserts need them).
    private var reportsNamed = false
    private let keyIndex: KeyIndex
    /// Per attribute, the last row (``generation``) whose dictionary named it.
    private var seen: [Int]
    private var generation = 0
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
        slots = attributes.map(\.slot)
        kinds = attributes.map(FastKind.init)
        keyIndex = KeyIndex(names)
        seen = Array(repeating: 0, count: names.count)
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
        reportsNamed = !constraints.isEmpty
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
        generation &+= 1
        for (key, value) in values {
            guard let index = keyIndex.index(of: key, in: names) else { throw unknownKey(key) }
            seen[index] = generation
            if reportsNamed { named.append(slots[index]) }
            if !kinds[index].store(value, at: slots[index], in: row) {
                try BatchExecution.store(value, attributes[index], of: entity, into: row, by: "batch insert")
            }
        }
        guard values.count < attributes.count else { return }
        for index in attributes.indices where seen[index] != generation {
            try BatchExecution.store(defaults[index], attributes[index], of: entity, into: row, by: "batch insert")
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

    /// The common attribute types, written straight from the Swift type a caller usually
    /// gives them; anything else takes ``BatchExecution/store(_:_:of:into:by:)``.
    private enum FastKind {
        case integer, double, string, date, boolean, other

        init(_ attribute: NSAttributeDescription) {
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: self = .integer
            case .doubleAttributeType: self = .double
            case .stringAttributeType: self = .string
            case .dateAttributeType: self = .date
            case .booleanAttributeType: self = .boolean
            default: self = .other
            }
        }

        /// Writes `value` when it has the kind's usual type; false otherwise.
        @inline(__always)
        func store(_ value: Any, at slot: Int32, in row: StoreRow) -> Bool {
            switch self {
            case .integer:
                if let v = value as? Int64 { return row.values.setInt64(v, at: slot) }
                if let v = value as? Int { return row.values.setInt64(Int64(v), at: slot) }
            case .double:
                if let v = value as? Double { return row.values.setDouble(v, at: slot) }
            case .string:
                if let v = value as? String { return row.values.setText(v, at: slot) }
            case .date:
                if let v = value as? Date { return row.values.setDate(v.timeIntervalSinceReferenceDate, at: slot) }
            case .boolean:
                if let v = value as? Bool { return row.values.setBool(v, at: slot) }
            case .other:
                break
            }
            return false
        }
    }

    /// Finds an attribute by name without hashing the whole name: buckets by length and
    /// first and last byte, then one comparison (a dictionary's keys are looked up once
    /// per object, which SipHash made the most expensive step of a batch insert).
    private struct KeyIndex {
        private var buckets: [[Int]] = Array(repeating: [], count: 64)

        init(_ names: [String]) {
            for (index, name) in names.enumerated() { buckets[Self.bucket(name)].append(index) }
        }

        @inline(__always)
        private static func bucket(_ name: String) -> Int {
            let utf8 = name.utf8
            let first = Int(utf8.first ?? 0), last = Int(utf8.last ?? 0)
            return (utf8.count &* 31 &+ first &* 7 &+ last) & 63
        }

        @inline(__always)
        func index(of name: String, in names: [String]) -> Int? {
            for index in buckets[Self.bucket(name)] where names[index] == name { return index }
            return nil
        }
    }
}
