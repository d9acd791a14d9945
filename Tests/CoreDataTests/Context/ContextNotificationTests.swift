import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct ContextNotificationTests {
    typealias Key = NSManagedObjectContext.NotificationKey

    @Test("NotificationKey's raw values are the userInfo keys themselves")
    func keyStrings() {
        #expect(Key.insertedObjects.rawValue == NSInsertedObjectsKey)
        #expect(Key.updatedObjects.rawValue == NSUpdatedObjectsKey)
        #expect(Key.deletedObjects.rawValue == NSDeletedObjectsKey)
        #expect(Key.refreshedObjects.rawValue == NSRefreshedObjectsKey)
        #expect(Key.invalidatedObjects.rawValue == NSInvalidatedObjectsKey)
        #expect(Key.invalidatedAllObjects.rawValue == NSInvalidatedAllObjectsKey)
        #expect(Key.insertedObjectIDs.rawValue == "inserted_objectIDs")
        #expect(Key.updatedObjectIDs.rawValue == NSUpdatedObjectIDsKey)
        #expect(Key.deletedObjectIDs.rawValue == NSDeletedObjectIDsKey)
        #expect(Key.refreshedObjectIDs.rawValue == NSRefreshedObjectIDsKey)
        #expect(Key.invalidatedObjectIDs.rawValue == NSInvalidatedObjectIDsKey)
        #expect(Key.queryGeneration.rawValue == NSManagedObjectContextQueryGenerationKey)
        #expect(Key(rawValue: "deleted") == .deletedObjects)
        #expect(NSManagedObjectContext.didSaveObjectsNotification == .NSManagedObjectContextDidSave)
        #expect(NSManagedObjectContext.willSaveObjectsNotification.rawValue == "NSManagedObjectContextWillSaveNotification")
        #expect(NSManagedObjectContext.didChangeObjectsNotification == .NSManagedObjectContextObjectsDidChange)
        #expect(NSManagedObjectContext.didSaveObjectIDsNotification.rawValue == "NSManagedObjectContextDidSaveObjectIDsNotification")
        #expect(NSManagedObjectContext.didMergeChangesObjectIDsNotification.rawValue
                == "NSManagedObjectContextDidMergeChangesObjectIDsNotification")
    }

    @Test("every save posts didSaveObjectIDsNotification with the saved objects' IDs, permanent ones for inserts",
          arguments: [false, true])
    func didSaveObjectIDs(onDisk: Bool) throws {
        let container = try MembersContainer.make(onDisk: onDisk)
        let context = container.newBackgroundContext()
        let recorder = NotificationRecorder(object: context)
        let (milk, tea) = try context.performAndWait {
            let milk = ShoppingItem(context: context), tea = ShoppingItem(context: context)
            milk.name = "Milk"
            tea.name = "Tea"
            try context.save()
            return (milk, tea)
        }
        let first = try #require(recorder.notifications.last { $0.name == NSManagedObjectContext.didSaveObjectIDsNotification })
        #expect(first.object as? NSManagedObjectContext === context)
        let inserted = try #require(first.userInfo?[Key.insertedObjectIDs.rawValue] as? Set<NSManagedObjectID>)
        #expect(inserted == [milk.objectID, tea.objectID])
        #expect(!inserted.contains { $0.isTemporaryID })

        try context.performAndWait {
            milk.quantity = 2
            context.delete(tea)
            try context.save()
        }
        let second = try #require(recorder.notifications.last { $0.name == NSManagedObjectContext.didSaveObjectIDsNotification })
        #expect(second.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [milk.objectID])
        #expect(second.userInfo?[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [tea.objectID])
        #expect((second.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)?.isEmpty == true)
    }

    @Test("mergeChanges(fromContextDidSave:) takes an object-ID notification and posts didMergeChangesObjectIDsNotification")
    func mergeObjectIDNotification() throws {
        let container = try MembersContainer.make(onDisk: true)
        let writer = container.newBackgroundContext()
        let itemID = try writer.performAndWait {
            let item = ShoppingItem(context: writer)
            item.name = "Milk"
            try writer.save()
            return item.objectID
        }
        let reader = container.newBackgroundContext()
        let readerItem = try reader.performAndWait { try reader.existingObject(with: itemID) as! ShoppingItem }
        let writes = NotificationRecorder(object: writer)
        let newID = try writer.performAndWait {
            (try writer.existingObject(with: itemID) as! ShoppingItem).name = "Oat milk"
            let bread = ShoppingItem(context: writer)
            bread.name = "Bread"
            try writer.save()
            return bread.objectID
        }
        let idNotification = try #require(writes.notifications.last { $0.name == NSManagedObjectContext.didSaveObjectIDsNotification })
        let recorder = NotificationRecorder(object: reader)
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: idNotification) }
        #expect(reader.performAndWait { readerItem.name } == "Oat milk")
        let change = try #require(recorder.notifications.first { $0.name == NSManagedObjectContext.didChangeObjectsNotification })
        #expect((change.userInfo?[NSRefreshedObjectsKey] as? Set<NSManagedObject>)?.contains(readerItem) == true)
        #expect((change.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [newID])
        let merged = try #require(recorder.notifications.last { $0.name == NSManagedObjectContext.didMergeChangesObjectIDsNotification })
        #expect(merged.object as? NSManagedObjectContext === reader)
        #expect(merged.userInfo?[Key.updatedObjectIDs.rawValue] as? Set<NSManagedObjectID> == [itemID])
        #expect(merged.userInfo?[Key.insertedObjectIDs.rawValue] as? Set<NSManagedObjectID> == [newID])
        #expect(merged.userInfo?[Key.refreshedObjectIDs.rawValue] as? Set<NSManagedObjectID> == [itemID])
    }

    @Test("mergeChanges(fromRemoteContextSave:into:) merges IDs and URIs saved by another coordinator into several contexts")
    func remoteMerge() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shared.sqlite")
        let app = try MembersContainer.make(at: url)
        let widget = try MembersContainer.make(at: url)  // another coordinator: "another process"

        let (keepID, dropID) = try widget.viewContext.performAndWait {
            let keep = ShoppingItem(context: widget.viewContext), drop = ShoppingItem(context: widget.viewContext)
            keep.name = "Keep"
            drop.name = "Drop"
            try widget.viewContext.save()
            return (keep.objectID, drop.objectID)
        }
        let keepURL = keepID.uriRepresentation()
        let appKeepID = try #require(app.persistentStoreCoordinator.managedObjectID(forURIRepresentation: keepURL))
        let appDropID = try #require(app.persistentStoreCoordinator.managedObjectID(forURIRepresentation: dropID.uriRepresentation()))
        let first = app.newBackgroundContext(), second = app.newBackgroundContext()
        let firstKeep = try first.performAndWait { try first.existingObject(with: appKeepID) as! ShoppingItem }
        let firstDrop = try first.performAndWait { try first.existingObject(with: appDropID) }
        let secondKeep = try second.performAndWait { try second.existingObject(with: appKeepID) as! ShoppingItem }
        #expect(first.performAndWait { firstKeep.name } == "Keep")

        try widget.viewContext.performAndWait {
            (try widget.viewContext.existingObject(with: keepID) as! ShoppingItem).name = "Kept"
            widget.viewContext.delete(try widget.viewContext.existingObject(with: dropID))
            try widget.viewContext.save()
        }
        let changes: [AnyHashable: Any] = [NSUpdatedObjectsKey: [keepURL], NSDeletedObjectsKey: [appDropID]]
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [first, second])

        #expect(first.performAndWait { firstKeep.name } == "Kept")
        #expect(second.performAndWait { secondKeep.name } == "Kept")
        #expect(first.performAndWait { first.registeredObject(for: appDropID) } == nil)
        #expect(firstDrop.managedObjectContext == nil)
        // A fault made after the merge reads the store, not a stale cached row.
        let third = app.newBackgroundContext()
        #expect(third.performAndWait { (third.object(with: appKeepID) as! ShoppingItem).name } == "Kept")
    }

    @Test("reset() posts ObjectsDidChange with NSInvalidatedAllObjectsKey")
    func resetInvalidatesAll() throws {
        let container = try MembersContainer.make()
        let context = container.newBackgroundContext()
        let recorder = NotificationRecorder(object: context)
        context.performAndWait {
            ShoppingItem(context: context).name = "Milk"
            context.reset()
        }
        let change = try #require(recorder.notifications.last { $0.name == .NSManagedObjectContextObjectsDidChange })
        #expect(change.userInfo?[Key.invalidatedAllObjects.rawValue] != nil)
    }
}
