/// The name of a method, as Objective-C's `SEL`: Foundation on Linux has no `Selector`,
/// and `#selector` needs the Objective-C runtime, so write `Selector("compare:")`.
///
/// Used by `NSSortDescriptor(key:ascending:selector:)` and by custom-selector comparison
/// predicates (`UTI-CONFORMS-TO`, `UTI-EQUALS`).
///
/// - Note: Apple parity: `#selector(NSString.caseInsensitiveCompare(_:))` does not compile
///   on Linux; `Selector("caseInsensitiveCompare:")` works on both platforms.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The selector's name, e.g. `"caseInsensitiveCompare:"`.
    public let name: String

    /// A selector with the given name, colons included: `Selector("compare:")`.
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }

    public var description: String { name }
}
