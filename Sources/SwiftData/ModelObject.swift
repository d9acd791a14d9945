import CoreData

/// The managed object behind every model instance: every SwiftData entity names this class,
/// so fetched rows come back as it, and it remembers the model instance that wraps it.
final class ModelObject: NSManagedObject {
    /// The instance that wraps this object (weak: the instance owns its object, not the
    /// other way round; a new instance is made when this one has gone).
    weak var model: (any PersistentModel)?

    static let className = String(reflecting: ModelObject.self)
    static let registered: Bool = {
        ModelObject.registerSubclass()
        return true
    }()
}
