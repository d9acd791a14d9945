import Foundation

/// What adding a SQLite store with a model would migrate, found without writing anything
/// in or beside the store: which entities' version hashes differ, which model version the
/// store was written with and where it was found, which mapping would run (a mapping model
/// file or an inferred mapping), what each entity mapping does, and every reason the
/// mapping can't be inferred. `coredata migrate --dry-run` prints it.
///
/// ```swift
/// let plan = try MigrationDryRun(storeAt: storeURL, model: newModel)
/// print(plan.report)
/// ```
///
/// - Note: Apple parity: Apple has no dry run; this is a tool of ours (SPI `Tools`).
@_spi(Tools) public struct MigrationDryRun: Sendable {
    /// How an entity's version hash differs between the store and the model.
    public enum HashChange: String, Sendable {
        case added, removed, changed
    }

    /// Which mapping a migration would use.
    public enum Mapping: Sendable, Equatable {
        /// The store already fits the model.
        case none
        /// A mapping model file (`.xcmappingmodel`) that fits both models.
        case file(URL)
        /// An inferred (lightweight) mapping.
        case inferred
        /// Inferred mappings through the model versions between the store's and the
        /// model's, in their bundle, one step per version (the straight mapping can't be
        /// inferred); the number of steps.
        case inferredThroughVersions(Int)
        /// No mapping: the source model is missing, or inference fails (see ``problems``).
        case unavailable
    }

    /// The store.
    public let storeURL: URL
    /// Entity name → how its hash differs (entities with equal hashes are left out).
    public let hashChanges: [String: HashChange]
    /// Where the model the store was written with was found, or nil when it wasn't.
    public let sourceModelOrigin: String?
    /// The mapping a migration would use.
    public let mapping: Mapping
    /// One line per entity mapping: its type, source and destination, and what it does
    /// with the properties that are not copied as they are.
    public let entityMappings: [String]
    /// Why the migration can't run: every entity and property inference refuses, or the
    /// missing source model.
    public let problems: [String]

    /// Whether the store needs a migration to be added with the model.
    public var needsMigration: Bool { !hashChanges.isEmpty }

    /// Plans the migration of the store at `url` to `model`. Reads the store's metadata and
    /// cached model only.
    ///
    /// - Throws: the error reading the store's metadata (no store, not a store).
    public init(storeAt url: URL, model: NSManagedObjectModel) throws {
        storeURL = url
        let metadata = try SQLiteStoreBackend.readMetadata(at: url)
        try model.freeze()
        let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let wanted = model.entityVersionHashesByName
        var changes: [String: HashChange] = [:]
        for name in Set(stored.keys).union(wanted.keys) {
            switch (stored[name], wanted[name]) {
            case (nil, _?): changes[name] = .added
            case (_?, nil): changes[name] = .removed
            case let (a?, b?) where a != b: changes[name] = .changed
            default: break
            }
        }
        hashChanges = changes
        guard !changes.isEmpty else {
            sourceModelOrigin = nil
            mapping = .none
            entityMappings = []
            problems = []
            return
        }
        var origin: String?
        var source = SQLiteStoreBackend.sourceModel(forStoreMetadata: metadata, destination: model)
        if source != nil {
            origin = model.bundleURL.map { "a version of \($0.lastPathComponent) or of the main bundle's models" }
                ?? "a model of the main bundle"
        } else if let cached = SQLiteStoreBackend.cachedSourceModel(at: url, forStoreMetadata: metadata) {
            source = cached
            origin = "the model cached in the store (Z_MODELCACHE)"
        }
        sourceModelOrigin = origin
        guard let source else {
            mapping = .unavailable
            entityMappings = []
            problems = ["The model the store was written with is not among the versions of the model's bundle, "
                        + "the main bundle's models, or the store's cached model (134130)."]
            return
        }
        try source.freeze()
        let folders = SQLiteStoreBackend.mappingSearchFolders(model, source)
        if let (file, found) = MappingModelFile.locate(in: folders, source: source, destination: model) {
            mapping = .file(file)
            entityMappings = found.entityMappings.map(Self.describe)
            problems = []
            return
        }
        let inference = MappingInference(source: source, destination: model)
        do {
            let inferred = try inference.infer()
            mapping = .inferred
            entityMappings = inferred.entityMappings.map(Self.describe)
            problems = []
        } catch let error as NSError {
            if let steps = Self.inferredSteps(from: source, to: model) {
                mapping = .inferredThroughVersions(steps.count)
                entityMappings = steps.enumerated().flatMap { index, step in
                    step.entityMappings.map { "step \(index + 1): " + Self.describe($0) }
                }
                problems = []
            } else {
                mapping = .unavailable
                entityMappings = []
                problems = (error.userInfo[MappingInference.problemsKey] as? [String]) ?? [error.localizedDescription]
            }
        }
    }

