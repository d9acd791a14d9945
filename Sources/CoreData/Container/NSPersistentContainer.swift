import Foundation

/// The whole stack in one object: a model, a coordinator, its stores and a main-queue
/// `viewContext`.
///
/// ```swift
/// let container = NSPersistentContainer(name: "DataModel")
/// container.loadPersistentStores { _, error in
///     if let error { fatalError("Failed to load persistent stores: \(error.localizedDescription)") }
/// }
/// let context = container.viewContext
/// ```
///
/// `init(name:)` finds `<name>.xcdatamodeld` (see `ModelLocator` for the search order).
/// The default store is `<defaultDirectoryURL()>/<name>.sqlite`.
///
/// ## Topics
/// - ``init(name:)``
/// - ``init(name:managedObjectModel:)``
/// - ``loadPersistentStores(completionHandler:)``
/// - ``viewContext``
/// - ``newBackgroundContext()``
/// - ``performBackgroundTask(_:)``
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: `persistentStoreDescriptions` is set up before loading; the
    // coordinator is thread-safe; `viewContext` is confined to the main queue.

    public let name: String
    public let managedObjectModel: NSManagedObjectModel
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]
    /// Why `init(name:)` found no model, reported by `loadPersistentStores`.
    private let modelError: Error?

    /// The main-queue context (see `NSManagedObjectContext.perform` for command-line use).
    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// Creates a container with the model named `name`.
    ///
    /// - Note: Apple parity: when no model is found Apple logs and continues with an
    ///   empty model; we do the same, and `loadPersistentStores` reports the error, naming
    ///   every place searched.
    public convenience init(name: String) {
        do {
            let model = try ModelLocator.model(named: name)
            self.init(name: name, managedObjectModel: model, modelError: nil)
        } catch {
            self.init(name: name, managedObjectModel: NSManagedObjectModel(), modelError: error)
        }
    }

    public convenience init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.init(name: name, managedObjectModel: model, modelError: nil)
    }

    private init(name: String, managedObjectModel model: NSManagedObjectModel, modelError: Error?) {
        self.name = name
        self.managedObjectModel = model
        self.modelError = modelError
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
        self.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        super.init()
    }

    /// Where stores go by default: `$XDG_DATA_HOME/<program>`, else
    /// `$HOME/.local/share/<program>` (the XDG base directory rules), created when the
    /// first store loads. Without `$HOME`, the home folder of the user's account is used.
    ///
    /// - Note: Apple parity: Apple uses the app's Application Support folder.
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        // XDG: a relative $XDG_DATA_HOME is invalid and ignored. Foundation's
        // homeDirectoryForCurrentUser reads the account database, not $HOME.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        let program = ProcessInfo.processInfo.processName
        return base.appendingPathComponent(program.isEmpty ? "CoreData" : program, isDirectory: true)
    }

    /// Adds every described store; calls `block` once per description, with the error
    /// if that store could not be added.
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, Error?) -> Void) {
        for description in persistentStoreDescriptions {
            if description.shouldAddStoreAsynchronously {
                let box = UncheckedSendableBox((self, description, block))
                DispatchQueue.global().async {
                    // Not `let (a, b, c) = box.value`: in -O builds Swift 6.3.1's
                    // CopyPropagation pass crashes on that destructuring.
                    let value = box.value
                    value.2(value.1, value.0.load(value.1))
                }
            } else {
                block(description, load(description))
            }
        }
    }

    private func load(_ description: NSPersistentStoreDescription) -> Error? {
        if let modelError { return modelError }
        do {
            var options: [AnyHashable: Any] = [:]
            for (key, value) in description.options { options[key] = value }
            // The SQLite store creates its folder itself (unless read-only, when nothing
            // may be written), and names that folder if it cannot.
            try persistentStoreCoordinator.addPersistentStore(
                ofType: description.type, configurationName: description.configuration,
                at: description.url, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new background context's queue.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its result.
    open func performBackgroundTask<T, E: Error>(_ block: sending @escaping (NSManagedObjectContext) throws(E) -> T) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try block(context) }
    }
}
