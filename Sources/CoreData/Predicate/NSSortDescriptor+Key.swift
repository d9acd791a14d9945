import Foundation

/// Lets `NSSortDescriptor(key:ascending:)` be a factory initializer returning a
/// key-based descriptor (Foundation's is unavailable on Linux).
public protocol _SortDescriptorFactory {}

extension NSSortDescriptor: _SortDescriptorFactory {}

extension _SortDescriptorFactory where Self: NSSortDescriptor {

    /// Sorts by the value of `key` (a key path such as `"department.name"`; nil sorts by
    /// the objects themselves) with `compare:`.
    ///
    /// ```swift
    /// request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    /// ```
    public init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: Selector("compare:"))
    }

    /// Sorts by `key` using `selector`, written `Selector("caseInsensitiveCompare:")`:
    /// one of `compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
    /// `localizedCaseInsensitiveCompare:`, `localizedStandardCompare:` (nil means
    /// `compare:`).
    ///
    /// - Note: Apple parity: Apple accepts any selector and raises when comparing; an
    ///   unsupported selector traps here, when the descriptor is created.
    public init(key: String?, ascending: Bool, selector: Selector?) {
        let selector = selector ?? Selector("compare:")
        guard KeyedSortDescriptor.supportedSelectors.contains(selector.name) else {
            preconditionFailure("NSSortDescriptor: unsupported comparison selector "
                + "'\(selector.name)' (supported: "
                + KeyedSortDescriptor.supportedSelectors.sorted().joined(separator: ", ") + ")")
        }
        let descriptor = KeyedSortDescriptor(key: key, ascending: ascending, selector: selector)
        guard let result = descriptor as? Self else {
            preconditionFailure("NSSortDescriptor(key:ascending:) cannot create a \(Self.self)")
        }
        self = result
    }
}

extension NSSortDescriptor {
    /// The comparison selector (`compare:` unless another was given); nil for a
    /// descriptor made from a Swift key path.
    public var selector: Selector? { (self as? KeyedSortDescriptor)?.comparisonSelector }
}
