import Foundation

/// An object whose properties predicates and sort descriptors can read by key.
///
/// `NSManagedObject` conforms: attributes return their value (nil for NULL), to-one
/// relationships the related object (or nil), to-many relationships a `Set<AnyHashable>`,
/// `NSSet`, `NSOrderedSet` or array of related objects.
protocol KeyValueReading: AnyObject {
    /// The value for `key`; throws (for example
    /// `PredicateEvaluationError.unknownKey`) when the object has no such key.
    func predicateValue(forKey key: String) throws -> Any?
}

/// Reads keys and key paths out of evaluated objects: ``KeyValueReading`` objects,
/// dictionaries (`[String: Any]`, `NSDictionary`), collections (the key is read from
/// every element), and, as a fallback, the stored properties of any Swift value (found
/// with `Mirror`).
///
/// - Note: Apple parity: a dictionary without the key answers nil, as
///   `-[NSDictionary valueForKey:]` does; any other object without the key is an error
///   (`valueForUndefinedKey:` on Apple).
enum KeyValueReader {

    // MARK: - Keys

    static func value(forKey key: String, of object: Any?) throws -> Any? {
        guard let object = PredicateValue.unwrap(object) else { return nil }
        if key == "self" || key == "SELF" { return object }
        if let reader = object as? any KeyValueReading {
            return try reader.predicateValue(forKey: key)
        }
        if let dictionary = PredicateValue.dictionaryValue(object) {
            return PredicateValue.unwrap(dictionary[AnyHashable(key)])
        }
        if let elements = PredicateValue.collectionElements(object) {
            let values = try fanOut(elements) { try value(forKey: key, of: $0) }
            // Read through a set, the values' order means nothing (`-[NSSet valueForKey:]`
            // answers a set): comparisons must not depend on it.
            return PredicateValue.isUnordered(object) ? UnorderedValues(values: values) : values
        }
        if let string = PredicateValue.unwrap(object) as? String, key == "length" {
            return string.utf16.count
        }
        if let found = mirrorValue(forKey: key, of: object) { return found }
        throw PredicateEvaluationError.unknownKey(
            "[<\(type(of: object))> valueForUndefinedKey:]: this class is not key value "
                + "coding-compliant for the key \(key).")
    }

    /// Reads `key` from every element; element values that are themselves collections
    /// are flattened in, so `departments.employees.name` is one flat array.
    private static func fanOut(
        _ elements: [Any?], _ read: (Any?) throws -> Any?
    ) rethrows -> [Any?] {
        var result: [Any?] = []
        for element in elements {
            let value = try read(element)
            if let nested = PredicateValue.collectionElements(value) {
                result.append(contentsOf: nested)
            } else {
                result.append(PredicateValue.unwrap(value))
            }
        }
        return result
    }

    private static func mirrorValue(forKey key: String, of object: Any) -> Any?? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children where child.label == key || child.label == "_" + key {
                return .some(PredicateValue.unwrap(child.value))
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    // MARK: - Key paths

    /// Follows a dotted key path. A nil along the way yields nil
    /// (<doc:PredicateLanguage#Nil-and-NSNull>); a collection fans out; `@count`, `@sum`, `@avg`,
    /// `@min`, `@max`, `@distinctUnionOfObjects`, `@unionOfObjects`, `@distinctUnionOfArrays`,
    /// `@unionOfArrays`, `@distinctUnionOfSets` and `@unionOfSets` segments apply to the collection
    /// reached so far (<doc:PredicateLanguage#Collection-operators>).
    static func value(forKeyPath path: String, of object: Any?) throws -> Any? {
        try value(forSegments: path.split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)[...], of: object)
    }

    static func value(forSegments segments: ArraySlice<String>, of object: Any?) throws -> Any? {
        var current = PredicateValue.unwrap(object)
        var index = segments.startIndex
        while index < segments.endIndex {
            let segment = segments[index]
            if segment.hasPrefix("@") {
                return try collectionOperator(
                    segment, rest: segments[(index + 1)...], on: current)
            }
            guard current != nil else { return nil }
            current = try value(forKey: segment, of: current)
            index += 1
        }
        return current
    }

    // MARK: - Collection operators

    private static func collectionOperator(
        _ name: String, rest: ArraySlice<String>, on object: Any?
    ) throws -> Any? {
        // The operator's property is the key path up to the next collection operator;
        // anything after that applies to the operator's result (`@distinct….@count`).
        let split = rest.firstIndex { $0.hasPrefix("@") } ?? rest.endIndex
        let property = rest[rest.startIndex..<split], after = rest[split...]
        let result = try applyOperator(name, property: property, on: object)
        return after.isEmpty ? result : try value(forSegments: after, of: result)
    }

    private static func applyOperator(
        _ name: String, property: ArraySlice<String>, on object: Any?
    ) throws -> Any? {
        let elements = PredicateValue.collectionElements(object)
            ?? (PredicateValue.isNull(object) ? [] : [object])
        if name == "@count" { return elements.count }
        let values = property.isEmpty
            ? elements.map(PredicateValue.unwrap)
            : try fanOut(elements) { try value(forSegments: property, of: $0) }
        switch name {
        case "@sum": return try PredicateFunctions.sum(values)
        case "@avg": return try PredicateFunctions.average(values)
        case "@min": return try PredicateFunctions.extreme(values, .orderedAscending)
        case "@max": return try PredicateFunctions.extreme(values, .orderedDescending)
        case "@unionOfObjects", "@unionOfArrays", "@unionOfSets":
            return values.filter { !PredicateValue.isNull($0) }
        case "@distinctUnionOfObjects", "@distinctUnionOfArrays", "@distinctUnionOfSets":
            var distinct: [Any?] = []
            for item in values where !PredicateValue.isNull(item) {
                if !distinct.contains(where: { PredicateValue.isEqual($0, item) }) {
                    distinct.append(item)
                }
            }
            return distinct
        default:
            throw PredicateEvaluationError.unknownKey(
                "[<\(type(of: object ?? "nil"))> valueForUndefinedKey:]: this class is not "
                    + "key value coding-compliant for the key \(name).")
        }
    }
}

/// Values read through an unordered collection (a to-many relationship's set): compared
/// without regard to order, like the `NSSet` Apple's key-value coding answers. Public API
/// (`expressionValue(with:context:)`) hands out the plain array.
struct UnorderedValues {
    let values: [Any?]
}
