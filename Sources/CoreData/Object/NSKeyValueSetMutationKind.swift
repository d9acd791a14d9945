import Foundation

/// How a change alters the members of an unordered to-many relationship (Apple's
/// Foundation raw values), for `willChangeValue(forKey:withSetMutation:using:)`.
///
/// - Note: Apple parity: Foundation declares it on Apple platforms; Foundation on Linux has
///   no key-value observing, so CoreData declares it.
public enum NSKeyValueSetMutationKind: UInt, Sendable {
    /// Objects are added (`union`).
    case union = 1
    /// Objects are removed (`minus`).
    case minus = 2
    /// Only the given objects are kept (`intersect`).
    case intersect = 3
    /// The members are replaced by the given objects (`set`).
    case set = 4
}
