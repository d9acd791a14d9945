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
    /// Posted by a coordinator after a write to one of its stores that was added with
    /// ``NSPersistentStoreRemoteChangeNotificationPostOptionKey``: a write by any context,
    /// coordinator or process. The object is the coordinator; the userInfo has
    /// ``NSPersistentStoreURLKey``, ``NSStoreUUIDKey`` and, when the store tracks history,
    /// ``NSPersistentHistoryTokenKey`` (the token of the transaction written). It is posted
    /// on a private queue: move to your context's queue before using the context.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange,
    ///                                        object: container.persistentStoreCoordinator, queue: nil) { note in
    ///     let token = note.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
    ///     context.perform { /* fetch history after the last token processed */ }
    /// }
    /// ```
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
