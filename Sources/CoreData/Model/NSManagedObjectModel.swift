import Foundation

/// A managed object model: the entities of an app, their properties and relationships,
/// configurations and fetch request templates.
///
/// A model is editable until a persistent store coordinator uses it; from then on it is
/// immutable, as Apple's is.
///
/// ```swift
/// let item = NSEntityDescription()
/// item.name = "ShoppingItem"
/// let model = NSManagedObjectModel()
/// model.entities = [item]
/// ```
///
/// ## Topics
/// ### Entities
/// - ``entities``
/// - ``entitiesByName``
/// - ``entities(forConfigurationName:)``
/// ### Versioning
/// - ``entityVersionHashesByName``
/// - ``versionIdentifiers``
open class NSManagedObjectModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: editable only before a coordinator freezes it (under `lock`),
    // immutable afterwards.

    private var _entities: [NSEntityDescription] = []
    private var configurationMembers: [String: [NSEntityDescription]] = [:]
    private var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
    /// Template name → the `predicateString` of a model file's fetch request, kept raw
    /// until a predicate parser turns it into the template's `predicate`.
    var fetchRequestTemplatePredicateStrings: [String: String] = [:]
    private let lock = NSLock()
    private(set) var isFrozen = false
    /// Entities by store number (`Z_ENT`), filled when the model is frozen.
    var entitiesByStoreID: [Int: NSEntityDescription] = [:]
    /// The `.xcdatamodeld` (or lone `.xcdatamodel`) folder this model was loaded from,
    /// when it came from a model bundle: lightweight migration looks for the store's
    /// source model among the other versions of that bundle.
    var bundleURL: URL?
    /// Why a model search found nothing, on the empty model that stands in for the missing
    /// one (`NSPersistentContainer(name:)` reports it when its stores load).
    var locatorError: Error?

    /// The model's version identifiers (`userDefinedModelVersionIdentifier` in model files);
    /// a store records them in its metadata.
    open var versionIdentifiers: Set<AnyHashable> = []
    /// Localized names of entities and properties, for messages shown to users.
    ///
    /// - Note: Apple parity: kept, not used: error messages here use the model's names.
    open var localizationDictionary: [String: String]?

    public override init() { super.init() }

    /// Merges the entities of several models into one.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        self.init()
        var entities: [NSEntityDescription] = []
        var names = Set<String>()
        for model in models ?? [] {
            for entity in model.entities {
                guard let name = entity.name, names.insert(name).inserted else { return nil }
                entities.append(entity)
            }
            for (name, members) in model.configurationMembers {
                configurationMembers[name, default: []].append(contentsOf: members)
            }
            for (name, template) in model.templates { templates[name] = template }
            for (name, text) in model.fetchRequestTemplatePredicateStrings {
                fetchRequestTemplatePredicateStrings[name] = text
            }
            versionIdentifiers.formUnion(model.versionIdentifiers)
        }
        _entities = entities
        for entity in entities { entity.managedObjectModel = self }
    }

    // MARK: - Entities

    /// Whether the model can still change (no coordinator uses it yet).
    open var isEditable: Bool { !isFrozen }

    /// Every entity of the model, sub-entities included.
    open var entities: [NSEntityDescription] {
        get { _entities }
        set {
            assertEditable()
            for entity in newValue { entity.managedObjectModel = self }
            _entities = newValue
        }
    }

    /// The entities, by name.
    open var entitiesByName: [String: NSEntityDescription] {
        Dictionary(_entities.compactMap { e in e.name.map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - Configurations

    /// The names of the model's configurations (subsets of its entities that a store can be
    /// limited to), sorted.
    open var configurations: [String] { configurationMembers.keys.sorted() }

    /// The entities of a configuration; `nil` or `"Default"` means every entity.
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        guard let configuration, configuration != "Default", configuration != "PF_DEFAULT_CONFIGURATION_NAME" else {
            return _entities
        }
        return configurationMembers[configuration]
    }

    /// Makes `configuration` hold exactly `entities`.
    open func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        assertEditable()
        configurationMembers[configuration] = entities
    }

    // MARK: - Fetch request templates

    /// The model's stored fetch requests (`fetchRequest` elements of model files), by name.
    open var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] { templates }

    /// The stored fetch request named `name`, or nil.
    open func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        templates[name]
    }

    /// Stores (or, with nil, removes) a fetch request under `name`.
    open func setFetchRequestTemplate(_ fetchRequest: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        assertEditable()
        templates[name] = fetchRequest
    }

    // MARK: - Version hashes

    /// Entity name → the entity's version hash: what a store's metadata records.
    open var entityVersionHashesByName: [String: Data] {
        Dictionary(_entities.compactMap { e in e.name.map { ($0, e.versionHash) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Whether a store whose metadata is `metadata` can be opened with this model's
    /// configuration: every entity's version hash must match.
    open func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return false }
        let entities = self.entities(forConfigurationName: configuration) ?? []
        let ours = Dictionary(entities.compactMap { e in e.name.map { ($0, e.versionHash) } }, uniquingKeysWith: { a, _ in a })
        guard ours.count == stored.count else { return false }
        for (name, hash) in ours {
            guard let theirs = stored[name] else { return false }
            let data = (theirs as? Data) ?? (theirs as? NSData).map { Data(referencing: $0) }
            if data != hash { return false }
        }
        return true
    }

    // MARK: - Freezing

    func assertEditable() {
        if isFrozen { coreDataMisuse("Can't modify an immutable model.") }
    }

    /// Makes the model immutable and builds each entity's runtime (layout, `Z_ENT`).
    /// Called by the coordinator; idempotent and thread-safe.
    func freeze() throws {
        lock.lock()
        defer { lock.unlock() }
        if isFrozen { return }
        try ModelFreezer(model: self).freeze()
        isFrozen = true
    }
}
