import Foundation

/// The `NSCompoundPredicate` the parser (and `withSubstitutionVariables(_:)`) builds:
/// Foundation's class, with a real `predicateFormat`, structural `isEqual`/`hash` and a
/// working `copy()`.
///
/// - Note: Apple parity: an `NSCompoundPredicate` created with Foundation's own
///   initializers (`init(andPredicateWithSubpredicates:)` …) evaluates correctly, also
///   over our predicates, but on Linux its `predicateFormat` is `"FALSEPREDICATE"` and any
///   two of them compare equal (Foundation's `NSPredicate.isEqual`). Swift picks
///   Foundation's initializers over any of ours, so this cannot be fixed for them; the
///   module's formatter and evaluator walk them correctly when they are nested inside
///   other predicates, and `PredicateFormatter.format(_:)` prints them at the top level.
final class ParsedCompoundPredicate: NSCompoundPredicate {

    init(_ type: NSCompoundPredicate.LogicalType, _ subpredicates: [NSPredicate]) {
        super.init(type: type, subpredicates: subpredicates)
    }

    override var predicateFormat: String { PredicateFormatter.format(self) }

    override var description: String { predicateFormat }

    override func copy(with zone: NSZone? = nil) -> Any {
        ParsedCompoundPredicate(compoundPredicateType, subpredicates)
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return self === other || PredicateStructure.equal(self, other)
    }

    override var hash: Int { PredicateStructure.hash(self) }
}
