import Foundation
// NSPredicate.throwingParse (SPI CAPI): a bad --where is reported, not trapped on.
@_spi(CAPI) import CoreData

/// `coredata count <store> [--model <bundle>]`: the number of objects of every entity (each
/// counting its sub-entities, as a fetch does), or of one entity matching a predicate.
enum CountCommand: Subcommand {
    static let name = "count"
    static let summary = "count a store's objects, per entity or matching a predicate"
    static let usage = """
        count <store> [--model <bundle>] [--entity <name> [--where <predicate>]] [--json]
          <store>            a SQLite store, read without writing anything in or beside it
          --model <bundle>   the .xcdatamodeld (the version matching the store is used);
                             without it, the model the store caches in Z_MODELCACHE
          --entity <name>    count only this entity (its sub-entities included)
          --where <format>   an NSPredicate format the counted objects match
          --json             print a JSON object of counts by entity
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model", "--entity", "--where"], flags: ["--json"])
        let store = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        let model = parsed.value("--model").map { URL(fileURLWithPath: $0) }
        if parsed.value("--where") != nil, parsed.value("--entity") == nil {
            throw UsageError("--where needs --entity <name>")
        }
        let predicate = try parsed.value("--where").map { try NSPredicate.throwingParse(format: $0, arguments: []) }
        let opened = try OpenedStore(storeAt: store, modelBundle: model)
        defer { opened.close() }
        let names = try parsed.value("--entity").map { [try opened.entity($0).name ?? $0] }
            ?? opened.model.entities.compactMap(\.name).sorted()
        var counts: [String: Int] = [:]
        try opened.context.performAndWait {
            for name in names {
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.predicate = predicate
                counts[name] = try opened.context.count(for: request)
            }
        }
        if parsed.has("--json") {
            print(try JSONValues.text(counts))
        } else {
            let width = names.map(\.count).max() ?? 0
            for name in names {
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(counts[name] ?? 0)")
            }
        }
        return ExitStatus.success
    }
}
