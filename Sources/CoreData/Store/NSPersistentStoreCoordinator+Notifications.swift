import Foundation

// MARK: - Coordinator notification names and userInfo keys (Apple's strings)

extension NSNotification.Name {
    /// Apple's notification, posted before the coordinator's list of stores changes.
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it yet (see PARITY.md).
    public static let NSPersistentStoreCoordinatorStoresWillChange = NSNotification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Apple's notification, posted after stores are added to or removed from a coordinator; its
    /// userInfo has ``NSAddedPersistentStoresKey`` and ``NSRemovedPersistentStoresKey``.
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it yet (see PARITY.md).
    public static let NSPersistentStoreCoordinatorStoresDidChange = NSNotification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Apple's notification, posted while a store is being removed from its coordinator.
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it yet (see PARITY.md).
    public static let NSPersistentStoreCoordinatorWillRemoveStore = NSNotification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
    /// Apple's notification for writes to a store from other coordinators or processes; its
    /// userInfo has ``NSStoreUUIDKey``, ``NSPersistentStoreURLKey`` and ``NSPersistentHistoryTokenKey``.
    ///
    /// - Note: Apple parity: the name exists so that code observing it compiles; this
    ///   implementation does not post it (see ``NSPersistentStoreRemoteChangeNotificationPostOptionKey``).
    public static let NSPersistentStoreRemoteChange = NSNotification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// In the userInfo of ``Foundation/NSNotification/Name/NSPersistentStoreCoordinatorStoresDidChange``:
/// the stores added.
public let NSAddedPersistentStoresKey = "added"
/// In the userInfo of ``Foundation/NSNotification/Name/NSPersistentStoreCoordinatorStoresDidChange``:
/// the stores removed.
public let NSRemovedPersistentStoresKey = "removed"
/// In the userInfo of ``Foundation/NSNotification/Name/NSPersistentStoreCoordinatorStoresDidChange``:
/// the old and the new store, when a store's identifier changed.
public let NSUUIDChangedPersistentStoresKey = "UUIDChanged"
/// In the userInfo of ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange``: the
/// store's URL.
public let NSPersistentStoreURLKey = "storeURL"
/// In the userInfo of ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange``: the
/// persistent history token of the change.
public let NSPersistentHistoryTokenKey = "historyToken"
