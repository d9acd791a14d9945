import Foundation

/// One object of an atomic store, as the store keeps it in memory: its object ID and its
/// values by property name in ``propertyCache``.
///
/// Attributes hold their values; a to-one relationship holds the destination's cache node
/// (or `NSNull`); a to-many relationship holds a set (or, ordered, an array) of cache nodes.
/// Object IDs are accepted wherever a node is.
///
/// ## Topics
/// - ``init(objectID:)``
/// - ``objectID``
/// - ``propertyCache``
/// - ``value(forKey:)``
/// - ``setValue(_:forKey:)``
open class NSAtomicStoreCacheNode: NSObject, @unchecked Sendable {
    // @unchecked Sendable: nodes are read and written by their store under the
    // coordinator's lock.

    /// The object this node holds.
    open private(set) var objectID: NSManagedObjectID
    /// The values by property name (nil until the first ``setValue(_:forKey:)``).
    open var propertyCache: NSMutableDictionary?

    /// A node for an object ID (one this store made with
    /// `objectID(for:withReferenceObject:)`).
    public init(objectID moid: NSManagedObjectID) {
        self.objectID = moid
        super.init()
    }

    /// The value of a property (nil when the node has none).
    open func value(forKey key: String) -> Any? {
        propertyCache?[key]
    }

    /// Sets the value of a property; nil removes it.
    open func setValue(_ value: Any?, forKey key: String) {
        let cache = propertyCache ?? {
            let made = NSMutableDictionary()
            propertyCache = made
            return made
        }()
        if let value { cache[key] = value } else { cache.removeObject(forKey: key) }
    }
}
