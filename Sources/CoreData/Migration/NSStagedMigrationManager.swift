import Foundation

/// Runs a migration in stages: a store written with an older model version is brought to
/// the current one step by step, each step a lightweight migration, with your code before
/// and after the steps of ``NSCustomMigrationStage``s.
///
/// Give the manager to the store's description under
/// `NSPersistentStoreStagedMigrationManagerOptionKey`; the stages run when the store is
/// added, before it opens.
///
/// ```swift
/// let toV2 = NSLightweightMigrationStage([v1.versionChecksum])
/// let toV3 = NSCustomMigrationStage(
///     migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
///     to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
/// toV3.didMigrateHandler = { manager, _ in
///     let context = manager.container!.newBackgroundContext()
///     try context.performAndWait { /* fill the new attributes */ try context.save() }
/// }
/// let container = NSPersistentContainer(name: "Shop", managedObjectModel: v3)
/// container.persistentStoreDescriptions.first!.setOption(
///     NSStagedMigrationManager([toV2, toV3]), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
/// container.loadPersistentStores { _, error in /* … */ }
/// ```
///
/// The stages name a chain of model versions: each lightweight stage's versions, each
/// custom stage's current and next model, in the order of ``stages``, then the model the
/// store is added with. The store's version hashes say where on the chain it is; every step
/// from there to the end runs, in order. Each step is committed when it ends: a failure
/// leaves the store whole at the last version it reached, and adding it again resumes there.
///
/// - Note: Apple parity: each lightweight step builds the next version as a new file that
///   replaces the store (see Migration.md). A store matching no model of the chain fails
///   with `NSMigrationMissingSourceModelError` (134130).
///
/// ## Topics
/// - ``init(_:)``
/// - ``stages``
/// - ``container``
open class NSStagedMigrationManager: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the stages are immutable; `container` is set and read only on the
    // thread that adds the store, while the stages run.

    /// The stages, in the order they run.
    open private(set) var stages: [NSMigrationStage]
    /// While a custom stage's handler runs: a container whose store is loaded with the
    /// model the store has at that moment. Nil otherwise.
    open private(set) var container: NSPersistentContainer?

    /// A manager that runs `stages` in order.
    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }

    // MARK: - The chain of versions

    /// One model version of the chain, and the custom stage that leads from it to the next.
    struct Link {
        let model: NSManagedObjectModel
        let label: String
        var customStage: NSCustomMigrationStage?
    }

    /// The model versions the stages name, in order, ending with `destination`.
    ///
    /// - Throws: `NSManagedObjectModelReferenceNotFoundError` (134504) for a checksum or a
    ///   reference that names no model.
    func chain(to destination: NSManagedObjectModel) throws -> [Link] {
        var links: [Link] = []
        func append(_ model: NSManagedObjectModel, _ label: String) throws {
            try model.freeze()
            if let last = links.last, Self.sameVersion(last.model, model) { return }
            links.append(Link(model: model, label: label))
        }
        let known = try knownModels(destination)
        for (index, stage) in stages.enumerated() {
            let label = stage.label ?? "stage \(index + 1)"
            switch stage {
            case let custom as NSCustomMigrationStage:
                try append(try custom.currentModel.resolve(), label)
                links[links.count - 1].customStage = custom
                let next = try custom.nextModel.resolve()
                try next.freeze()
                links.append(Link(model: next, label: label))
            case let lightweight as NSLightweightMigrationStage:
                for checksum in lightweight.versionChecksums {
                    guard let model = known.first(where: { $0.versionChecksum == checksum }) else {
                        throw CoreDataError.make(
                            NSManagedObjectModelReferenceNotFoundError,
                            "The lightweight stage \(label) names a model version with the checksum \(checksum), "
                                + "but no model the stages reference, no version of the destination model's bundle "
                                + "and no model of the main bundle has that checksum.")
                    }
                    try append(model, label)
                }
            default:
                throw CoreDataError.make(
                    NSMigrationError, "The stage \(label) is neither an NSLightweightMigrationStage nor an NSCustomMigrationStage.")
            }
        }
        try append(destination, "the destination model")
        return links
    }

    /// The models a lightweight stage's checksums are looked for in: the custom stages'
    /// models, the destination, the other versions of the destination's model file, and every
    /// model file of the main bundle.
    private func knownModels(_ destination: NSManagedObjectModel) throws -> [NSManagedObjectModel] {
        var models: [NSManagedObjectModel] = []
        for case let custom as NSCustomMigrationStage in stages {
            models.append(try custom.currentModel.resolve())
            models.append(try custom.nextModel.resolve())
        }
        models.append(destination)
        let checksums = stages.compactMap { $0 as? NSLightweightMigrationStage }.flatMap(\.versionChecksums)
        let present = Set(models.map(\.versionChecksum))
        guard checksums.contains(where: { !present.contains($0) }) else { return models }
        var files = ModelLocator.modelURLs(in: [Bundle.main])
        if let bundleURL = destination.bundleURL { files.insert(bundleURL, at: 0) }
        for checksum in checksums where !present.contains(checksum) {
            for file in files {
                if let model = try? NSManagedObjectModelReference(fileURL: file, versionChecksum: checksum).resolve() {
                    models.append(model)
                    break
                }
            }
        }
        return models
    }

    /// Whether two models describe the same version (the same entity version hashes).
    static func sameVersion(_ a: NSManagedObjectModel, _ b: NSManagedObjectModel) -> Bool {
        a === b || a.entityVersionHashesByName == b.entityVersionHashesByName
    }

    // MARK: - Running the stages

    /// Runs every step from the store's version to `model`'s.
    ///
    /// - Throws: 134130 when the store matches no version of the chain, 134506 when the
    ///   store is newer than `model` on the chain, 134504 for a model that can't be found,
    ///   134190 when a step's mapping can't be inferred, and 134110 (cause under
    ///   `NSUnderlyingErrorKey`) when a handler throws or a step fails.
    func runStages(at url: URL, options: [AnyHashable: Any], toModel model: NSManagedObjectModel) throws {
        let metadata = try SQLiteStoreBackend.readMetadata(at: url, options: options)
        if model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return }
        let links = try chain(to: model)
        guard let start = links.lastIndex(where: {
            $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }) else {
            throw CoreDataError.make(
                NSMigrationMissingSourceModelError,
                "The store at \(url.path) was written with a model version that none of the staged migration's "
                    + "\(stages.count) stages names.",
                userInfo: ["metadata": metadata, NSFilePathErrorKey: url.path])
        }
        if let destinationIndex = links.firstIndex(where: { Self.sameVersion($0.model, model) }), destinationIndex < start {
            throw CoreDataError.make(
                NSStagedMigrationBackwardMigrationError,
                "The store at \(url.path) is at a later version of the staged migration (\(links[start].label)) "
                    + "than the model it is added with.")
        }
        let timeout = (options[NSPersistentStoreTimeoutOption] as? NSNumber)?.doubleValue
            ?? SQLiteStoreBackend.defaultBusyTimeout
        for index in start..<(links.count - 1) {
            let from = links[index], to = links[index + 1]
            if let stage = from.customStage, let handler = stage.willMigrateHandler {
                try withContainer(model: from.model, url: url, options: options, label: from.label) {
                    try handler(self, stage)
                }
            }
            do {
                let stored = try SQLiteStoreBackend.readMetadata(at: url, options: options)
                try SQLiteStoreBackend.migrateInferred(
                    storeAt: url, metadata: stored, from: from.model, to: to.model,
                    entities: to.model.entities(forConfigurationName: nil) ?? to.model.entities, busyTimeout: timeout)
            } catch let error as NSError {
                var info = error.userInfo
                info["NSMigrationStageLabel"] = from.customStage != nil ? from.label : to.label
                throw NSError(domain: error.domain, code: error.code, userInfo: info)
            }
            if let stage = from.customStage, let handler = stage.didMigrateHandler {
                try withContainer(model: to.model, url: url, options: options, label: from.label) {
                    try handler(self, stage)
                }
            }
        }
    }

    /// Loads the store at `url` with `model` in ``container`` (no migration), runs `body`,
    /// then removes the store again.
    private func withContainer(model: NSManagedObjectModel, url: URL, options: [AnyHashable: Any], label: String,
                               _ body: () throws -> Void) throws {
        let opened = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        for (key, value) in options {
            guard let key = key as? String, key != NSPersistentStoreStagedMigrationManagerOptionKey else { continue }
            description.setOption(Self.object(value), forKey: key)
        }
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        description.shouldAddStoreAsynchronously = false
        opened.persistentStoreDescriptions = [description]
        var loadError: Error?
        opened.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        container = opened
        defer {
            container = nil
            let coordinator = opened.persistentStoreCoordinator
            for store in coordinator.persistentStores { try? coordinator.remove(store) }
        }
        do {
            try body()
        } catch {
            throw CoreDataError.make(
                NSMigrationError, "A handler of the custom migration stage \(label) failed: \(error.localizedDescription)",
                userInfo: [NSUnderlyingErrorKey: error, "NSMigrationStageLabel": label, NSFilePathErrorKey: url.path])
        }
    }
}

extension NSStagedMigrationManager {
    /// A store option's value as the `NSObject` a description holds (options given to
    /// `addPersistentStore` directly may be plain Swift values).
    static func object(_ value: Any) -> NSObject? {
        switch value {
        case let object as NSObject: return object
        case let flag as Bool: return NSNumber(value: flag)
        case let number as Int: return NSNumber(value: number)
        case let number as Double: return NSNumber(value: number)
        case let text as String: return NSString(string: text)
        default: return nil
        }
    }
}

// MARK: - Running from the coordinator

extension NSStagedMigrationManager: StagedStoreMigration {
    func migrateStore(at url: URL, options: [AnyHashable: Any], toModel model: NSManagedObjectModel) throws {
        try runStages(at: url, options: options, toModel: model)
    }
}
