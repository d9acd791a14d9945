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
/// ### Copying and archiving
/// - ``copy(with:)``
/// - ``encode(with:)``
/// - ``init(coder:)``
open class NSManagedObjectModel: NSObject, NSCopying, NSCoding, @unchecked Sendable {
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
    /// ``entitiesByName`` as it stands when the model is frozen (it cannot change
    /// afterwards), so that a fetch request naming its entity finds it without building
    /// the dictionary again.
    var frozenEntitiesByName: [String: NSEntityDescription] = [:]
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
        LoadedModels.shared.note(self)
    }

    /// For the version hashes in a store's `metadata` (its ``NSStoreModelVersionHashesKey``),
    /// a model made of the entities of `models` whose names and version hashes match;
    /// `nil` when some entity of the store has no match.
    ///
    /// `models` may hold several versions of the same entity (every version of a model
    /// bundle, say): the first entity whose version hash matches is taken. The new model
    /// holds copies of the chosen entities, their relationships pointing at one another,
    /// so the models passed in are left as they were.
    public convenience init?(byMerging models: [NSManagedObjectModel], forStoreMetadata metadata: [String: Any]) {
        self.init()
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Any] else { return nil }
        var chosen: [(original: NSEntityDescription, copy: NSEntityDescription)] = []
        for (name, value) in stored.sorted(by: { $0.key < $1.key }) {
            let hash = (value as? Data) ?? (value as? NSData).map { Data(referencing: $0) }
            let candidates = models.flatMap(\.entities).filter { $0.name == name }
            guard let match = candidates.first(where: { $0.versionHash == hash }) else { return nil }
            chosen.append((match, match.shallowCopy()))
        }
        let copies = Dictionary(chosen.map { ($0.copy.name ?? "", $0.copy) }, uniquingKeysWith: { a, _ in a })
        for (original, copy) in chosen {
            copy.subentities = original.subentities.compactMap { $0.name.flatMap { copies[$0] } }
        }
        _entities = chosen.map(\.copy)
        for entity in _entities { entity.managedObjectModel = self }
        resolveReferencesByName(repointing: true)
        for model in models {
            versionIdentifiers.formUnion(model.versionIdentifiers)
            for (name, members) in model.configurationMembers {
                let kept = members.compactMap { $0.name.flatMap { copies[$0] } }
                if !kept.isEmpty, configurationMembers[name] == nil { configurationMembers[name] = kept }
            }
        }
        guard isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else { return nil }
    }

    // MARK: - Copying

    /// A deep copy that no coordinator uses yet, so it is editable even when this model is
    /// not: copies of every entity and property (relationships pointing at the copied
    /// entities), configurations, fetch request templates, version identifiers and the
    /// localization dictionary.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel()
        var map: [ObjectIdentifier: NSEntityDescription] = [:]
        for entity in _entities { map[ObjectIdentifier(entity)] = entity.shallowCopy() }
        func copied(_ entity: NSEntityDescription) -> NSEntityDescription? { map[ObjectIdentifier(entity)] }
        for entity in _entities {
            copied(entity)?.subentities = entity.subentities.compactMap(copied)
        }
        copy._entities = _entities.compactMap(copied)
        for entity in copy._entities {
            entity.managedObjectModel = copy
            entity.repointRelationships(map)
        }
        copy.configurationMembers = configurationMembers.mapValues { $0.compactMap(copied) }
        copy.templates = templates.compactMapValues { $0.copy() as? NSFetchRequest<NSFetchRequestResult> }
        copy.fetchRequestTemplatePredicateStrings = fetchRequestTemplatePredicateStrings
        copy.versionIdentifiers = versionIdentifiers
        copy.localizationDictionary = localizationDictionary
        copy.bundleURL = bundleURL
        copy.resolveReferencesByName(repointing: true)
        return copy
    }

    /// Points relationships at their destination and inverse, fetch request templates and
    /// fetched properties at their entity, by the names they carry (after a decode; with
    /// `repointing`, also where they point at an entity of another model, after a copy or
    /// a merge).
    func resolveReferencesByName(repointing: Bool = false) {
        let byName = entitiesByName
        func ours(_ entity: NSEntityDescription?) -> Bool {
            entity.map { e in _entities.contains { $0 === e } } ?? false
        }
        for entity in _entities {
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.entity === entity {
                let destinationName = relationship.destinationEntity?.name ?? relationship.destinationEntityName
                if relationship.destinationEntity == nil || (repointing && !ours(relationship.destinationEntity)),
                   let name = destinationName, let destination = byName[name] {
                    relationship.destinationEntity = destination
                }
                let inverseName = relationship.inverseRelationship?.name ?? relationship.inverseRelationshipName
                if let destination = relationship.destinationEntity, let inverseName,
                   relationship.inverseRelationship == nil
                    || (repointing && !ours(relationship.inverseRelationship?.entity)) {
                    relationship.inverseRelationship = destination.relationshipsByName[inverseName]
                }
            }
            for case let fetched as NSFetchedPropertyDescription in entity.properties where fetched.entity === entity {
                if let request = fetched.fetchRequest, let name = request.entityName,
                   request.entity == nil || (repointing && !ours(request.entity)), let target = byName[name] {
                    request.entity = target
                }
            }
        }
        for request in templates.values {
            if let name = request.entityName, request.entity == nil || (repointing && !ours(request.entity)),
               let target = byName[name] {
                request.entity = target
            }
        }
    }

    // MARK: - Archiving

    /// Archives the model with a keyed coder such as `NSKeyedArchiver`: its entities (with
    /// their properties), configurations, fetch request templates, version identifiers and
    /// localization dictionary.
    ///
    /// ```swift
    /// let data = try NSKeyedArchiver.archivedData(withRootObject: model, requiringSecureCoding: false)
    /// let copy = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data) as? NSManagedObjectModel
    /// ```
    ///
    /// - Note: Apple parity: references between entities (relationship destinations and
    ///   inverses, a sub-entity's parent, a template's entity) are archived by name, and
    ///   predicates as their format strings (Foundation on Linux can neither decode a
    ///   cycle of objects nor archive an `NSPredicate`); the decoded model resolves them.
    ///   The archive is not Apple's compiled `.mom` format.
    open func encode(with coder: NSCoder) {
        coder.encode(_entities, forKey: "NSEntities")
        var configurations: [String: [String]] = [:]
        for (name, members) in configurationMembers { configurations[name] = members.compactMap(\.name) }
        coder.encode(configurations, forKey: "NSConfigurations")
        coder.encode(templates.mapValues(FetchRequestArchive.init), forKey: "NSFetchRequestTemplates")
        coder.encode(Array(versionIdentifiers), forKey: "NSVersionIdentifiers")
        if let localizationDictionary { coder.encode(localizationDictionary, forKey: "NSLocalizationDictionary") }
    }

    /// Reads a model archived by ``encode(with:)``; the decoded model is editable.
    public required init?(coder: NSCoder) {
        super.init()
        _entities = coder.decodeObjectIfPresent(forKey: "NSEntities") as? [NSEntityDescription] ?? []
        for entity in _entities { entity.managedObjectModel = self }
        let byName = entitiesByName
        let configurations = coder.decodeObjectIfPresent(forKey: "NSConfigurations") as? [String: [String]] ?? [:]
        configurationMembers = configurations.mapValues { $0.compactMap { byName[$0] } }
        let archivedTemplates = coder.decodeObjectIfPresent(forKey: "NSFetchRequestTemplates") as? [String: FetchRequestArchive] ?? [:]
        templates = archivedTemplates.mapValues(\.request)
        let identifiers = coder.decodeObjectIfPresent(forKey: "NSVersionIdentifiers") as? [Any] ?? []
        versionIdentifiers = Set(identifiers.compactMap { $0 as? AnyHashable })
        localizationDictionary = coder.decodeObjectIfPresent(forKey: "NSLocalizationDictionary") as? [String: String]
        resolveReferencesByName()
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
        LoadedModels.shared.note(self)
    }
}
