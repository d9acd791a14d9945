import CoreData

// The singleton of Apple's article "Setting up a Core Data stack", unchanged but for two lines:
// `ObservableObject` (Combine, not on Linux) is dropped, and the class is marked
// `@unchecked Sendable` for Swift 6's check of the `shared` global (a command-line
// program uses it from the main thread only).

// Define a class to encapsulate all Core Data-related functionality.
final class CoreDataStack: @unchecked Sendable {
    static let shared = CoreDataStack()

    // Create a persistent container as a lazy variable to defer instantiation until its first use.
    lazy var persistentContainer: NSPersistentContainer = {

        // Pass the data model filename to the container's initializer.
        let container = NSPersistentContainer(name: "DataModel")

        // Load any persistent stores, which creates a store if none exists.
        container.loadPersistentStores { _, error in
            if let error {
                // Handle the error appropriately. However, it's useful to use
                // `fatalError(_:file:line:)` during development.
                fatalError("Failed to load persistent stores: \(error.localizedDescription)")
            }
        }
        return container
    }()

    private init() { }
}

extension CoreDataStack {
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

    func delete(item: ShoppingItem) {
        persistentContainer.viewContext.delete(item)
        save()
    }
}
