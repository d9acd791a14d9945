import Foundation

/// One object's change in a persistent history transaction: an insert, an update (with
/// the properties that changed) or a delete (with the values the model preserves).
///
/// ```swift
/// for change in transaction.changes ?? [] where change.changeType == .delete {
///     print(change.changedObjectID, change.tombstone?["name"] ?? "")
/// }
/// ```
///
/// ## Topics
/// - ``changeID``
/// - ``changedObjectID``
/// - ``changeType``
/// - ``updatedProperties``
/// - ``tombstone``
/// - ``transaction``
/// - ``entityDescription``
/// - ``entityDescription(with:)``
/// - ``fetchRequest``
open class NSPersistentHistoryChange: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.

    /// The change's number in its store.
    open private(set) var changeID: Int64
    /// The ID of the object that changed (a deleted object's ID no longer finds a row).
    open private(set) var changedObjectID: NSManagedObjectID
    /// Insert, update or delete.
    open private(set) var changeType: NSPersistentHistoryChangeType
    /// For a delete: the values of the object's attributes marked
    /// `preservesValueInHistoryOnDeletion`, by name; nil otherwise.
    open private(set) var tombstone: [AnyHashable: Any]?
    /// For an update: the properties that changed; nil otherwise.
    open private(set) var updatedProperties: Set<NSPropertyDescription>?
    /// The transaction the change belongs to.
    open private(set) var transaction: NSPersistentHistoryTransaction?

    init(record: ResolvedHistoryChange, transaction: NSPersistentHistoryTransaction?) {
        changeID = record.id
        changedObjectID = record.objectID
        changeType = record.type
        tombstone = record.tombstone
        updatedProperties = record.updatedProperties
        self.transaction = transaction
        super.init()
    }

    // MARK: - Fetch requests

    /// The entity that describes changes to a fetch request (keys `changeID`, `changeType`,
    /// `changedEntity`, `changedObjectID`, and `transaction`'s keys through it).
    open class var entityDescription: NSEntityDescription? { HistoryEntities.change }

    /// ``entityDescription``; the context plays no part.
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        entityDescription
    }

    /// A new fetch request on ``entityDescription``, for a history request's `fetchRequest`:
    ///
    /// ```swift
    /// let changes = NSPersistentHistoryChange.fetchRequest!
    /// changes.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.delete.rawValue)
    /// request.fetchRequest = changes
    /// ```
    open class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        entityDescription.map(HistoryEntities.fetchRequest(for:))
    }

    /// The change itself: changes are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// The change's number, type and object, for debugging.
    open override var description: String {
        "<NSPersistentHistoryChange \(changeID) \(changeType) \(changedObjectID)>"
    }
}
