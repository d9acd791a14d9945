import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct MergeChangesNotificationTests {
    @Test("mergeChanges(fromContextDidSave:) faults in the saved inserts and names them under NSInsertedObjectsKey")
    func mergedInserts() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let other = stack.newContext()
        let saves = NotificationRecorder(object: other)
        let item = stack.insertItem("Milk", in: other)
        try other.save()
        let changes = NotificationRecorder(object: stack.context)
        stack.context.mergeChanges(fromContextDidSave: try #require(saves.notifications.last))

        let note = try #require(changes.notifications.last { $0.name == .NSManagedObjectContextObjectsDidChange })
        let inserted = try #require(note.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)
        #expect(inserted.map(\.objectID) == [item.objectID])
        #expect(inserted.first?.managedObjectContext === stack.context)
        #expect(inserted.first?.value(forKey: "name") as? String == "Milk")
    }

    @Test("objects a merge invalidates keep their last values while ObjectsDidChange is posted, and are faults after it")
    func invalidatedValuesDuringNotification() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Bread")
        try stack.context.save()
        let other = stack.newContext()
        let saves = NotificationRecorder(object: other)
        other.delete(try other.existingObject(with: item.objectID))
        try other.save()

        final class InvalidatedNames: @unchecked Sendable {
            // @unchecked Sendable: the notification is posted on the test's thread.
            var names: [String?] = []
        }
        let seen = InvalidatedNames()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextObjectsDidChange, object: stack.context, queue: nil
        ) { note in
            let invalidated = note.userInfo?[NSInvalidatedObjectsKey] as? Set<NSManagedObject> ?? []
            seen.names += invalidated.map { $0.value(forKey: "name") as? String }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        stack.context.mergeChanges(fromContextDidSave: try #require(saves.notifications.last))
        #expect(seen.names == ["Bread"])
        #expect(item.isFault)
    }
}
