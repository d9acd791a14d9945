import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Child contexts: `parent`, fetching and faulting through the parent, saving into it.
@Suite struct NestedContextTests {
    func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    func names(_ request: NSFetchRequest<NSManagedObject>, in context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait { try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } }
    }

    func itemsByName() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return request
    }

    /// The names in the store, read by a context of its own.
    func storedNames(_ stack: TestStack) throws -> [String] {
        try names(itemsByName(), in: stack.newContext())
    }

    @Test("a child's coordinator is its root's, and parent is what was set")
    func parentAndCoordinator() throws {
        let stack = try TestStack()
        let child = child(of: stack.context)
        let grandchild = self.child(of: child)
        #expect(child.parent === stack.context)
        #expect(grandchild.parent === child)
        #expect(grandchild.persistentStoreCoordinator === stack.coordinator)
        #expect(stack.context.parent == nil)
    }

    @Test("setting a parent on a context that has a coordinator traps")
    func parentAndCoordinatorExclusive() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack()
            let context = stack.newContext()
            context.parent = stack.context
        }
    }

    @Test("a child's fetch sees the parent's unsaved inserts, updates and deletes and the store", arguments: allStoreTypes)
    func fetchSeesParentChanges(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let kept = stack.insertItem("Bread"), renamed = stack.insertItem("Apples"), gone = stack.insertItem("Cheese")
        try stack.context.save()
        _ = kept
        stack.insertItem("Dates")
        renamed.setValue("Eggs", forKey: "name")
        stack.context.delete(gone)
        let child = child(of: stack.context)
        #expect(try names(itemsByName(), in: child) == ["Bread", "Dates", "Eggs"])

        let filtered = itemsByName()
        filtered.predicate = NSPredicate(format: "name BEGINSWITH %@", "E")
        #expect(try names(filtered, in: child) == ["Eggs"])
        #expect(try child.performAndWait { try child.count(for: itemsByName()) } == 3)

        // The child's own changes fold in on top.
        try child.performAndWait {
            let egg = try #require(try child.fetch(filtered).first)
            egg.setValue("Apricots", forKey: "name")
            stack.insertItem("Figs", in: child)
        }
        #expect(try names(itemsByName(), in: child) == ["Apricots", "Bread", "Dates", "Figs"])
        #expect(try names(filtered, in: child).isEmpty)
        let limited = itemsByName()
        limited.fetchLimit = 2
        #expect(try names(limited, in: child) == ["Apricots", "Bread"])
    }

    @Test("a child's faults fulfil from the parent's current values, not the store", arguments: allStoreTypes)
    func faultsFromParent(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        list.setValue("Weekly", forKey: "title")
        let item = stack.insertItem("Tea")
        item.setValue(list, forKey: "list")
        try stack.context.save()
        item.setValue("Green tea", forKey: "name")
        item.setValue(3, forKey: "quantity")
        let fresh = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        fresh.setValue("Party", forKey: "title")
        item.setValue(fresh, forKey: "list")

        let child = child(of: stack.context)
        try child.performAndWait {
            let copy = child.object(with: item.objectID)
            #expect(copy.isFault)
            #expect(copy.value(forKey: "name") as? String == "Green tea")
            #expect(copy.value(forKey: "quantity") as? Int64 == 3)
            let owner = try #require(copy.value(forKey: "list") as? NSManagedObject)
            #expect(owner.objectID == fresh.objectID)
            #expect(owner.objectID.isTemporaryID)
            #expect(owner.value(forKey: "title") as? String == "Party")
            let members = owner.value(forKey: "items") as? Set<NSManagedObject>
            #expect(members?.map(\.objectID) == [item.objectID])
            #expect(!copy.hasChanges)
        }
    }

    @Test("saving a child hands its changes to the parent; only the parent's save reaches the store", arguments: allStoreTypes)
    func saveIntoParent(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let milk = stack.insertItem("Milk"), soap = stack.insertItem("Soap")
        try stack.context.save()
        let child = child(of: stack.context)
        let newID = try child.performAndWait {
            let tea = stack.insertItem("Tea", in: child)
            try child.existingObject(with: milk.objectID).setValue("Oat milk", forKey: "name")
            child.delete(try child.existingObject(with: soap.objectID))
            try child.save()
            #expect(!child.hasChanges)
            #expect(!tea.isInserted)
            #expect(tea.objectID.isTemporaryID)
            return tea.objectID
        }
        // The parent has them as unsaved changes, under the same IDs.
        #expect(stack.context.hasChanges)
        let tea = try #require(stack.context.registeredObject(for: newID))
        #expect(tea.isInserted)
        #expect(tea.value(forKey: "name") as? String == "Tea")
        #expect(stack.context.insertedObjects == [tea])
        #expect(milk.value(forKey: "name") as? String == "Oat milk")
        #expect(milk.isUpdated)
        #expect(soap.isDeleted)
        #expect(try storedNames(stack) == ["Milk", "Soap"])

        try stack.context.save()
        #expect(try storedNames(stack) == ["Oat milk", "Tea"])
    }

    @Test("a child's save naming an object its parent no longer knows throws and leaves the parent as it was")
    func staleTemporaryID() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Vinegar")
        let other = stack.insertItem("Mustard")
        let child = child(of: stack.context)
        try child.performAndWait {
            let copy = child.object(with: item.objectID)
            _ = copy.value(forKey: "name")
            try stack.context.save() // the parent's objects get permanent IDs; the child's copy keeps its temporary one
            copy.setValue("Cider vinegar", forKey: "name")
            try child.existingObject(with: other.objectID).setValue("Dijon", forKey: "name")
            #expect(throws: NSError.self) { try child.save() }
            #expect(child.hasChanges)
        }
        #expect(!stack.context.hasChanges)
        #expect(other.value(forKey: "name") as? String == "Mustard")
    }

    @Test("relationships saved from a child connect to the parent's objects, temporary IDs included")
    func relationshipsIntoParent() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: stack.context)
        list.setValue("Weekly", forKey: "title")
        let child = child(of: stack.context)
        try child.performAndWait {
            let copy = child.object(with: list.objectID)
            let item = stack.insertItem("Rice", in: child)
            item.setValue(copy, forKey: "list")
            try child.save()
        }
        let items = list.value(forKey: "items") as? Set<NSManagedObject>
        #expect(items?.compactMap { $0.value(forKey: "name") as? String } == ["Rice"])
        try stack.context.save()
        let reader = stack.newContext()
        let stored = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList"))
        #expect((stored.first?.value(forKey: "items") as? Set<NSManagedObject>)?.count == 1)
    }

    @Test("saving a child posts its DidSave; the parent posts ObjectsDidChange with its own objects")
    func notifications() throws {
        let stack = try TestStack()
        let child = child(of: stack.context)
        let saves = PostedNotifications(.NSManagedObjectContextDidSave, object: child)
        let changes = PostedNotifications(.NSManagedObjectContextObjectsDidChange, object: stack.context)
        let rootSaves = PostedNotifications(.NSManagedObjectContextDidSave, object: stack.context)
        let id = try child.performAndWait {
            let item = stack.insertItem("Jam", in: child)
            try child.save()
            return item.objectID
        }
        #expect(saves.notes.count == 1)
        #expect((saves.notes.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [id])
        let inserted = changes.notes.last?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
        #expect(inserted?.first === stack.context.registeredObject(for: id))
        #expect(rootSaves.notes.isEmpty)
    }

    @Test("rollback and reset of a child leave the parent as it was", arguments: allStoreTypes)
    func rollbackAndReset(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let item = stack.insertItem("Salt")
        try stack.context.save()
        item.setValue("Sea salt", forKey: "name")
        let child = child(of: stack.context)
        try child.performAndWait {
            let copy = try child.existingObject(with: item.objectID)
            copy.setValue("Pepper", forKey: "name")
            stack.insertItem("Oil", in: child)
            child.rollback()
            #expect(!child.hasChanges)
            #expect(copy.value(forKey: "name") as? String == "Sea salt")
            copy.setValue("Pepper", forKey: "name")
            child.reset()
            #expect(child.registeredObjects.isEmpty)
        }
        #expect(item.value(forKey: "name") as? String == "Sea salt")
        #expect(stack.context.insertedObjects.isEmpty)
        #expect(item.changedValues().keys.sorted() == ["name"])
    }

    @Test("object(with:) and existingObject(with:) in a child reach the parent's unsaved objects")
    func objectLookup() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Honey")
        let child = child(of: stack.context)
        try child.performAndWait {
            let copy = try child.existingObject(with: item.objectID)
            #expect(copy.value(forKey: "name") as? String == "Honey")
            #expect(child.object(with: item.objectID) === copy)
            let stranger = NSManagedObject(entity: item.entity, insertInto: nil)
            #expect(throws: NSError.self) { try child.existingObject(with: stranger.objectID) }
        }
    }

    @Test("obtainPermanentIDs in a child agrees with the parent and the store", arguments: allStoreTypes)
    func permanentIDs(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let fromParent = stack.insertItem("Flour")
        let child = child(of: stack.context)
        let (mine, theirs) = try child.performAndWait {
            let mine = stack.insertItem("Sugar", in: child)
            let theirs = try child.existingObject(with: fromParent.objectID)
            try child.obtainPermanentIDs(for: [mine, theirs])
            #expect(!mine.objectID.isTemporaryID)
            #expect(!theirs.objectID.isTemporaryID)
            try child.save()
            return (mine.objectID, theirs.objectID)
        }
        #expect(fromParent.objectID == theirs)
        #expect(stack.context.registeredObject(for: mine)?.isInserted == true)
        try stack.context.save()
        let reader = stack.newContext()
        #expect(try reader.existingObject(with: mine).value(forKey: "name") as? String == "Sugar")
        #expect(try reader.existingObject(with: theirs).value(forKey: "name") as? String == "Flour")
    }

    @Test("a child that merges changes from its parent picks up the parent's saves", arguments: allStoreTypes)
    func automaticMergeFromParent(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let item = stack.insertItem("Coffee")
        try stack.context.save()
        let child = child(of: stack.context)
        child.automaticallyMergesChangesFromParent = true
        let copy = try child.performAndWait { try child.existingObject(with: item.objectID) }
        try stack.context.performAndWait {
            item.setValue("Espresso", forKey: "name")
            try stack.context.save()
        }
        #expect(child.performAndWait { copy.value(forKey: "name") as? String } == "Espresso")
    }

    @Test("a root context that merges saves ignores a child's save, which reached no store")
    func rootIgnoresChildSaves() throws {
        let stack = try TestStack()
        let item = stack.insertItem("Butter")
        try stack.context.save()
        let watcher = stack.newContext()
        watcher.automaticallyMergesChangesFromParent = true
        _ = try watcher.performAndWait { try watcher.existingObject(with: item.objectID) }
        let refreshes = PostedNotifications(.NSManagedObjectContextObjectsDidChange, object: watcher)
        let child = child(of: stack.context)
        try child.performAndWait {
            try child.existingObject(with: item.objectID).setValue("Ghee", forKey: "name")
            try child.save()
        }
        watcher.performAndWait {}
        #expect(refreshes.notes.isEmpty)
    }

    @Test("grandchildren save up the chain, one level per save", arguments: allStoreTypes)
    func grandchildren(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        stack.insertItem("Root's")
        let child = child(of: stack.context)
        let grandchild = self.child(of: child)
        child.performAndWait { _ = stack.insertItem("Child's", in: child) }
        #expect(try names(itemsByName(), in: grandchild) == ["Child's", "Root's"])
        try grandchild.performAndWait {
            stack.insertItem("Grandchild's", in: grandchild)
            try grandchild.save()
        }
        #expect(try names(itemsByName(), in: child) == ["Child's", "Grandchild's", "Root's"])
        #expect(stack.context.insertedObjects.count == 1)
        try child.performAndWait { try child.save() }
        #expect(stack.context.insertedObjects.count == 3)
        #expect(try storedNames(stack).isEmpty)
        try stack.context.save()
        #expect(try storedNames(stack) == ["Child's", "Grandchild's", "Root's"])
    }

    @Test("a child used inside its parent's performAndWait block asks the parent without deadlocking")
    func nestedPerformAndWait() throws {
        let stack = try TestStack()
        let writer = stack.context
        let child = child(of: writer)
        try writer.performAndWait {
            stack.insertItem("Cocoa", in: writer)
            try child.performAndWait {
                #expect(try child.count(for: itemsByName()) == 1)
                stack.insertItem("Cinnamon", in: child)
                try child.save()
            }
            #expect(writer.insertedObjects.count == 2)
        }
    }

    @Test("the editing pattern: a private child of the main-queue viewContext, saved up to the store")
    func editingPattern() async throws {
        let directory = try TemporaryDirectory()
        let container = NSPersistentContainer(name: "Shop", managedObjectModel: TestModel.make())
        container.persistentStoreDescriptions[0].url = directory.file("Shop.sqlite")
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let view = container.viewContext
        let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        editor.parent = view
        try await editor.perform {
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: editor)
            list.setValue("Picnic", forKey: "title")
            try editor.save()
        }
        let titles = try await MainActor.run {
            #expect(view.hasChanges)
            try view.save()
            return try view.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Picnic"])
        let reader = container.newBackgroundContext()
        #expect(try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")) } == 1)
    }

    @Test("the writer pattern: a background context whose parent is a private-queue writer", arguments: allStoreTypes)
    func writerPattern(storeType: String) async throws {
        let stack = try TestStack(storeType: storeType)
        let writer = stack.context
        let background = child(of: writer)
        try await background.perform {
            for name in ["A", "B", "C"] { stack.insertItem(name, in: background) }
            try background.save()
        }
        try await writer.perform {
            #expect(writer.insertedObjects.count == 3)
            try writer.save()
        }
        #expect(try storedNames(stack) == ["A", "B", "C"])
        // The background context keeps working on the saved objects.
        try await background.perform {
            let items = try background.fetch(self.itemsByName())
            items[0].setValue("Z", forKey: "name")
            try background.save()
        }
        try await writer.perform { try writer.save() }
        #expect(try storedNames(stack) == ["B", "C", "Z"])
    }
}

/// Collects the notifications one object posts under one name.
final class PostedNotifications: @unchecked Sendable {
    // @unchecked Sendable: `notes` is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [Notification] = []
    private var observer: NSObjectProtocol?

    init(_ name: Notification.Name, object: AnyObject) {
        observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
            guard let self else { return }
            self.lock.withLock { self.recorded.append(note) }
        }
    }

    var notes: [Notification] { lock.withLock { recorded } }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}
