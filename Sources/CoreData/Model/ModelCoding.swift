import Foundation

/// What model descriptions and fetch requests archive for values that Foundation on Linux
/// cannot archive itself.
///
/// swift-corelibs-foundation's `NSPredicate`, `NSSortDescriptor` and `NSDecimalNumber` do
/// not archive (the first two do not conform to `NSCoding`; the last crashes the
/// archiver), and its `NSKeyedUnarchiver` cannot decode a cycle of objects (an object is
/// registered only once its `init(coder:)` returns). So descriptions archive:
/// - predicates and expressions as their format strings, parsed back when decoded;
/// - sort descriptors as key, order and comparison selector;
/// - decimals as their string;
/// - references back up the graph (a property's entity, a relationship's destination and
///   inverse, a sub-entity's parent) by name, resolved by the object that owns both ends.
enum ModelCoding {
    // MARK: - Predicates and expressions

    static func encode(_ predicate: NSPredicate?, forKey key: String, with coder: NSCoder) {
        guard let predicate else { return }
        coder.encode(predicate.formattedPredicate, forKey: key)
    }

    static func decodePredicate(forKey key: String, with coder: NSCoder) -> NSPredicate? {
        guard let text = coder.decodeObjectIfPresent(forKey: key) as? String else { return nil }
        return try? NSPredicate.parse(format: text)
    }

    static func encode(_ predicates: [NSPredicate], forKey key: String, with coder: NSCoder) {
        coder.encode(predicates.map(\.formattedPredicate), forKey: key)
    }

    static func decodePredicates(forKey key: String, with coder: NSCoder) -> [NSPredicate] {
        let texts = coder.decodeObjectIfPresent(forKey: key) as? [String] ?? []
        return texts.compactMap { try? NSPredicate.parse(format: $0) }
    }

    static func encode(_ expression: NSExpression?, forKey key: String, with coder: NSCoder) {
        guard let expression else { return }
        coder.encode(expression.description, forKey: key)
    }

    static func decodeExpression(forKey key: String, with coder: NSCoder) -> NSExpression? {
        guard let text = coder.decodeObjectIfPresent(forKey: key) as? String else { return nil }
        return try? NSExpression.parse(format: text)
    }

    // MARK: - Sort descriptors

    static func encode(_ descriptors: [NSSortDescriptor]?, forKey key: String, with coder: NSCoder) {
        guard let descriptors else { return }
        let plain: [[String: Any]] = descriptors.compactMap { descriptor in
            guard let keyed = descriptor as? KeyedSortDescriptor else { return nil }
            var entry: [String: Any] = ["ascending": keyed.ascending,
                                        "selector": keyed.comparisonSelector.name]
            if let key = keyed.keyString { entry["key"] = key }
            return entry
        }
        coder.encode(plain, forKey: key)
    }

    static func decodeSortDescriptors(forKey key: String, with coder: NSCoder) -> [NSSortDescriptor]? {
        guard let plain = coder.decodeObjectIfPresent(forKey: key) as? [[String: Any]] else { return nil }
        return plain.map { entry in
            let selector = (entry["selector"] as? String).map { Selector($0) } ?? Selector("compare:")
            return NSSortDescriptor(key: entry["key"] as? String,
                                    ascending: entry["ascending"] as? Bool ?? true,
                                    selector: selector)
        }
    }

    // MARK: - Values

    /// Archives `value` under `key`: decimals as their text (under `key.decimal`), anything
    /// else as itself (it must conform to `NSCoding`, as on Apple platforms).
    static func encodeValue(_ value: Any?, forKey key: String, with coder: NSCoder) {
        switch value {
        case nil: return
        case let decimal as NSDecimalNumber: coder.encode(decimal.stringValue, forKey: key + ".decimal")
        case let decimal as Decimal: coder.encode("\(decimal)", forKey: key + ".decimal")
        case let value?: coder.encode(value as AnyObject, forKey: key)
        }
    }

    static func decodeValue(forKey key: String, with coder: NSCoder) -> Any? {
        if let text = coder.decodeObjectIfPresent(forKey: key + ".decimal") as? String {
            return NSDecimalNumber(string: text)
        }
        return coder.decodeObjectIfPresent(forKey: key)
    }

    /// Apple's raw values of `NSAttributeType`, `NSDeleteRule` and the like, archived as
    /// 64-bit integers.
    static func decodeUInt(forKey key: String, with coder: NSCoder) -> UInt {
        UInt(clamping: coder.decodeInt64(forKey: key))
    }
}

extension NSCoder {
    /// The object archived under `key`, or nil when the archive has none.
    ///
    /// swift-corelibs-foundation's `NSKeyedUnarchiver` treats a missing key in the archive's
    /// top-level object as a decoding error (it stops the program under its default policy,
    /// and fails every later read under `.setErrorAndReturn`), where Apple's returns nil. A
    /// description or request decoded as the root of an archive reads its optional fields
    /// through this.
    func decodeObjectIfPresent(forKey key: String) -> Any? {
        containsValue(forKey: key) ? decodeObject(forKey: key) : nil
    }
}
