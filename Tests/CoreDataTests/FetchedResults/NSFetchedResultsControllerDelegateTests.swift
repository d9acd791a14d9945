import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct NSFetchedResultsControllerDelegateTests {
    /// A controller over `context`, fetched, with `recorder` as its delegate.
    func tracking(_ request: NSFetchRequest<Dish>, in context: NSManagedObjectContext, sections: String? = nil,
                  recorder: ChangeRecorder) throws -> NSFetchedResultsController<Dish> {
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: sections, cacheName: nil)
        controller.delegate = recorder
        try controller.performFetch()
        return controller
    }

    @Test("inserts, deletes and updates in the context are reported at processPendingChanges: deletes at old index paths, inserts at new ones")
    func sameContextChanges() throws {
        let stack = try Menu.stack()
        let dishes = Menu.add([("A", "x", 1), ("C", "x", 1), ("E", "x", 1)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        let controller = try tracking(Menu.byTitle(), in: stack.context, recorder: recorder)

        Menu.add([("B", "x", 1)], to: stack.context)
        stack.context.delete(dishes[2])
        dishes[1].rating = 5
        #expect(recorder.events.isEmpty)
        stack.context.processPendingChanges()

        #expect(recorder.events == [
            .willChange,
            .object("E", [0, 2], .delete, nil),
            .object("B", nil, .insert, [0, 1]),
            .object("C", [0, 1], .update, [0, 2]),
            .didChange,
        ])
        #expect(controller.fetchedObjects?.map(\.title) == ["A", "B", "C"])
        #expect(recorder.controllers.first == controller)
    }

    @Test("objects inserted and not yet saved are tracked: a later edit is an update, deleting one is a delete")
    func unsavedObjects() throws {
        let stack = try Menu.stack()
        let recorder = ChangeRecorder()
        let controller = try tracking(Menu.byTitle(), in: stack.context, recorder: recorder)
        let dishes = Menu.add([("B", "x", 1), ("A", "x", 1)], to: stack.context)
        stack.context.processPendingChanges()
        #expect(recorder.events == [
            .willChange, .object("A", nil, .insert, [0, 0]), .object("B", nil, .insert, [0, 1]), .didChange,
        ])

        recorder.events = []
        dishes[1].rating = 3
        stack.context.delete(dishes[0])
        stack.context.processPendingChanges()
        #expect(recorder.events == [
            .willChange, .object("B", [0, 1], .delete, nil), .object("A", [0, 0], .update, [0, 0]), .didChange,
        ])
        #expect(controller.fetchedObjects?.map(\.title) == ["A"])
    }

    @Test("an object whose sort key changes is reported as a move; the objects it passes are not reported")
    func move() throws {
        let stack = try Menu.stack()
        let dishes = Menu.add([("A", "x", 1), ("B", "x", 1), ("C", "x", 1), ("D", "x", 1)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        let controller = try tracking(Menu.byTitle(), in: stack.context, recorder: recorder)

        dishes[0].title = "E"
        stack.context.processPendingChanges()
        #expect(recorder.events == [.willChange, .object("E", [0, 0], .move, [0, 3]), .didChange])
        #expect(controller.fetchedObjects?.map(\.title) == ["B", "C", "D", "E"])
    }

    @Test("objects that start or stop matching the predicate are inserted or deleted")
    func predicateMembership() throws {
        let stack = try Menu.stack()
        let dishes = Menu.add([("A", "x", 5), ("B", "x", 1), ("C", "x", 5)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        let controller = try tracking(Menu.byTitle(predicate: NSPredicate(format: "rating >= %d", 3)),
                                      in: stack.context, recorder: recorder)
        #expect(controller.fetchedObjects?.map(\.title) == ["A", "C"])

        dishes[1].rating = 4
        dishes[2].rating = 0
        stack.context.processPendingChanges()
        #expect(recorder.events == [
            .willChange, .object("C", [0, 1], .delete, nil), .object("B", nil, .insert, [0, 1]), .didChange,
        ])
        #expect(controller.fetchedObjects?.map(\.title) == ["A", "B"])
    }

    @Test("a section appears for the first object of a new section name and disappears with its last object, before object changes")
    func sectionsAppearAndDisappear() throws {
        let stack = try Menu.stack()
        let dishes = Menu.add([("Crêpes", "French", 1), ("Risotto", "Italian", 1)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        let controller = try tracking(Menu.request(), in: stack.context, sections: "cuisine", recorder: recorder)

        stack.context.delete(dishes[0])
        Menu.add([("Pad Thai", "Thai", 1)], to: stack.context)
        stack.context.processPendingChanges()
        #expect(recorder.events == [
            .willChange,
            .section("French", 0, .delete),
            .section("Thai", 1, .insert),
            .object("Crêpes", [0, 0], .delete, nil),
            .object("Pad Thai", nil, .insert, [1, 0]),
            .didChange,
        ])
        #expect(controller.sections?.map(\.name) == ["Italian", "Thai"])

        recorder.events = []
        dishes[1].cuisine = "Umbrian"
        stack.context.processPendingChanges()
        #expect(recorder.events == [
            .willChange,
            .section("Italian", 0, .delete),
            .section("Umbrian", 1, .insert),
            .object("Risotto", [0, 0], .move, [1, 0]),
            .didChange,
        ])
        #expect(controller.titlesBySection == [["Pad Thai"], ["Risotto"]])
    }

    @Test("changes saved in a background context reach the controller through mergeChanges(fromContextDidSave:)")
    func mergedSave() throws {
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add([("A", "x", 1), ("B", "x", 1), ("C", "x", 1)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        // Realized objects: the recorder reads the deleted dish's title, which a fault of a
        // deleted row could not give.
        let request = Menu.byTitle()
        request.returnsObjectsAsFaults = false
        let controller = try tracking(request, in: stack.context, recorder: recorder)

        let background = stack.newContext()
        let recorded = NotificationRecorder(object: background)
        try background.performAndWait {
            let theirs = try background.fetch(Menu.byTitle())
            background.delete(theirs[0])
            theirs[2].rating = 7
            Menu.add([("D", "x", 1)], to: background)
            try background.save()
        }
        let saved = try #require(recorded.notifications.last { $0.name == .NSManagedObjectContextDidSave })
        stack.context.mergeChanges(fromContextDidSave: saved)

        #expect(recorder.events == [
            .willChange,
            .object("A", [0, 0], .delete, nil),
            .object("D", nil, .insert, [0, 2]),
            .object("C", [0, 2], .update, [0, 1]),
            .didChange,
        ])
        #expect(controller.fetchedObjects?.map(\.title) == ["B", "C", "D"])
        #expect(controller.fetchedObjects?.last?.rating == 1)
        #expect(controller.fetchedObjects?[1].rating == 7)
    }

    @Test("a context that automatically merges changes shows another context's save in its controller")
    func automaticMerge() throws {
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add([("B", "x", 1)], to: stack.context)
        try stack.context.save()
        let screen = stack.newContext()
        screen.automaticallyMergesChangesFromParent = true
        let recorder = ChangeRecorder()
        let controller = try screen.performAndWait {
            try tracking(Menu.byTitle(), in: screen, recorder: recorder)
        }
        try stack.context.performAndWait {
            Menu.add([("A", "x", 1)], to: stack.context)
            try stack.context.save()
        }
        // The merge was queued on the screen context's queue before this block.
        let titles = screen.performAndWait { controller.fetchedObjects?.map(\.title) }
        #expect(titles == ["A", "B"])
        #expect(recorder.events == [.willChange, .object("A", nil, .insert, [0, 0]), .didChange])
    }

    @Test("without a delegate the controller does not track: its results stay as fetched")
    func noDelegateNoTracking() throws {
        let stack = try Menu.stack()
        Menu.add([("A", "x", 1)], to: stack.context)
        let controller = NSFetchedResultsController(fetchRequest: Menu.byTitle(), managedObjectContext: stack.context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        Menu.add([("B", "x", 1)], to: stack.context)
        stack.context.processPendingChanges()
        #expect(controller.fetchedObjects?.map(\.title) == ["A"])
    }

    @Test("a delegate that takes snapshots gets the content after performFetch() and after each change, and no other callback")
    func snapshots() throws {
        final class SnapshotDelegate: NSObject, NSFetchedResultsControllerDelegate {
            var snapshots: [NSDiffableDataSourceSnapshot<String, NSManagedObjectID>] = []
            var otherCallbacks = 0
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                            didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
                snapshots.append(snapshot as NSDiffableDataSourceSnapshot<String, NSManagedObjectID>)
            }
            func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
                otherCallbacks += 1
            }
        }
        let stack = try Menu.stack()
        let dishes = Menu.add([("Crêpes", "French", 1), ("Risotto", "Italian", 1)], to: stack.context)
        try stack.context.save()
        let delegate = SnapshotDelegate()
        let controller = NSFetchedResultsController(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                                    sectionNameKeyPath: "cuisine", cacheName: nil)
        controller.delegate = delegate
        try controller.performFetch()
        #expect(delegate.snapshots.count == 1)
        #expect(delegate.snapshots.first?.sectionIdentifiers == ["French", "Italian"])

        let pasta = Menu.add([("Pasta", "Italian", 1)], to: stack.context)[0]
        stack.context.processPendingChanges()
        let last = try #require(delegate.snapshots.last)
        #expect(delegate.snapshots.count == 2)
        #expect(last.numberOfSections == 2 && last.numberOfItems == 3)
        #expect(last.itemIdentifiers(inSection: "Italian") == [pasta.objectID, dishes[1].objectID])
        #expect(last.sectionIdentifier(containingItem: dishes[0].objectID) == "French")
        #expect(last.indexOfItem(dishes[1].objectID) == 2)
        #expect(delegate.otherCallbacks == 0)
    }

    @Test("a delegate that takes differences gets the object IDs' CollectionDifference for a controller without sections")
    func differences() throws {
        final class DifferenceDelegate: NSObject, NSFetchedResultsControllerDelegate {
            var differences: [CollectionDifference<NSManagedObjectID>] = []
            var otherCallbacks = 0
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                            didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
                differences.append(diff)
            }
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
                otherCallbacks += 1
            }
        }
        let stack = try Menu.stack()
        let dishes = Menu.add([("A", "x", 1), ("C", "x", 1)], to: stack.context)
        try stack.context.save()
        let delegate = DifferenceDelegate()
        let controller = NSFetchedResultsController(fetchRequest: Menu.byTitle(), managedObjectContext: stack.context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = delegate
        try controller.performFetch()
        #expect(delegate.differences.isEmpty)

        let b = Menu.add([("B", "x", 1)], to: stack.context)[0]
        stack.context.delete(dishes[1])
        stack.context.processPendingChanges()
        let difference = try #require(delegate.differences.last)
        #expect(difference.insertions.map(offset) == [1])
        #expect(difference.removals.map(offset) == [1])
        if case let .insert(_, inserted, _)? = difference.insertions.first {
            #expect(inserted == b.objectID)
        } else {
            Issue.record("the difference inserts nothing")
        }
        #expect(delegate.otherCallbacks == 0)
    }
}

/// The offset of a change of a collection difference.
private func offset(_ change: CollectionDifference<NSManagedObjectID>.Change) -> Int {
    switch change {
    case let .insert(offset, _, _), let .remove(offset, _, _): return offset
    }
}
