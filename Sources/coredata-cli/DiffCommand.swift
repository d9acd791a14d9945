import Foundation
@_spi(Tools) import CoreData

/// `coredata diff <old store> <new store> [--model <bundle>]`: what changed between two stores
/// of one model (two copies of one store, a backup and the live file): objects inserted
/// (`+`), deleted (`-`) and updated (`~`, with each property's old and new value), matched
/// by entity and primary key. Exits 0 when they hold the same objects, 1 when they differ.
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let summary = "compare two stores of one model: inserted, updated, deleted objects"
    static let usage = """
        diff <old store> <new store> [--model <bundle>] [--json]
          <old store>, <new store>  SQLite stores of the model, read without writing anything
          --model <bundle>          the .xcdatamodeld (the version matching each store is used);
                                    without it, the model each store caches in Z_MODELCACHE
          --json                    print {"inserted": [...], "deleted": [...], "updated": {...}}
        exit status: 0 same objects, 1 differences (or a store cannot be read), 2 bad arguments
        """

    /// An object's properties as comparable text, keyed `Entity/pN`.
    typealias Snapshot = [String: [String: String]]

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model"], flags: ["--json"], maxPositionals: 2)
        let old = URL(fileURLWithPath: try parsed.positional(0, missing: "the old store"))
        let new = URL(fileURLWithPath: try parsed.positional(1, missing: "the new store"))
        let model = parsed.value("--model").map { URL(fileURLWithPath: $0) }
        let before = try snapshot(old, model: model)
        let after = try snapshot(new, model: model)
        let order = { (a: String, b: String) in a.localizedStandardCompare(b) == .orderedAscending }
        let inserted = after.keys.filter { before[$0] == nil }.sorted(by: order)
        let deleted = before.keys.filter { after[$0] == nil }.sorted(by: order)
        var updated: [String: [String: [String]]] = [:]
        for (key, values) in after {
            guard let previous = before[key], previous != values else { continue }
            var changes: [String: [String]] = [:]
            for name in Set(values.keys).union(previous.keys) where values[name] != previous[name] {
                changes[name] = [previous[name] ?? "NULL", values[name] ?? "NULL"]
            }
            updated[key] = changes
        }
        if parsed.has("--json") {
            print(try JSONValues.text(["inserted": inserted, "deleted": deleted, "updated": updated]))
        } else {
            for key in inserted { print("+ \(key)") }
            for key in deleted { print("- \(key)") }
            for key in updated.keys.sorted(by: order) {
                print("~ \(key)")
                for (name, change) in (updated[key] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    print("    \(name): " + describe(change[0], change[1]))
                }
            }
            print("\(inserted.count) inserted, \(deleted.count) deleted, \(updated.count) updated")
        }
        return inserted.isEmpty && deleted.isEmpty && updated.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// Every object of a store, its attributes and relationships as text.
    static func snapshot(_ url: URL, model: URL?) throws -> Snapshot {
        let opened = try OpenedStore(storeAt: url, modelBundle: model)
        defer { opened.close() }
        var objects: Snapshot = [:]
        try opened.context.performAndWait {
            for entity in opened.model.entities where entity.superentity == nil {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                for object in try opened.context.fetch(request) {
                    var values: [String: String] = [:]
                    for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
                        values[name] = comparable(object.value(forKey: name))
                    }
                    for (name, relationship) in object.entity.relationshipsByName {
                        let members = CheckCommand.members(object, name, relationship)
                            .sorted(by: CheckCommand.primaryKeyOrder).map(CheckCommand.uri)
                        values[name] = relationship.isToMany ? "[" + members.joined(separator: ", ") + "]" : members.first ?? "NULL"
                    }
                    objects[CheckCommand.uri(object)] = values
                }
                opened.context.reset()
            }
        }
        return objects
    }

    /// A value as text that differs whenever the value does (data in full, dates to the
    /// millisecond), "NULL" for nil.
    static func comparable(_ value: Any?) -> String {
        let json = JSONValues.value(value)
        return json is NSNull ? "NULL" : "\(json)"
    }

    /// A property's change for the text output: `old -> new`, or for a to-many the members
    /// it gained and lost (`+[Car/p3] -[Car/p1]`).
    static func describe(_ old: String, _ new: String) -> String {
        guard old.hasPrefix("["), new.hasPrefix("[") else { return "\(old) -> \(new)" }
        func members(_ text: String) -> [String] {
            text.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let (before, after) = (members(old), members(new))
        let added = after.filter { !before.contains($0) }, removed = before.filter { !after.contains($0) }
        return [added.isEmpty ? nil : "+[" + added.joined(separator: ", ") + "]",
                removed.isEmpty ? nil : "-[" + removed.joined(separator: ", ") + "]"].compactMap { $0 }.joined(separator: " ")
    }
}
