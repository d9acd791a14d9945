import Foundation

// MARK: - automaticallyMergesChangesFromParent

extension NSManagedObjectContext {
    /// Starts or stops merging the saves of this context's parent store: its parent
    /// context's saves for a child, other root contexts' saves on the same coordinator for
    /// a root context (a child's save reaches no store, so roots ignore it).
    func observeSavesForAutomaticMerging(_ on: Bool) {
        if let automaticMergeObserver {
            NotificationCenter.default.removeObserver(automaticMergeObserver)
            self.automaticMergeObserver = nil
        }
        guard on else { return }
        automaticMergeObserver = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: source?.saveNotificationSender, queue: nil
        ) { [weak self] notification in
            guard let self, let saver = notification.object as? NSManagedObjectContext, saver !== self,
                  self.source?.isChanged(bySaveOf: saver) == true else { return }
            // The saver's objects belong to its queue: hand over only their IDs.
            let ids = UncheckedSendableBox(Self.objectIDs(of: notification))
            self.perform { [weak self] in
                guard let self else { return }
                self.mergeChanges(fromContextDidSave: Notification(
                    name: .NSManagedObjectContextDidSave, object: nil, userInfo: ids.value))
            }
        }
    }

    /// A save notification's object sets as sets of object IDs.
    static func objectIDs(of notification: Notification) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey] {
            if let objects = notification.userInfo?[key] as? Set<NSManagedObject> {
                result[key] = Set(objects.map(\.objectID))
            }
        }
        return result
    }
}
