import Foundation

/// How a managed object context runs its work (Apple's raw values): on a queue of its own,
/// or on the main queue.
///
/// ```swift
/// let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
/// ```
///
/// ## Topics
/// - ``privateQueueConcurrencyType``
/// - ``mainQueueConcurrencyType``
/// - ``confinementConcurrencyType``
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// The context is used from whichever thread created it, without a queue of its own.
    /// Apple deprecated it; here a confined context runs `performAndWait` blocks inline.
    @available(*, deprecated, message: "Use another NSManagedObjectContextConcurrencyType")
    case confinementConcurrencyType = 0
    /// The context owns a private serial queue; use it through `perform` and
    /// `performAndWait`.
    case privateQueueConcurrencyType = 1
    /// The context runs on the main queue (the view context of an app).
    case mainQueueConcurrencyType = 2
}

extension NSManagedObjectContext {
    /// The concurrency types with their shorter names (Apple's iOS 15 spelling), for
    /// ``init(_:)``.
    ///
    /// ```swift
    /// let context = NSManagedObjectContext(.privateQueue)
    /// ```
    public struct ConcurrencyType: RawRepresentable, Hashable, Sendable {
        /// The concurrency type this value stands for.
        public var rawValue: NSManagedObjectContextConcurrencyType

        /// Wraps a concurrency type.
        public init(rawValue: NSManagedObjectContextConcurrencyType) {
            self.rawValue = rawValue
        }

        /// A private queue: `.privateQueueConcurrencyType`.
        public static let privateQueue = ConcurrencyType(rawValue: .privateQueueConcurrencyType)
        /// The main queue: `.mainQueueConcurrencyType`.
        public static let mainQueue = ConcurrencyType(rawValue: .mainQueueConcurrencyType)
    }

    /// Creates a context of a concurrency type written with its shorter name
    /// (`.privateQueue`, `.mainQueue`): the same as ``init(concurrencyType:)``.
    public convenience init(_ type: NSManagedObjectContext.ConcurrencyType) {
        self.init(concurrencyType: type.rawValue)
    }
}
