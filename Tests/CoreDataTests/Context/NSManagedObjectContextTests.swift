import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct NSManagedObjectContextTests {
    @Test("saved objects come back from a fetch in another context as faults that fire on read")
    func fetchReturnsFaults() throws {
        let stack = try TestStack()
        _ = stack.insertItem("Milk")
        try stack.context.save()
        let other = stack.newContext()
        let items = try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.isFault)
        #expect(item.value(forKey: "name") as? String == "Milk")
        #expect(!item.isFault)
    }

    @Test("returnsObjectsAsFaults = false returns realized objects")
    func fetchRealized() throws {
        let stack = try TestStack()
        _ = stack.insertItem("Milk")
        try stack.context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.returnsObjectsAsFaults = false
        let other = stack.newContext()
        let item = try #require(try other.fetch(request).first)
        #expect(!item.isFault)
    }

    @Test("one object per ID per context: fetches and object(with:) return the same instance")
    func uniquing() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Tea")
        try stack.context.save()
        let fetched = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        #expect(fetched.first === item)
        #expect(stack.context.object(with: item.objectID) === item)
        let other = stack.newContext()
        let fault = other.object(with: item.objectID)
        #expect(fault !== item)
        #expect(fault.isFault)
        #expect(other.object(with: item.objectID) === fault)
        #expect(other.registeredObject(for: item.objectID) === fault)
    }

    @Test("existingObject(with:) loads the object, and throws for one that is gone")
    func existingObject() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Jam")
        try stack.context.save()
        let id = item.objectID
        let other = stack.newContext()
        let loaded = try other.existingObject(with: id)
        #expect(!loaded.isFault)
        #expect(loaded.value(forKey: "name") as? String == "Jam")
        stack.context.delete(item)
        try stack.context.save()
        #expect(throws: NSError.self) { try stack.newContext().existingObject(with: id) }
    }

    @Test("inserted, updated and deleted objects are tracked until save")
    func changeSets() throws {
        let stack = try TestStack()
        let context = stack.context
        let a = stack.insertItem("A"), b = stack.insertItem("B")
        #expect(context.insertedObjects == [a, b])
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty)
        #expect(!a.objectID.isTemporaryID)
        a.setValue("A2", forKey: "name")
        context.delete(b)
        #expect(context.updatedObjects == [a])
        #expect(context.deletedObjects == [b])
        #expect(b.isDeleted)
        try context.save()
        #expect(b.managedObjectContext == nil)
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) == 1)
    }

    @Test("fetches include unsaved inserts and omit unsaved deletes (includesPendingChanges)")
    func pendingChanges() throws {
        let stack = try TestStack()
        let saved = stack.insertItem("Saved")
        try stack.context.save()
        let unsaved = stack.insertItem("Unsaved")
        stack.context.delete(saved)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        #expect(try stack.context.fetch(request) == [unsaved])
        request.includesPendingChanges = false
        #expect(try stack.context.fetch(request) == [saved])
    }

    @Test("fetch limit, offset, object-ID and count result types")
    func resultTypes() throws {
        let stack = try TestStack()
        for name in ["a", "b", "c", "d"] { _ = stack.insertItem(name) }
        try stack.context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.fetchLimit = 2
        request.fetchOffset = 1
        let other = stack.newContext()
        #expect(try other.fetch(request).count == 2)
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "ShoppingItem")
        ids.resultType = .managedObjectIDResultType
        #expect(try other.fetch(ids).count == 4)
        let counts = NSFetchRequest<NSNumber>(entityName: "ShoppingItem")
        counts.resultType = .countResultType
        #expect(try other.fetch(counts).first?.intValue == 4)
    }

    @Test("a fetch for an unknown entity throws a clear error")
    func unknownEntity() throws {
        let stack = try TestStack()
        let error = try #require(throws: NSError.self) {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Nope"))
        }
        #expect(error.localizedDescription.contains("Nope"))
    }

    @Test("rollback discards inserts, restores deletes and reverts updates")
    func rollback() throws {
        let stack = try TestStack()
        let kept = stack.insertItem("Kept")
        try stack.context.save()
        kept.setValue("Changed", forKey: "name")
        let added = stack.insertItem("Added")
        stack.context.rollback()
        #expect(kept.value(forKey: "name") as? String == "Kept")
        #expect(added.managedObjectContext == nil)
        #expect(!stack.context.hasChanges)
        stack.context.delete(kept)
        stack.context.rollback()
        #expect(!kept.isDeleted)
    }

    @Test("reset forgets every registered object")
    func reset() throws {
        let stack = try TestStack()
        let item = stack.insertItem("X")
        try stack.context.save()
        stack.context.reset()
        #expect(stack.context.registeredObjects.isEmpty)
        #expect(item.managedObjectContext == nil)
        let again = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
        #expect(again.count == 1 && again[0] !== item)
    }

    @Test("refresh(_:mergeChanges: false) turns an object back into a fault; the next read refires it")
    func refresh() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Soap")
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: item.objectID)
        item.setValue("Shampoo", forKey: "name")
        try stack.context.save()
        #expect(copy.value(forKey: "name") as? String == "Soap")
        other.refresh(copy, mergeChanges: false)
        #expect(copy.isFault)
        #expect(copy.value(forKey: "name") as? String == "Shampoo")
        other.refreshAllObjects()
        #expect(copy.value(forKey: "name") as? String == "Shampoo")
    }

    @Test("a save that would overwrite a newer version fails with NSManagedObjectMergeError and writes nothing")
    func optimisticLocking() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Soap")
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: item.objectID)
        item.setValue("New", forKey: "name")
        try stack.context.save()
        copy.setValue("Stale", forKey: "name")
        let error = try #require(throws: NSError.self) { try other.save() }
        #expect(error.code == NSManagedObjectMergeError)
        #expect(copy.hasChanges)
        let third = stack.newContext()
        let fresh = try third.existingObject(with: item.objectID)
        #expect(fresh.value(forKey: "name") as? String == "New")
    }

    @Test("missing mandatory values fail validation with Apple's codes and keys")
    func mandatoryValidation() throws {
        let stack = try TestStack()
        let item = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: stack.context)
        let one = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(one.code == NSValidationMissingMandatoryPropertyError)
        #expect(one.userInfo[NSValidationKeyErrorKey] as? String == "name")
        #expect(one.userInfo[NSValidationObjectErrorKey] as? NSManagedObject === item)
        _ = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        let many = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(many.code == NSValidationMultipleErrorsError)
        #expect((many.userInfo[NSDetailedErrorsKey] as? [NSError])?.count == 2)
        #expect(item.isInserted)
    }

    @Test("save posts WillSave and DidSave with Apple's userInfo keys; processPendingChanges posts ObjectsDidChange")
    func notifications() throws {
        let stack = try TestStack()
        let recorder = NotificationRecorder(object: stack.context)
        let item = stack.insertItem("N")
        stack.context.processPendingChanges()
        #expect(recorder.names.contains(.NSManagedObjectContextObjectsDidChange))
        try stack.context.save()
        #expect(recorder.names.contains(.NSManagedObjectContextWillSave))
        let didSave = try #require(recorder.notifications.last { $0.name == .NSManagedObjectContextDidSave })
        #expect((didSave.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>) == [item])
    }

    @Test("mergeChanges(fromContextDidSave:) brings another context's saved updates and deletes")
    func mergeChanges() throws {
        let stack = try TestStack()
        let a = stack.insertItem("A"), b = stack.insertItem("B")
        try stack.context.save()
        let other = stack.newContext()
        let otherA = try other.existingObject(with: a.objectID)
        let otherB = try other.existingObject(with: b.objectID)
        let recorder = NotificationRecorder(object: stack.context)
        a.setValue("A2", forKey: "name")
        stack.context.delete(b)
        try stack.context.save()
        other.mergeChanges(fromContextDidSave: try #require(recorder.notifications.last))
        #expect(otherA.value(forKey: "name") as? String == "A2")
        #expect(otherB.managedObjectContext == nil)
    }

    @Test("perform and performAndWait run on the context's queue; performAndWait is re-entrant")
    func perform() async throws {
        let stack = try TestStack()
        let context = stack.context
        // The saved item is found through registeredObjects below, so the context keeps it.
        context.retainsRegisteredObjects = true
        let count = try context.performAndWait {
            _ = stack.insertItem("P")
            try context.save()
            return context.performAndWait { context.registeredObjects.count }
        }
        #expect(count == 1)
        let name = await context.perform {
            (context.registeredObjects.first?.value(forKey: "name") as? String) ?? ""
        }
        #expect(name == "P")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            context.perform {
                #expect(NSManagedObjectContext.current === context)
                done.resume()
            }
        }
    }

    @Test("object IDs have Apple's URI form and come back through the coordinator")
    func objectIDURIs() throws {
        let stack = try TestStack()
        let item = stack.insertItem("U")
        #expect(item.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata:///ShoppingItem/t"))
        try stack.context.obtainPermanentIDs(for: [item])
        let uri = item.objectID.uriRepresentation()
        let storeID = try #require(stack.coordinator.persistentStores.first?.identifier)
        #expect(uri.absoluteString == "x-coredata://\(storeID)/ShoppingItem/p1")
        let id = try #require(stack.coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(id == item.objectID)
        #expect(id.hashValue == item.objectID.hashValue)
        #expect(stack.coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://nope/ShoppingItem/p1")!) == nil)
        try stack.context.save()
        #expect(item.objectID == id)
    }
}

/// Collects the notifications a context posts.
final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: tests post on the thread that reads.
    private(set) var notifications: [Notification] = []
    private var token: NSObjectProtocol?
    var names: [Notification.Name] { notifications.map(\.name) }

    init(object: AnyObject) {
        token = NotificationCenter.default.addObserver(forName: nil, object: object, queue: nil) { [weak self] in
            self?.notifications.append($0)
        }
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }
}
