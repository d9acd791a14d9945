import Foundation
@_spi(Tools) import CoreData

/// `coredata show <store> [--model <bundle>] <object>`: one object, named by its object-ID URI
/// (or its last two parts, `Person/p3`), with every attribute and the objects its
/// relationships lead to.
enum ShowCommand: Subcommand {
    static let name = "show"
    static let summary = "print one object by its URI, with its relationships"
    static let usage = """
        show <store> [--model <bundle>] <object> [--json]
          <store>            a SQLite store, read without writing anything in or beside it
          --model <bundle>   the .xcdatamodeld (the version matching the store is used);
                             without it, the model the store caches in Z_MODELCACHE
          <object>           an object-ID URI (x-coredata://<store UUID>/Person/p3) or Person/p3
          --json             print the object as export writes it
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model"], flags: ["--json"], maxPositionals: 2)
        let url = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        var reference = try parsed.positional(1, missing: "the object's URI")
        let model = parsed.value("--model").map { URL(fileURLWithPath: $0) }
        let opened = try OpenedStore(storeAt: url, modelBundle: model)
        defer { opened.close() }
        if !reference.hasPrefix("x-coredata:") {
            reference = "x-coredata://\(opened.store.identifier ?? "")/\(reference)"
        }
        guard let uri = URL(string: reference),
              let id = opened.coordinator.managedObjectID(forURIRepresentation: uri) else {
            throw OpenedStore.error(NSManagedObjectReferentialIntegrityError,
                                    "\(reference) names no object of this store (expected x-coredata://\(opened.store.identifier ?? "")/<Entity>/p<n>).",
                                    path: url.path)
        }
        var output = ""
        try opened.context.performAndWait {
            let object = try opened.context.existingObject(with: id)
            if parsed.has("--json") {
                output = try JSONValues.text(ExportCommand.json(object))
                return
            }
            var lines = ["\(object.entity.name ?? "") \(object.objectID.uriRepresentation().absoluteString)"]
            let width = object.entity.propertiesByName.keys.map(\.count).max() ?? 0
            for (name, attribute) in object.entity.attributesByName.sorted(by: { $0.key < $1.key }) where !attribute.isTransient {
                lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                             + StoreQuery.text(object.value(forKey: name)))
            }
            for (name, relationship) in object.entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
                let members = CheckCommand.members(object, name, relationship).sorted(by: CheckCommand.primaryKeyOrder).map(CheckCommand.uri)
                let text = relationship.isToMany ? "[" + members.joined(separator: ", ") + "]" : members.first ?? "NULL"
                lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
            }
            output = lines.joined(separator: "\n")
        }
        print(output)
        return ExitStatus.success
    }
}
