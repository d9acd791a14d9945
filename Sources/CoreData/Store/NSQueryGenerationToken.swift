import Foundation

/// Names a query generation: a moment of a coordinator's stores that a context can keep
/// reading while other contexts and processes write (see
/// ``NSManagedObjectContext/setQueryGenerationFrom(_:)``).
///
/// ``current`` asks a context to pin itself to the newest generation at its next read; a
/// pinned context's ``NSManagedObjectContext/queryGenerationToken`` names its generation,
/// and hands it to another context of the same coordinator.
///
/// ```swift
/// try viewContext.setQueryGenerationFrom(.current)
/// let items = try viewContext.fetch(request)       // pins: later saves elsewhere are not seen
/// try otherContext.setQueryGenerationFrom(viewContext.queryGenerationToken)
/// ```
///
/// Two tokens are equal when they name the same generation.
///
/// - Note: Apple parity: an archived token names a generation of this process; decoded
///   while that generation still lives, it pins to it, otherwise setting it fails.
///
/// ## Topics
/// - ``current``
/// - ``init(coder:)``
/// - ``encode(with:)``
/// - ``supportsSecureCoding``
open class NSQueryGenerationToken: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    enum Kind {
        /// ``current``: the newest generation, taken at the next read.
        case current
        /// A generation that exists.
        case generation(QueryGeneration)
        /// A decoded token whose generation is gone.
        case expired(String)
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    private static let currentToken = NSQueryGenerationToken(kind: .current)

    /// The token that pins a context to the newest generation of its stores, at the
    /// context's next fetch or fault.
    open class var current: NSQueryGenerationToken { currentToken }

    /// Whether tokens decode only through `decodeObject(of:forKey:)`: always true.
    public static var supportsSecureCoding: Bool { true }

    /// Decodes a token archived with ``encode(with:)``; nil when the archive holds none.
    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "generation") as String? else { return nil }
        if name == "current" {
            kind = .current
        } else if let generation = QueryGeneration.named(name) {
            kind = .generation(generation)
        } else {
            kind = .expired(name)
        }
        super.init()
    }

    /// Archives the token: the name of its generation (or of ``current``).
    open func encode(with coder: NSCoder) {
        coder.encode(NSString(string: name), forKey: "generation")
    }

    private var name: String {
        switch kind {
        case .current: return "current"
        case .generation(let generation): return generation.identifier
        case .expired(let name): return name
        }
    }

    /// The token itself: tokens are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a token naming the same generation.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSQueryGenerationToken)?.name == name
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int { name.hashValue }

    /// The generation's name, for debugging.
    open override var description: String { "<NSQueryGenerationToken \(name)>" }
}
