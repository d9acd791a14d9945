import CoreData

/// An error of the SwiftData layer: a schema that cannot be mapped to the store, a model
/// used in a context it does not belong to, a configuration the store cannot open.
///
/// Core Data's own failures (validation, a store that cannot be opened) are thrown as they
/// are: an `NSError` in `NSCocoaErrorDomain`.
public struct SwiftDataError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case unsupportedType, missingInverse, loadIssueModelContainer, unknownModel, unsupportedPredicate,
             modelNotInserted
    }
    let code: Code
    let detail: String

    init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// A property's type has no store mapping (`[String]`, a `Codable` struct, …).
    public static let unsupportedType = SwiftDataError(.unsupportedType)
    /// A relationship names an inverse that does not exist or does not point back.
    public static let missingInverse = SwiftDataError(.missingInverse)
    /// The container could not be created over its configuration.
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer)
    /// The model class is not in the container's schema.
    public static let unknownModel = SwiftDataError(.unknownModel)
    /// The predicate cannot be evaluated.
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate)

    /// Errors of the same kind are equal, whatever their detail.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }
    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The kind of error and what caused it.
    public var description: String { detail.isEmpty ? "SwiftDataError.\(code)" : "SwiftDataError.\(code): \(detail)" }
}
