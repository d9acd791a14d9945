import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite(.serialized) struct NSFetchedResultsControllerCacheTests {
    /// Adds a dish to the store through a second coordinator, behind the back of every
    /// context of `stack`.
    func addBehindTheBack(_ title: String, to stack: TestStack) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: stack.storeURL, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            Menu.add([(title, "Italian", 1)], to: context)
            try context.save()
        }
    }

    func controller(_ stack: TestStack, predicate: NSPredicate? = nil, cacheName: String?) throws
        -> NSFetchedResultsController<Dish> {
        let controller = NSFetchedResultsController(fetchRequest: Menu.request(predicate: predicate),
                                                    managedObjectContext: stack.newContext(),
                                                    sectionNameKeyPath: "cuisine", cacheName: cacheName)
        try controller.performFetch()
        return controller
    }

    @Test("a controller with the cache name of an earlier one reads its sections from the cache until deleteCache(withName:)")
    func cachedSections() throws {
        let name = "Menu-\(UUID().uuidString)"
        defer { NSFetchedResultsController<Dish>.deleteCache(withName: name) }
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add([("Risotto", "Italian", 1), ("Crêpes", "French", 1)], to: stack.context)
        try stack.context.save()

        let first = try controller(stack, cacheName: name)
        #expect(first.cacheName == name)
        #expect(first.titlesBySection == [["Crêpes"], ["Risotto"]])
        try addBehindTheBack("Lasagne", to: stack)

        let cached = try controller(stack, cacheName: name)
        #expect(cached.titlesBySection == [["Crêpes"], ["Risotto"]])
        let uncached = try controller(stack, cacheName: nil)
        #expect(uncached.titlesBySection == [["Crêpes"], ["Lasagne", "Risotto"]])

        NSFetchedResultsController<Dish>.deleteCache(withName: name)
        let refetched = try controller(stack, cacheName: name)
        #expect(refetched.titlesBySection == [["Crêpes"], ["Lasagne", "Risotto"]])
    }

    @Test("a cache computed for another request is not used, and deleteCache(withName: nil) deletes every cache")
    func mismatchedAndDeletedCaches() throws {
        let name = "Menu-\(UUID().uuidString)"
        defer { NSFetchedResultsController<Dish>.deleteCache(withName: name) }
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add([("Risotto", "Italian", 1), ("Crêpes", "French", 1)], to: stack.context)
        try stack.context.save()
        _ = try controller(stack, cacheName: name)
        try addBehindTheBack("Lasagne", to: stack)

        let filtered = try controller(stack, predicate: NSPredicate(format: "cuisine == %@", "Italian"), cacheName: name)
        #expect(filtered.titlesBySection == [["Lasagne", "Risotto"]])
        try addBehindTheBack("Gnocchi", to: stack)
        #expect(try controller(stack, predicate: NSPredicate(format: "cuisine == %@", "Italian"), cacheName: name)
            .titlesBySection == [["Lasagne", "Risotto"]])

        NSFetchedResultsController<Dish>.deleteCache(withName: nil)
        #expect(try controller(stack, predicate: NSPredicate(format: "cuisine == %@", "Italian"), cacheName: name)
            .titlesBySection == [["Gnocchi", "Lasagne", "Risotto"]])
    }

    @Test("a controller with a cache name and a delegate keeps its cache up to date with the changes it tracks")
    func trackedCache() throws {
        let name = "Menu-\(UUID().uuidString)"
        defer { NSFetchedResultsController<Dish>.deleteCache(withName: name) }
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add([("Risotto", "Italian", 1)], to: stack.context)
        try stack.context.save()
        let recorder = ChangeRecorder()
        let tracked = NSFetchedResultsController(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                                 sectionNameKeyPath: "cuisine", cacheName: name)
        tracked.delegate = recorder
        try tracked.performFetch()
        Menu.add([("Crêpes", "French", 1)], to: stack.context)
        try stack.context.save()
        #expect(tracked.titlesBySection == [["Crêpes"], ["Risotto"]])
        try addBehindTheBack("Lasagne", to: stack)

        let cached = try controller(stack, cacheName: name)
        #expect(cached.titlesBySection == [["Crêpes"], ["Risotto"]])
    }
}
