import Foundation
// MigrationDryRun, ModelBundle (SPI Tools): a migration plan without migrating.
@_spi(Tools) import CoreData

/// `coredata migrate --dry-run <store> --model <path>`: what adding the store with the model
/// would migrate (entities whose version hashes differ, where the store's model version was
/// found, the mapping used, each entity mapping, and every reason inference fails). Writes
/// nothing in or beside the store. Exits 1 when the migration would fail.
enum MigrateCommand: Subcommand {
    static let name = "migrate"
    static let summary = "show what migrating a store to a model would do (--dry-run)"
    static let usage = """
        migrate --dry-run <store> --model <path> [--version <name>] [--json]
          <store>           a SQLite store, only read
          --model <path>    the new model: a .xcdatamodeld bundle (its current version),
                            a .xcdatamodel version folder, or a .momd/.mom
          --version <name>  that version of the bundle instead of the current one
          --json            print one JSON object
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model", "--version"], flags: ["--dry-run", "--json"])
        guard parsed.has("--dry-run") else {
            throw UsageError("only --dry-run is supported: add the store with the new model to migrate it")
        }
        let store = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        guard let modelPath = parsed.value("--model") else { throw UsageError("missing --model <path>") }
        let model = try loadModel(URL(fileURLWithPath: modelPath), version: parsed.value("--version"))
        let plan = try MigrationDryRun(storeAt: store, model: model)
        if parsed.has("--json") {
            var mapping: [String: Any] = [:]
            switch plan.mapping {
            case .none: mapping["kind"] = "none"
            case .file(let url): mapping = ["kind": "file", "path": url.path]
            case .inferred: mapping["kind"] = "inferred"
            case .inferredThroughVersions(let steps): mapping = ["kind": "inferredThroughVersions", "steps": steps]
            case .unavailable: mapping["kind"] = "unavailable"
            }
            let object: [String: Any] = [
                "store": store.path,
                "needsMigration": plan.needsMigration,
                "hashChanges": plan.hashChanges.mapValues(\.rawValue),
                "sourceModel": plan.sourceModelOrigin ?? NSNull(),
                "mapping": mapping,
                "entityMappings": plan.entityMappings,
                "problems": plan.problems,
            ]
            print(try JSONValues.text(object))
        } else {
            print(plan.report)
        }
        return plan.mapping == .unavailable ? ExitStatus.failure : ExitStatus.success
    }

    /// The model at `url`: a version of a model bundle, or a compiled model.
    static func loadModel(_ url: URL, version: String?) throws -> NSManagedObjectModel {
        if ["momd", "mom"].contains(url.pathExtension.lowercased()) && version == nil {
            return try NSManagedObjectModel.load(contentsOf: url)
        }
        let (bundle, designated) = try ModelBundle.resolve(url)
        return try bundle.model(forVersion: version ?? designated)
    }
}
