import CoreData

/// An order by one property of a model, forward or reverse: what ``FetchDescriptor/sortBy``
/// holds.
///
/// ```swift
/// SortDescriptor(\Trip.start, order: .reverse)
/// ```
///
/// - Note: Apple parity: on Apple's systems this is Foundation's `SortDescriptor`, which
///   Foundation on Linux does not have; this one keeps Apple's initializers for key paths.
///   Strings compare by their Unicode order, not Apple's default localized-standard order.
public struct SortDescriptor<Compared>: SortComparator, @unchecked Sendable {
    // @unchecked Sendable: the key path and the comparison closure are immutable; the
    // closure captures only the Sendable key path.

    /// The property to compare.
    public let keyPath: PartialKeyPath<Compared>?
    /// Forward (ascending) or reverse (descending).
    public var order: SortOrder
    private let comparison: (Compared, Compared) -> ComparisonResult

    /// Orders by a comparable property.
    public init<Value: Comparable>(_ keyPath: any KeyPath<Compared, Value> & Sendable, order: SortOrder = .forward) {
        self.keyPath = keyPath
        self.order = order
        self.comparison = { a, b in Self.compare(a[keyPath: keyPath], b[keyPath: keyPath]) }
    }

    /// Orders by an optional comparable property; nil comes first in forward order.
    public init<Value: Comparable>(_ keyPath: any KeyPath<Compared, Value?> & Sendable, order: SortOrder = .forward) {
        self.keyPath = keyPath
        self.order = order
        self.comparison = { a, b in
            switch (a[keyPath: keyPath], b[keyPath: keyPath]) {
            case (nil, nil): .orderedSame
            case (nil, _): .orderedAscending
            case (_, nil): .orderedDescending
            case let (x?, y?): Self.compare(x, y)
            }
        }
    }

    private static func compare<Value: Comparable>(_ a: Value, _ b: Value) -> ComparisonResult {
        a < b ? .orderedAscending : (b < a ? .orderedDescending : .orderedSame)
    }

    /// Compares two values by the property, in this descriptor's order.
    public func compare(_ lhs: Compared, _ rhs: Compared) -> ComparisonResult {
        let result = comparison(lhs, rhs)
        guard order == .reverse else { return result }
        return switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    /// Descriptors are equal when they compare the same property in the same order.
    public static func == (lhs: SortDescriptor, rhs: SortDescriptor) -> Bool {
        lhs.keyPath == rhs.keyPath && lhs.order == rhs.order
    }

    /// Hashes the property and order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyPath)
        hasher.combine(order)
    }
}
