import Foundation
@_spi(Tools) import CoreData

/// `coredata export <store> [--model <bundle>]`: every object of the store (or of some
/// entities) as JSON lines, one object per line, relationships as object-ID URIs:
///
///     {"entity":"Person","objectID":"x-coredata://…/Person/p1","attributes":{…},"relationships":{"cars":[…]}}
///
/// Values are written as ``JSONValues`` says. Progress goes to a terminal's standard error.
enum ExportCommand: Subcommand {
    static let name = "export"
    static let summary = "write a store's objects as JSON lines, relationships as URIs"
    static let usage = """
        export <store> [--model <bundle>] [--entity <name>[,<name>…]] [--output <file>]
          <store>            a SQLite store, read without writing anything in or beside it
          --model <bundle>   the .xcdatamodeld (the version matching the store is used);
                             without it, the model the store caches in Z_MODELCACHE
          --entity <names>   only these entities (each with its sub-entities)
          --output <file>    write there instead of standard output
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model", "--entity", "--output"])
        let url = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        let model = parsed.value("--model").map { URL(fileURLWithPath: $0) }
        let opened = try OpenedStore(storeAt: url, modelBundle: model)
        defer { opened.close() }
        let roots: [NSEntityDescription]
        if let names = parsed.value("--entity") {
            roots = try names.split(separator: ",").map { try opened.entity($0.trimmingCharacters(in: .whitespaces)) }
        } else {
            roots = opened.model.entities.filter { $0.superentity == nil }.sorted { ($0.name ?? "") < ($1.name ?? "") }
        }

        let output: FileHandle
        if let path = parsed.value("--output") {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw OpenedStore.error(NSFileWriteUnknownError, "Cannot create \(path).", path: path)
            }
            output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } else {
            output = FileHandle.standardOutput
        }
        let progress = Progress(label: "exported")
        var written: Set<NSManagedObjectID> = []
        try opened.context.performAndWait {
            for root in roots {
                let request = NSFetchRequest<NSManagedObject>(entityName: root.name ?? "")
                request.sortDescriptors = []
                for object in try opened.context.fetch(request) where written.insert(object.objectID).inserted {
                    var line = try JSONValues.text(Self.json(object), pretty: false)
                    line += "\n"
                    output.write(Data(line.utf8))
                    progress.advance()
                }
                opened.context.reset()
            }
        }
        progress.finish()
        if output !== FileHandle.standardOutput { try output.close() }
        return ExitStatus.success
    }

    /// One object as the JSON object of its line.
    static func json(_ object: NSManagedObject) -> [String: Any] {
        var attributes: [String: Any] = [:]
        var relationships: [String: Any] = [:]
        for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
            attributes[name] = JSONValues.value(object.value(forKey: name))
        }
        for (name, relationship) in object.entity.relationshipsByName {
            let members = CheckCommand.members(object, name, relationship)
            relationships[name] = relationship.isToMany
                ? members.map { JSONValues.value($0.objectID) }
                : members.first.map { JSONValues.value($0.objectID) } ?? NSNull()
        }
        return [
            "entity": object.entity.name ?? "",
            "objectID": object.objectID.uriRepresentation().absoluteString,
            "attributes": attributes,
            "relationships": relationships,
        ]
    }
}

/// A count of work done, shown on standard error when it is a terminal ("exported 12000
/// objects"), at most every 1000 steps; silent otherwise.
final class Progress {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private(set) var count = 0

    init(label: String) { self.label = label }

    func advance() {
        count += 1
        if isTerminal, count % 1000 == 0 { printProgress(terminator: "\r") }
    }

    func finish() {
        if isTerminal { printProgress(terminator: "\n") }
    }

    private func printProgress(terminator: String) {
        FileHandle.standardError.write(Data("\(label) \(count) objects\(terminator)".utf8))
    }
}