    /// The inferred mapping of each step through the bundle's versions, or nil when there
    /// is no such chain or a step can't be inferred (as the migration finds them).
    private static func inferredSteps(from source: NSManagedObjectModel, to model: NSManagedObjectModel) -> [NSMappingModel]? {
        guard let chain = SQLiteStoreBackend.versionChain(from: source, to: model) else { return nil }
        var steps: [NSMappingModel] = []
        for (from, to) in zip(chain, chain.dropFirst()) {
            guard let step = try? MappingInference(source: from, destination: to).infer() else { return nil }
            steps.append(step)
        }
        return steps
    }

    /// One entity mapping in words.
    static func describe(_ mapping: NSEntityMapping) -> String {
        let kind: String
        switch mapping.mappingType {
        case .copyEntityMappingType: kind = "copy"
        case .transformEntityMappingType: kind = "transform"
        case .addEntityMappingType: kind = "add"
        case .removeEntityMappingType: kind = "remove"
        case .customEntityMappingType: kind = "custom"
        default: kind = "undefined"
        }
        var text = "\(mapping.name ?? "?"): \(kind) \(mapping.sourceEntityName ?? "-") -> \(mapping.destinationEntityName ?? "-")"
        var notes: [String] = []
        for property in mapping.attributeMappings ?? [] {
            let name = property.name ?? "?"
            guard let expression = property.valueExpression else {
                notes.append("\(name) new (default value)")
                continue
            }
            let format = expression.description
            if format != MappingInference.sourceValue(name).description { notes.append("\(name) = \(format)") }
        }
        for property in mapping.relationshipMappings ?? [] {
            let name = property.name ?? "?"
            guard let expression = property.valueExpression else {
                notes.append("\(name) new")
                continue
            }
            let format = expression.description
            if format != MappingInference.relationshipValue(name).description { notes.append("\(name) = \(format)") }
        }
        if let policy = mapping.entityMigrationPolicyClassName, !policy.isEmpty, policy != "NSEntityMigrationPolicy" {
            notes.append("policy \(policy)")
        }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    /// The plan as text, one fact a line.
    public var report: String {
        var lines = ["Store      \(storeURL.path)"]
        guard needsMigration else {
            lines.append("Migration  none: the store's version hashes equal the model's")
            return lines.joined(separator: "\n")
        }
        lines.append("Entities whose version hashes differ (\(hashChanges.count)):")
        for (name, change) in hashChanges.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name)  \(change.rawValue)")
        }
        lines.append("Source     " + (sourceModelOrigin ?? "not found"))
        switch mapping {
        case .none: lines.append("Mapping    none")
        case .file(let url): lines.append("Mapping    mapping model file \(url.path)")
        case .inferred: lines.append("Mapping    inferred (lightweight, in SQL)")
        case .inferredThroughVersions(let steps):
            lines.append("Mapping    inferred through the bundle's versions, \(steps) steps (lightweight, in SQL, one replacement)")
        case .unavailable: lines.append("Mapping    none can be used: the migration would fail")
        }
        if !entityMappings.isEmpty {
            lines.append("Entity mappings:")
            lines += entityMappings.map { "  " + $0 }
        }
        if !problems.isEmpty {
            lines.append("Problems:")
            lines += problems.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
