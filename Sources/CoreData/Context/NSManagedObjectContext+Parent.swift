import Foundation

// MARK: - Parent contexts (the child's side)

extension NSManagedObjectContext {
    /// The context this one fetches through and saves into, instead of a coordinator: a
    /// child context sees its parent's unsaved changes, and its `save()` hands its changes
    /// to the parent, which writes them to the store when it saves itself.
    ///
    /// ```swift
    /// let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// editor.parent = container.viewContext
    /// try editor.performAndWait {
    ///     let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: editor)
    ///     item.setValue("Milk", forKey: "name")
    ///     try editor.save()            // the view context now has the insert, unsaved
    /// }
    /// try container.viewContext.performAndWait { try container.viewContext.save() }
    /// ```
    ///
    /// The parent answers on its own queue (the child calls its `performAndWait`). A
    /// context has a parent or a coordinator, never both: setting the parent of a context
    /// that has a coordinator traps, as Apple raises; a child's
    /// ``persistentStoreCoordinator`` is its root context's.
    ///
    /// - Note: Apple parity: uniqueness constraints are checked only when the root context
    ///   saves; a child's dictionary results read the store's saved state; a child ignores
    ///   `relationshipKeyPathsForPrefetching`; objects arriving from a child get no
    ///   `awakeFromInsert` in the parent.
    public var parent: NSManagedObjectContext? {
        get { parentContext }
        set {
            if let newValue {
                if source?.writesToStores == true {
                    coreDataMisuse("Context already has a coordinator; cannot replace.")
                }
                if newValue.concurrencyType.rawValue == 0 { // confinement
                    coreDataMisuse("Parent NSManagedObjectContext must use either NSPrivateQueueConcurrencyType or NSMainQueueConcurrencyType.")
                }
                var ancestor: NSManagedObjectContext? = newValue
                while let context = ancestor {
                    if context === self { coreDataMisuse("A context cannot be its own ancestor.") }
                    ancestor = context.parentContext
                }
            }
            if newValue != nil || parentContext != nil {
                source = newValue.map(ParentContextObjectSource.init)
            }
            if let coordinator = newValue?.persistentStoreCoordinator {
                ManagedClassRegistry.shared.noteModel(coordinator.managedObjectModel)
            }
            if automaticallyMergesChangesFromParent { observeSavesForAutomaticMerging(true) }
        }
    }
}
