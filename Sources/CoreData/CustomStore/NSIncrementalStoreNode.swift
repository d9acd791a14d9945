import Foundation

/// The values of one object as an incremental store hands them to Core Data, from
/// `NSIncrementalStore.newValuesForObject(with:with:)`.
///
/// Keys are property names. Attributes hold their values (`String`, `NSNumber` or a Swift
/// number, `Date`, `Data`, `UUID`, `URL`, `Decimal`, or a transformable attribute's object);
/// a to-one relationship holds the destination's `NSManagedObjectID`, or `NSNull` for none.
/// To-many relationships are left out: Core Data asks
/// `newValue(forRelationship:forObjectWith:with:)` for them when they are used, and for a
/// to-one relationship whose key is missing.
///
/// ```swift
/// let values: [String: Any] = ["name": "Milk", "quantity": 2, "list": listID]
/// return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: 1)
/// ```
///
/// ## Topics
/// - ``init(objectID:withValues:version:)``
/// - ``update(withValues:version:)``
/// - ``objectID``
/// - ``version``
/// - ``value(for:)``
open class NSIncrementalStoreNode: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a node is made by the store for one request and read by the
    // framework under the coordinator's lock; `update` is the store's own business.

    /// The object the values belong to.
    open private(set) var objectID: NSManagedObjectID
    /// The values' version (for optimistic locking by the store).
    open private(set) var version: UInt64
    private var values: [String: Any]

    /// A node for an object's values at a version.
    public init(objectID: NSManagedObjectID, withValues values: [String: Any], version: UInt64) {
        self.objectID = objectID
        self.values = values
        self.version = version
        super.init()
    }

    /// Replaces the values and the version.
    open func update(withValues values: [String: Any], version: UInt64) {
        self.values = values
        self.version = version
    }

    /// The value of a property: its value, `NSNull` for a to-one relationship to nothing,
    /// or nil when the node has no value for it.
    open func value(for prop: NSPropertyDescription) -> Any? {
        values[prop.name]
    }

    /// Whether the node has an entry (a value or `NSNull`) for a property name.
    func hasValue(forKey key: String) -> Bool { values[key] != nil }
}
