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
/// - ``performBackgroundTask(_:)->()``
/// - ``performBackgroundTask(_:)->_``
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    // @unchecked Sendable: `persistentStoreDescriptions` is set up before loading; the
    // coordinator is thread-safe; `viewContext` is confined to the main queue.

    private let containerName: String
    private let model: NSManagedObjectModel
    private let coordinator: NSPersistentStoreCoordinator

    /// The container's name: the model's name for `init(name:)`, and the default store
    /// file's base name.
    open var name: String { containerName }
    /// The model of every store the container loads.
    open var managedObjectModel: NSManagedObjectModel { model }
    /// The coordinator the container's contexts share.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator { coordinator }
    /// The stores `loadPersistentStores(completionHandler:)` adds: one SQLite store at
    /// `defaultDirectoryURL()/<name>.sqlite` unless changed before loading.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]

    /// The main-queue context (see `NSManagedObjectContext.perform` for command-line use).
    open var viewContext: NSManagedObjectContext { mainContext }

    private lazy var mainContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// Creates a container with the model named `name`, through the designated
    /// ``init(name:managedObjectModel:)``: a subclass that overrides it, or that overrides
    /// ``defaultDirectoryURL()``, is used by this initializer too.
    ///
    /// - Note: Apple parity: when no model is found Apple logs and continues with an
    ///   empty model; we do the same, and `loadPersistentStores` reports the error, naming
    ///   every place searched.
    public convenience init(name: String) {
        do {
            self.init(name: name, managedObjectModel: try ModelLocator.model(named: name))
        } catch {
            let placeholder = NSManagedObjectModel()
            placeholder.locatorError = error
            self.init(name: name, managedObjectModel: placeholder)
        }
    }

    /// Creates a container for `model`; its default store is
    /// `<defaultDirectoryURL()>/<name>.sqlite` (the subclass's `defaultDirectoryURL()` when
    /// a subclass overrides it).
    ///
    /// ```swift
    /// final class TestContainer: NSPersistentContainer {
    ///     override class func defaultDirectoryURL() -> URL { scratchFolder }
    /// }
    /// let container = TestContainer(name: "Shop", managedObjectModel: model)
    /// ```
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.containerName = name
        self.model = model
        self.coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
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
            if let failure = preparationError(for: description) {
                guard description.shouldAddStoreAsynchronously else {
                    block(description, failure)
                    continue
                }
                let box = UncheckedSendableBox((description, failure, block))
                DispatchQueue.global().async {
                    // Not `let (a, b, c) = box.value`: in -O builds Swift 6.3.1's
                    // CopyPropagation pass crashes on that destructuring.
                    let value = box.value
                    value.2(value.0, value.1)
                }
                continue
            }
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// Why a description cannot be loaded before the coordinator sees it: no model was
    /// found. (The SQLite store creates its folder itself, unless read-only, when nothing may
    /// be written, and names that folder if it cannot.)
    private func preparationError(for description: NSPersistentStoreDescription) -> Error? {
        managedObjectModel.locatorError
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
