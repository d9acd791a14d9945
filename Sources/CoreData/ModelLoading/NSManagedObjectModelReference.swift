import Foundation

/// Names one version of a managed object model by its ``NSManagedObjectModel/versionChecksum``
/// and says where to find it: a model in memory, a model file, a model by name in a bundle,
/// or the model whose entity hashes a store's metadata lists.
///
/// Staged migration describes each step between two references; the model is found
/// (``resolvedModel``) only when it is needed.
///
/// ```swift
/// let v1 = NSManagedObjectModelReference(name: "Shop", in: .module,
///                                        versionChecksum: "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
/// let model = v1.resolvedModel
/// ```
///
/// ## Topics
/// ### Creating a reference
/// - ``init(model:versionChecksum:)``
/// - ``init(fileURL:versionChecksum:)``
/// - ``init(name:in:versionChecksum:)``
/// - ``init(entityVersionHashes:in:versionChecksum:)``
/// ### Resolving
/// - ``resolvedModel``
/// - ``versionChecksum``
open class NSManagedObjectModelReference: NSObject, @unchecked Sendable {
    // @unchecked Sendable: `resolved` is guarded by `lock`; the source is immutable.

    private enum Source {
        case model(NSManagedObjectModel)
        case file(URL)
        case name(String, Bundle?)
        case hashes([AnyHashable: Any], Bundle?)
    }

    private let source: Source
    private let lock = NSLock()
    private var resolved: NSManagedObjectModel?

    /// The checksum the referenced model must have.
    public let versionChecksum: String

    /// A reference to `model`, which must have the checksum `versionChecksum`.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        source = .model(model)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model file at `fileURL`: a compiled `.mom`/`.momd` or an Xcode
    /// `.xcdatamodeld`/`.xcdatamodel` (every version of a versioned model is a candidate).
    public init(fileURL: URL, versionChecksum: String) {
        source = .file(fileURL)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the version of the model called `modelName` in `bundle` (the main
    /// bundle when nil) whose checksum is `versionChecksum`.
    public init(name modelName: String, in bundle: Bundle?, versionChecksum: String) {
        source = .name(modelName, bundle)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// A reference to the model in `bundle` (the main bundle when nil) whose entities have
    /// the version hashes `versionHash` (entity name → hash, as a store's metadata lists them).
    public init(entityVersionHashes versionHash: [AnyHashable: Any], in bundle: Bundle?, versionChecksum: String) {
        source = .hashes(versionHash, bundle)
        self.versionChecksum = versionChecksum
        super.init()
    }

    /// The referenced model, found on first use.
    ///
    /// Stops the program when no model with ``versionChecksum`` can be found, as Apple's
    /// raises (the store opening paths use a throwing lookup instead, and report 134504).
    open var resolvedModel: NSManagedObjectModel {
        do {
            return try resolve()
        } catch {
            coreDataMisuse("NSManagedObjectModelReference: \((error as NSError).localizedDescription)")
        }
    }

    /// The throwing twin of ``resolvedModel``.
    ///
    /// - Throws: `NSManagedObjectModelReferenceNotFoundError` (134504) naming the checksum
    ///   and where the model was looked for.
    func resolve() throws -> NSManagedObjectModel {
        lock.lock()
        defer { lock.unlock() }
        if let resolved { return resolved }
        let candidates: [NSManagedObjectModel]
        let place: String
        switch source {
        case .model(let model):
            candidates = [model]
            place = "the given model"
        case .file(let url):
            candidates = Self.versions(at: url)
            place = url.path
        case .name(let name, let bundle):
            let locations = ModelLocator.defaultLocations(bundle: bundle ?? .main)
            var urls: [URL] = []
            for location in locations {
                for ext in ["momd", "mom", "xcdatamodeld", "xcdatamodel"] {
                    let url = location.directory.appendingPathComponent(name).appendingPathExtension(ext)
                    if FileManager.default.fileExists(atPath: url.path) { urls.append(url) }
                }
            }
            candidates = urls.flatMap(Self.versions(at:))
            place = "the model \(name) in \((bundle ?? .main).bundlePath)"
        case .hashes(let hashes, let bundle):
            let metadata: [String: Any] = [NSStoreModelVersionHashesKey: Dictionary(
                hashes.compactMap { key, value in (key.base as? String).map { ($0, value) } },
                uniquingKeysWith: { a, _ in a })]
            candidates = NSManagedObjectModel.mergedModel(from: [bundle ?? .main], forStoreMetadata: metadata).map { [$0] } ?? []
            place = "the models of \((bundle ?? .main).bundlePath)"
        }
        guard let model = candidates.first(where: { $0.versionChecksum == versionChecksum }) else {
            throw CoreDataError.make(
                NSManagedObjectModelReferenceNotFoundError,
                "No model with the version checksum \(versionChecksum) was found in \(place).")
        }
        resolved = model
        return model
    }

    /// Every version of the model file at `url`.
    private static func versions(at url: URL) -> [NSManagedObjectModel] {
        if CompiledModelFile.exists(url) {
            return ((try? CompiledModelFile.allModels(url)) ?? []).map(\.model)
        }
        guard let bundle = try? ModelBundle.open(url), let all = try? bundle.allModels() else { return [] }
        return all.map(\.1)
    }
}
