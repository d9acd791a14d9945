import CoreData
import CoreDataTestSupport
import Testing

// The Swift snippets of Apple's "Setting up a Core Data stack" documents (the project's
// seed documents), with only `import CoreData` and the model's location adapted: they
// compile against this module and run against a real SQLite file.

/// The seeds' singleton, minus `ObservableObject` (Combine is not on Linux) and with the
/// demo's model from the repository instead of the app bundle.
final class SeedCoreDataStack: @unchecked Sendable {
    let storeDirectory: URL

    init(storeDirectory: URL) { self.storeDirectory = storeDirectory }

    lazy var persistentContainer: NSPersistentContainer = {
        // Pass the data model filename to the container's initializer.
        let container = NSPersistentContainer(name: "DataModel", managedObjectModel: SeedModel.load())
        container.persistentStoreDescriptions.first?.url = storeDirectory.appendingPathComponent("DataModel.sqlite")
        // Load any persistent stores, which creates a store if none exists.
        container.loadPersistentStores { _, error in
            if let error {
                fatalError("Failed to load persistent stores: \(error.localizedDescription)")
            }
        }
        return container
    }()
}

extension SeedCoreDataStack {
    // Add a convenience method to commit changes to the store.
    func save() {
        // Verify that the context has uncommitted changes.
        guard persistentContainer.viewContext.hasChanges else { return }
        do {
            // Attempt to save changes.
            try persistentContainer.viewContext.save()
        } catch {
            // Handle the error appropriately.
            print("Failed to save the context:", error.localizedDescription)
        }
    }

    func delete(item: NSManagedObject) {
        persistentContainer.viewContext.delete(item)
        save()
    }
}

/// The demo's DataModel.xcdatamodeld, in the repository.
enum SeedModel {
    static var bundleURL: URL { Repository.demoModel }

    static func load() -> NSManagedObjectModel {
        NSManagedObjectModel(contentsOf: bundleURL)!
    }
}

@Suite struct SeedSnippetTests {
    @Test("the seeds' CoreDataStack singleton saves, deletes and persists across stacks")
    func coreDataStackSingleton() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let stack = SeedCoreDataStack(storeDirectory: directory)
        let context = stack.persistentContainer.viewContext
        let milk = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        milk.setValue("Milk", forKey: "name")
        milk.setValue(Date(), forKey: "addedAt")
        let bread = NSEntityDescription.insertNewObject(forEntityName: "ShoppingItem", into: context)
        bread.setValue("Bread", forKey: "name")
        bread.setValue(Date(), forKey: "addedAt")
        stack.save()
        stack.delete(item: bread)

        let again = SeedCoreDataStack(storeDirectory: directory)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        let names = try again.persistentContainer.viewContext.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["Milk"])
    }

    @Test("the manual set-up: model from a URL, coordinator, both addPersistentStore spellings, main-queue context")
    func manualSetUp() throws {
        // Get a URL to the model (adapted: the .momd Xcode would compile is the
        // .xcdatamodeld beside it; NSManagedObjectModel(contentsOf:) makes that step).
        let modelURL = SeedModel.bundleURL.deletingPathExtension().appendingPathExtension("momd")
        // Use the URL to create a managed object model.
        guard let managedObjectModel = NSManagedObjectModel(contentsOf: modelURL) else {
            Issue.record("Failed to create model from file: \(modelURL)")
            return
        }
        // Use the managed object model to create a persistent store coordinator.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        let temporary = try TemporaryDirectory()
        let documentDirectoryURL = temporary.url
        // Create a URL to the data store.
        guard let storeURL = URL(string: "DataModel.sqlite", relativeTo: documentDirectoryURL) else {
            Issue.record("Failed to create store URL")
            return
        }
        // Set the options to enable lightweight data migrations.
        let options = [NSMigratePersistentStoresAutomaticallyOption: true,
                       NSInferMappingModelAutomaticallyOption: true]
        // Add the store to the coordinator.
        _ = try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: options)
        // The older spelling, for a second store file.
        let fileURL = URL(string: "DataModel.sql", relativeTo: documentDirectoryURL)
        let psc = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        try psc.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: fileURL, options: nil)

        // Create a context to interact with managed objects.
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        // Assign the coordinator to the context.
        context.persistentStoreCoordinator = coordinator
        let moc = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        moc.persistentStoreCoordinator = psc
        #expect(coordinator.persistentStores.count == 1)
        #expect(psc.persistentStores.first?.url?.lastPathComponent == "DataModel.sql")

        // Fetching objects, as the Objective-C walk-through does.
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "ShoppingItem")
        let results = try context.fetch(request)
        #expect(results.isEmpty)
    }
}
