import Foundation

/// The predicate `TRUEPREDICATE` and `FALSEPREDICATE` parse to: Foundation's constant
/// predicate (`NSPredicate(value:)`, so `isEqual` and evaluation are Foundation's), which
/// prints its format as its description, as Apple's does.
///
/// - Note: Apple parity: on Linux, Foundation's `NSPredicate(value: true).description` is
///   the object's address (`<NSPredicate: 0x…>`), not `TRUEPREDICATE`; predicates parsed
///   from a format are this class and print correctly.
final class ConstantPredicate: NSPredicate {

    init(_ value: Bool) {
        super.init(value: value)
    }

    override var predicateFormat: String { PredicateFormatter.format(self) }

    override var description: String { predicateFormat }
}
