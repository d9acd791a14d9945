import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct ObjectsDidChangeEventTests {
    @Test("an unsaved object changed in a later event is in that event's NSUpdatedObjectsKey; deleted, in its NSDeletedObjectsKey")
    func unsavedInsertsInLaterEvents() throws {
        let stack = try TestStack()
        let milk = stack.insertItem("Milk"), bread = stack.insertItem("Bread")
        let recorder = NotificationRecorder(object: stack.context)
        stack.context.processPendingChanges()
        let first = try #require(recorder.notifications.last?.userInfo)
        #expect(first[NSInsertedObjectsKey] as? Set<NSManagedObject> == [milk, bread])
        #expect(first[NSUpdatedObjectsKey] == nil)

        milk.setValue("Oat milk", forKey: "name")
        stack.context.delete(bread)
        stack.context.processPendingChanges()
        let second = try #require(recorder.notifications.last?.userInfo)
        #expect(second[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [milk])
        #expect(second[NSDeletedObjectsKey] as? Set<NSManagedObject> == [bread])
        #expect(second[NSInsertedObjectsKey] == nil)
        #expect(stack.context.insertedObjects == [milk])
        #expect(stack.context.updatedObjects.isEmpty)
    }

    @Test("an object inserted and deleted in the same event is announced in neither set")
    func insertedAndDeletedInOneEvent() throws {
        let stack = try TestStack()
        _ = stack.insertItem("Milk")
        let gone = stack.insertItem("Bread")
        stack.context.delete(gone)
        let recorder = NotificationRecorder(object: stack.context)
        stack.context.processPendingChanges()
        let info = try #require(recorder.notifications.last?.userInfo)
        #expect((info[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.contains(gone) == false)
        #expect(info[NSDeletedObjectsKey] == nil)
    }
}
