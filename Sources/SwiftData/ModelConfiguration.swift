import CoreData

/// Where and how a ``ModelContainer`` keeps its store: on disk at a URL (by default
/// `default.store` in the application-support folder), or in memory only; read-write or
/// read-only.
///
/// ```swift
/// let onDisk = ModelConfiguration(url: URL(fileURLWithPath: "/var/lib/app/trips.store"))
/// let scratch = ModelConfiguration(isStoredInMemoryOnly: true)
/// ```
///
/// - Note: Apple parity: Apple's `groupContainer` and `cloudKitDatabase` parameters do not
///   exist on Linux; the default folder is `NSPersistentContainer.defaultDirectoryURL()`
///   (`$XDG_DATA_HOME`-based).
public struct ModelConfiguration: Hashable, Identifiable, Sendable {
    /// The configuration's name (`"default"` unless given).
    public let name: String
    /// The schema the store holds, when the configuration names one.
    public let schema: Schema?
    /// The store file's URL (`/dev/null` for an in-memory store, as Apple's reads).
    public let url: URL
    /// Whether the store lives in memory only.
    public let isStoredInMemoryOnly: Bool
    /// Whether contexts may save to the store; when false the store is opened read-only.
    public let allowsSave: Bool

    /// The configuration's name, as `Identifiable` asks.
    public var id: String { name }

    /// A configuration stored in the default folder (or in memory only).
    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false,
                allowsSave: Bool = true) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.url = isStoredInMemoryOnly
            ? URL(fileURLWithPath: "/dev/null")
            : NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("\(name).store")
    }

    /// A configuration stored in the file at `url`.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
    }
}
