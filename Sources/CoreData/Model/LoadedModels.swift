import Foundation

/// The models the process has loaded: read from model files, merged, or taken by a
/// persistent store coordinator. `NSManagedObject.entity()` searches them (newest first)
/// for the entity of a class, so a class finds its entity before any context exists, as on
/// Apple. Models are held weakly: one nobody uses drops out.
final class LoadedModels: @unchecked Sendable {
    // @unchecked Sendable: `models` is guarded by `lock`.
    static let shared = LoadedModels()

    private let lock = NSLock()
    private var models: [WeakModel] = []

    private struct WeakModel { weak var model: NSManagedObjectModel? }

    /// Adds `model` (once), as the newest.
    func note(_ model: NSManagedObjectModel) {
        lock.lock()
        defer { lock.unlock() }
        models.removeAll { $0.model == nil || $0.model === model }
        models.append(WeakModel(model: model))
    }

    /// The live models, oldest first.
    var all: [NSManagedObjectModel] {
        lock.lock()
        defer { lock.unlock() }
        return models.compactMap(\.model)
    }
}
