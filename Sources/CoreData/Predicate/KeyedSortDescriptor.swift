import Foundation

/// The `NSSortDescriptor` that `NSSortDescriptor(key:ascending:)` and
/// `NSSortDescriptor(key:ascending:selector:)` return: a KVC key path and a comparison
/// selector, compared in memory by ``compareObjects(_:_:)`` with nil values first when
/// ascending (as SQLite orders NULLs).
///
/// Supported selectors: `compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
/// `localizedCaseInsensitiveCompare:` and `localizedStandardCompare:`.
final class KeyedSortDescriptor: NSSortDescriptor {
    static let supportedSelectors: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:",
        "localizedCaseInsensitiveCompare:", "localizedStandardCompare:",
    ]

    let keyString: String?
    let comparisonSelector: Selector

    /// Foundation's only designated initializers take a Swift key path; this one points
    /// at a placeholder and every comparison goes through our overrides instead.
    private struct Placeholder { var value = 0 }

    init(key: String?, ascending: Bool, selector: Selector) {
        keyString = key
        comparisonSelector = selector
        super.init(keyPath: \Placeholder.value, ascending: ascending)
    }

    // MARK: - Comparing

    /// Compares two objects by this descriptor: reads the key path from each (a read
    /// error counts as nil), compares with the selector, and reverses when descending.
    func compareObjects(_ a: Any?, _ b: Any?) -> ComparisonResult {
        compareValues(value(of: a), value(of: b))
    }

    /// The sort key of `object`: its key-path value, or the object itself without a key.
    func value(of object: Any?) -> Any? {
        guard let keyString else { return PredicateValue.unwrap(object) }
        return (try? KeyValueReader.value(forKeyPath: keyString, of: object)) ?? nil
    }

    /// Compares two already-read sort keys, honouring `ascending`.
    func compareValues(_ a: Any?, _ b: Any?) -> ComparisonResult {
        let result = Self.compareValues(a, b, selector: comparisonSelector.name)
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Ascending comparison of two sort keys. nil sorts first; strings use `selector`;
    /// numbers, dates and strings compare as in predicates; values of different kinds
    /// (which Foundation would refuse to compare) order by kind so sorting stays total.
    static func compareValues(_ a: Any?, _ b: Any?, selector: String) -> ComparisonResult {
        let left = PredicateValue.classify(a), right = PredicateValue.classify(b)
        switch (left, right) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case let (.string(x), .string(y)):
            switch selector {
            case "caseInsensitiveCompare:":
                return PredicateValue.compareStrings(
                    PredicateStringFolding.fold(x, .caseInsensitive),
                    PredicateStringFolding.fold(y, .caseInsensitive))
            case "localizedCompare:": return x.localizedCompare(y)
            case "localizedCaseInsensitiveCompare:": return x.localizedCaseInsensitiveCompare(y)
            case "localizedStandardCompare:": return x.localizedStandardCompare(y)
            default: return PredicateValue.compareStrings(x, y)
            }
        default:
            if let result = try? PredicateValue.compare(a, b) { return result }
            let l = rank(left), r = rank(right)
            return l < r ? .orderedAscending : (l > r ? .orderedDescending : .orderedSame)
        }
    }

    private static func rank(_ value: PredicateValue) -> Int {
        switch value {
        case .null: return 0
        case .number: return 1
        case .string: return 2
        case .date: return 3
        case .collection: return 4
        case .dictionary: return 5
        case .other: return 6
        }
    }

    // MARK: - NSSortDescriptor

    override func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareObjects(object1, object2)
    }

    override var reversedSortDescriptor: Any {
        KeyedSortDescriptor(key: keyString, ascending: !ascending, selector: comparisonSelector)
    }

    override func copy(with zone: NSZone? = nil) -> Any { self }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? KeyedSortDescriptor else { return false }
        return keyString == other.keyString && ascending == other.ascending
            && comparisonSelector == other.comparisonSelector
    }

    override var hash: Int {
        var hasher = Hasher()
        hasher.combine(keyString)
        hasher.combine(ascending)
        hasher.combine(comparisonSelector)
        return hasher.finalize()
    }

    override var description: String {
        "(\(keyString ?? "SELF"), \(ascending ? "ascending" : "descending"), "
            + "\(comparisonSelector.name))"
    }
}
