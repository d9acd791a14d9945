import Foundation
@_spi(Tools) import CoreData

/// `coredata import <lines> <store> --model <bundle>`: reads the JSON lines `export` writes
/// and inserts their objects into a store (created if missing), relationships included:
/// each line's object-ID URIs are matched to the objects inserted for them. Everything is
/// saved in one transaction at the end, so a bad line leaves the store as it was.
enum ImportCommand: Subcommand {
    static let name = "import"
    static let summary = "insert the objects of JSON lines (from export) into a store"
    static let usage = """
        import <file> <store> --model <bundle>
          <file>             JSON lines as `coredata export` writes them ('-' reads standard input)
          <store>            the SQLite store to insert into; created if missing
          --model <bundle>   the .xcdatamodeld (the version matching the store is used)
        exit status: 0 imported, 1 a line or the save failed (nothing saved), 2 bad arguments
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model"], maxPositionals: 2)
        let input = try parsed.positional(0, missing: "the JSON lines file")
        let url = URL(fileURLWithPath: try parsed.positional(1, missing: "the store path"))
        guard let model = parsed.value("--model") else { throw UsageError("missing --model <bundle>") }
        let data = input == "-" ? FileHandle.standardInput.readDataToEndOfFile()
            : try Data(contentsOf: URL(fileURLWithPath: input))
        var lines: [(number: Int, object: [String: Any])] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  object["entity"] is String, object["objectID"] is String else {
                throw lineError(index + 1, "is not an object of export's form ({\"entity\":…,\"objectID\":…,…})")
            }
            lines.append((index + 1, object))
        }

        let existed = FileManager.default.fileExists(atPath: url.path)
        do {
            try insert(lines, into: url, modelBundle: URL(fileURLWithPath: model))
        } catch {
            // A store this run created goes again: a failed import leaves no empty store behind.
            if !existed {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
            throw error
        }
        print("imported \(lines.count) object\(lines.count == 1 ? "" : "s") into \(url.path)")
        return ExitStatus.success
    }

    /// Inserts every line's object, then relates them, then saves once.
    static func insert(_ lines: [(number: Int, object: [String: Any])], into url: URL, modelBundle: URL) throws {
        let opened = try OpenedStore(storeAt: url, modelBundle: modelBundle, readOnly: false)
        defer { opened.close() }
        let context = opened.context
        let progress = Progress(label: "imported")
        try context.performAndWait {
            var inserted: [String: NSManagedObject] = [:]
            for (number, line) in lines {
                let entity = try opened.entity(line["entity"] as? String ?? "")
                guard !entity.isAbstract else { throw lineError(number, "names the abstract entity \(entity.name ?? "")") }
                let object = NSManagedObject(entity: entity, insertInto: context)
                for (key, json) in line["attributes"] as? [String: Any] ?? [:] {
                    guard let attribute = entity.attributesByName[key] else {
                        throw lineError(number, "names \(key), which is not an attribute of \(entity.name ?? "")")
                    }
                    object.setValue(try JSONValues.attributeValue(json, for: attribute, entity: entity.name ?? ""), forKey: key)
                }
                inserted[line["objectID"] as? String ?? ""] = object
            }
            for (number, line) in lines {
                guard let object = inserted[line["objectID"] as? String ?? ""] else { continue }
                for (key, json) in line["relationships"] as? [String: Any] ?? [:] {
                    guard let relationship = object.entity.relationshipsByName[key] else {
                        throw lineError(number, "names \(key), which is not a relationship of \(object.entity.name ?? "")")
                    }
                    let uris = relationship.isToMany ? (json as? [String] ?? []) : (json as? String).map { [$0] } ?? []
                    let members = try uris.map { uri -> NSManagedObject in
                        guard let member = inserted[uri] else { throw lineError(number, "relates \(key) to \(uri), which no line defines") }
                        return member
                    }
                    if relationship.isToMany {
                        // Only this side: the inverse follows as it does for any change.
                        if relationship.isOrdered {
                            object.mutableOrderedSetValue(forKey: key).addObjects(from: members)
                        } else {
                            object.mutableSetValue(forKey: key).addObjects(from: members)
                        }
                    } else {
                        object.setValue(members.first, forKey: key)
                    }
                }
                progress.advance()
            }
            try context.save()
        }
        progress.finish()
    }

    static func lineError(_ number: Int, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSFileReadCorruptFileError,
                userInfo: [NSLocalizedDescriptionKey: "line \(number) \(message)"])
    }
}
