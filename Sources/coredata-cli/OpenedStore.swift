import Foundation
// ModelBundle (SPI Tools): Apple has no API that reads Xcode's model sources.
@_spi(Tools) import CoreData

/// A SQLite store opened for a subcommand with the version of a model bundle that matches
/// it, a coordinator and a private-queue context. Read-only unless asked otherwise: then
/// nothing is written in or beside the file (no `-wal`, no `-shm`), and what its `-wal`
/// holds is read.
struct OpenedStore {
    let url: URL
    let model: NSManagedObjectModel
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    /// Opens the store at `url` with the version of the bundle at `modelBundle` whose
    /// entity hashes match it (with the model the store caches in `Z_MODELCACHE` when
    /// `modelBundle` is nil); `options` go to `addPersistentStore` beside
    /// `NSReadOnlyPersistentStoreOption` (unless `readOnly` is false).
    init(storeAt url: URL, modelBundle: URL?, readOnly: Bool = true, options: [String: Any] = [:]) throws {
        let exists = FileManager.default.fileExists(atPath: url.path)
        if readOnly, !exists {
            throw Self.error(NSFileReadNoSuchFileError, "There is no store at \(url.path).", path: url.path)
        }
        self.url = url
        if let modelBundle {
            model = exists ? try Self.model(for: url, bundle: modelBundle)
                : try { let (bundle, designated) = try ModelBundle.resolve(modelBundle); return try bundle.model(forVersion: designated) }()
        } else {
            model = try NSManagedObjectModel(cachedInStoreAt: url)
        }
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        var storeOptions = options
        if readOnly { storeOptions[NSReadOnlyPersistentStoreOption] = true }
        store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: storeOptions)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    /// Closes the store.
    func close() {
        try? coordinator.remove(store)
    }

    /// The entity named `name`, or an error listing the model's entities.
    func entity(_ name: String) throws -> NSEntityDescription {
        guard let entity = model.entitiesByName[name] else {
            throw Self.error(NSCoreDataError,
                "The model has no entity \(name) (entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).",
                path: url.path)
        }
        return entity
    }

    /// The version of the bundle at `bundleURL` whose entity hashes match the store's
    /// metadata (the bundle's designated version when none matches exactly, so that the
    /// store's own open error explains the mismatch).
    static func model(for store: URL, bundle bundleURL: URL) throws -> NSManagedObjectModel {
        if ["momd", "mom"].contains(bundleURL.pathExtension.lowercased()),
           FileManager.default.fileExists(atPath: bundleURL.path) {
            // A compiled model: the version of any compiled model beside it that matches.
            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
            return try NSManagedObjectModel.mergedModel(
                from: [Bundle(path: bundleURL.deletingLastPathComponent().path) ?? .main], forStoreMetadata: metadata)
                ?? NSManagedObjectModel.load(contentsOf: bundleURL)
        }
        let (bundle, designated) = try ModelBundle.resolve(bundleURL)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        for name in [designated] + bundle.versionNames.filter({ $0 != designated }) {
            let model = try bundle.model(forVersion: name)
            if model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return model }
        }
        return try bundle.model(forVersion: designated)
    }

    /// An error in `NSCocoaErrorDomain` naming `path`.
    static func error(_ code: Int, _ description: String, path: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code,
                userInfo: [NSLocalizedDescriptionKey: description, NSFilePathErrorKey: path])
    }
}
