import Foundation

/// One optimistic-locking conflict found by a save: an object the context changed or
/// deleted whose row changed (or vanished) in the store since the context read it.
///
/// A conflict comes from one of two layers:
/// - between the context and its coordinator's cache of rows (another context on the same
///   coordinator saved first): ``cachedSnapshot`` holds the coordinator's newer values,
///   ``persistedSnapshot`` is nil and ``objectSnapshot`` holds the object's committed
///   values;
/// - between the coordinator and the store file (another coordinator or process saved
///   first): ``cachedSnapshot`` holds the values the coordinator had, ``persistedSnapshot``
///   the row now in the file, and ``objectSnapshot`` is nil.
///
/// When the row is gone from the store, ``newVersionNumber`` is 0 and
/// ``persistedSnapshot`` nil (``objectSnapshot`` then holds the committed values).
/// Snapshots hold every attribute and to-one relationship (as `NSManagedObjectID`s),
/// `NSNull` for nil, and no to-many relationship.
///
/// ```swift
/// do { try context.save() } catch let error as NSError where error.code == NSManagedObjectMergeError {
///     for case let conflict as NSMergeConflict in error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? [] {
///         print(conflict.sourceObject.objectID, conflict.oldVersionNumber, conflict.newVersionNumber)
///     }
/// }
/// ```
open class NSMergeConflict: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after creation.

    /// The object in conflict (for a conflict with the store file, given as a
    /// convenience: the conflict is between the coordinator's cache and the file).
    public let sourceObject: NSManagedObject
    /// The object's committed values (as the context last read or saved them) when the
    /// conflict is with the coordinator's cache or the row is gone; nil otherwise.
    public let objectSnapshot: [String: Any]?
    /// The values the coordinator holds for the object's row.
    public let cachedSnapshot: [String: Any]?
    /// The values of the row in the store file, when the conflict is with the file and
    /// the row still exists.
    public let persistedSnapshot: [String: Any]?
    /// The row's version (`Z_OPT`) found: the coordinator's or the file's; 0 when the row
    /// was deleted.
    public let newVersionNumber: Int
    /// The version the context read and expected to write over.
    public let oldVersionNumber: Int

    /// Creates a conflict record for an object (saves create them; a custom merge policy,
    /// a custom store or a test may too). ``objectSnapshot`` is filled from the object's
    /// committed values when `persnap` is nil (a conflict with the coordinator's cache, or a
    /// row gone from the store), as Apple's initializer does.
    ///
    /// - Parameters:
    ///   - srcObject: The object whose save met the conflict.
    ///   - newvers: The row's version found (the coordinator's or the file's), 0 if the row
    ///     was deleted.
    ///   - oldvers: The version the context read and expected.
    ///   - cachesnap: The coordinator's cached values, if known.
    ///   - persnap: The store file's current values, if known.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
                cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) {
        sourceObject = srcObject
        objectSnapshot = persnap == nil ? srcObject.committedSnapshot : nil
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        super.init()
    }

    /// The object, its versions and the two snapshots compared, in Apple's layout (the
    /// text an `NSManagedObjectMergeError` prints for each conflict).
    open override var description: String {
        let (oldName, old, newName, new): (String, [String: Any]?, String, [String: Any]?) = objectSnapshot != nil
            ? ("object snapshot", objectSnapshot, "cached row", cachedSnapshot)
            : ("cached row", cachedSnapshot, "database row", persistedSnapshot)
        let address = Unmanaged.passUnretained(self).toOpaque()
        let objectAddress = Unmanaged.passUnretained(sourceObject).toOpaque()
        let head = "NSMergeConflict (\(address)) for NSManagedObject (\(objectAddress)) with objectID '\(sourceObject.objectID)' with oldVersion = \(oldVersionNumber)"
        guard newVersionNumber != 0 else {
            return head + " and newVersion = <deleted> and old \(oldName) = \(Self.text(old))"
        }
        return head + " and newVersion = \(newVersionNumber) and old \(oldName) = \(Self.text(old)) and new \(newName) = \(Self.text(new))"
    }

    private static func text(_ snapshot: [String: Any]?) -> String {
        guard let snapshot else { return "(null)" }
        let lines = snapshot.keys.sorted().map { key -> String in
            let value = snapshot[key]
            return "    \(key) = \(value is NSNull ? "<null>" : "\(value!)");"
        }
        return "{\n" + lines.joined(separator: "\n") + "\n}"
    }
}
