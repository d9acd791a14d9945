import Foundation
// ModelBundle (SPI Tools): Apple has no API that reads Xcode's model sources, which Xcode
// compiles on Apple platforms. NSPredicate.throwingParse (SPI CAPI): the throwing twin of
// NSPredicate(format:), which traps on a bad format as Apple raises; a tool must report a
// bad --where instead.
@_spi(Tools) @_spi(CAPI) import CoreData

/// What `coredata query` does: opens a SQLite store read-only, with the model version its
/// metadata names, fetches one entity with a predicate, sort keys and a limit, and renders
/// the rows as a text table or JSON.
///
/// ```swift
/// let query = try StoreQuery(arguments: ["Shop.sqlite", "--model", "Shop.xcdatamodeld",
///                                        "--entity", "Item", "--where", "quantity > 2",
///                                        "--sort", "name,-quantity", "--limit", "10"])
/// print(try query.run())
/// ```
///
/// The store is opened in place with `NSReadOnlyPersistentStoreOption`, which writes
/// nothing in or beside it (no `-wal`, no `-shm`; it works in a folder the user cannot
/// write) and reads what its WAL holds.
struct StoreQuery {
    var storeURL: URL
    /// The model bundle; nil means the model the store caches in `Z_MODELCACHE`.
    var modelURL: URL?
    var entityName: String
    var predicateFormat: String?
    /// Keys to sort by; a leading `-` sorts descending.
    var sortKeys: [String] = []
    var limit = 0
    var json = false

    /// Bad command-line arguments.
    struct ArgumentError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let usage = """
        query <store> [--model <bundle>] --entity <name> [--where <predicate>]
              [--sort key[,-key…]] [--limit N] [--json]
          <store>            a SQLite store, opened read-only: nothing is written in or beside
                             it (no -wal or -shm; a folder you cannot write is fine), and what
                             its -wal holds is read. It is read without locks: a program
                             writing it at the same moment may make the query fail; run it again
          --model <bundle>   the .xcdatamodeld or .momd (the version matching the store is
                             used); without it, the model the store keeps (Z_MODELCACHE)
          --entity <name>    the entity to list (sub-entities included)
          --where <format>   an NSPredicate format string, e.g. "age > 30 AND name BEGINSWITH[c] 'a'"
          --sort <keys>      comma-separated key paths; '-key' sorts descending
          --limit <N>        at most N rows
          --json             print a JSON array instead of a table
        """

    init(storeURL: URL, modelURL: URL?, entityName: String) {
        self.storeURL = storeURL
        self.modelURL = modelURL
        self.entityName = entityName
    }

    /// Parses the arguments after `coredata query`.
    init(arguments: [String]) throws {
        var store: String?, model: String?, entity: String?
        var predicate: String?, sort: [String] = [], limit = 0, json = false
        // `--option=value` is the same as `--option value`.
        let arguments = arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        var index = 0
        func value(_ option: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw ArgumentError("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--model": model = try value(argument)
            case "--entity": entity = try value(argument)
            case "--where": predicate = try value(argument)
            case "--sort": sort = try value(argument).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "--limit":
                let text = try value(argument)
                guard let n = Int(text), n >= 0 else { throw ArgumentError("--limit needs a number, not '\(text)'") }
                limit = n
            case "--json": json = true
            default:
                if argument.hasPrefix("-") { throw ArgumentError("unknown option '\(argument)'") }
                guard store == nil else { throw ArgumentError("unexpected argument '\(argument)'") }
                store = argument
            }
            index += 1
        }
        guard let store else { throw ArgumentError("missing the store path") }
        guard let entity else { throw ArgumentError("missing --entity <name>") }
        self.init(storeURL: URL(fileURLWithPath: store), modelURL: model.map { URL(fileURLWithPath: $0) },
                  entityName: entity)
        predicateFormat = predicate
        sortKeys = sort
        self.limit = limit
        self.json = json
    }

    // MARK: - Running

    /// Runs the query and returns the rendered rows.
    ///
    /// - Throws: `NSError`s from opening the model or store, parsing the predicate
    ///   (with its position) or fetching (an unknown key names it).
    func run() throws -> String {
        let (columns, rows) = try fetch()
        return json ? Self.renderJSON(columns, rows) : Self.renderTable(columns, rows)
    }

    /// The entity's columns (attributes, then to-one relationships) and the fetched rows.
    func fetch() throws -> (columns: [String], rows: [[String: Any]]) {
        guard FileManager.default.fileExists(atPath: storeURL.path) else {
            throw Self.error(NSFileReadNoSuchFileError, "There is no store at \(storeURL.path).", path: storeURL.path)
        }
        let predicate = try predicateFormat.map { try NSPredicate.throwingParse(format: $0, arguments: []) }
        let model = try modelURL.map { try Self.model(for: storeURL, bundle: $0) }
            ?? NSManagedObjectModel(cachedInStoreAt: storeURL)
        let modelPath = modelURL?.path ?? "cached in \(storeURL.path)"
        guard let entity = model.entitiesByName[entityName] else {
            throw Self.error(NSCoreDataError,
                "The model \(modelPath) has no entity \(entityName) (entities: \(model.entitiesByName.keys.sorted().joined(separator: ", "))).",
                path: modelURL?.path ?? storeURL.path)
        }

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: storeURL,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        defer { try? coordinator.remove(store) }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.predicate = predicate
        request.sortDescriptors = sortKeys.filter { !$0.isEmpty }.map { key in
            key.hasPrefix("-") ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false)
                : NSSortDescriptor(key: key.hasPrefix("+") ? String(key.dropFirst()) : key, ascending: true)
        }
        request.fetchLimit = limit
        request.returnsObjectsAsFaults = false

        let properties = entity.properties.filter { property in
            if let attribute = property as? NSAttributeDescription { return !attribute.isTransient }
            if let relationship = property as? NSRelationshipDescription { return !relationship.isToMany }
            return false
        }
        var rows: [[String: Any]] = []
        for object in try context.fetch(request) {
            var row: [String: Any] = ["objectID": object.objectID.uriRepresentation().absoluteString]
            for property in properties where object.entity.propertiesByName[property.name] != nil {
                let value = object.value(forKey: property.name)
                if let destination = value as? NSManagedObject {
                    row[property.name] = destination.objectID
                } else if let value, !(value is NSNull) {
                    row[property.name] = value
                }
            }
            rows.append(row)
        }
        return (["objectID"] + properties.map(\.name), rows)
    }

    /// The version of the bundle at `bundleURL` whose entity hashes match the store's
    /// metadata (the bundle's designated version when none matches exactly, so that the
    /// store's own open error explains the mismatch).
    static func model(for store: URL, bundle bundleURL: URL) throws -> NSManagedObjectModel {
        if ["momd", "mom"].contains(bundleURL.pathExtension.lowercased()),
           FileManager.default.fileExists(atPath: bundleURL.path) {
            let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
            return try NSManagedObjectModel.mergedModel(
                from: [Bundle(path: bundleURL.deletingLastPathComponent().path) ?? .main], forStoreMetadata: metadata)
                ?? NSManagedObjectModel.load(contentsOf: bundleURL)
        }
        let (bundle, designated) = try ModelBundle.resolve(bundleURL)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        for name in [designated] + bundle.versionNames.filter({ $0 != designated }) {
            let model = try bundle.model(forVersion: name)
            if model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return model }
        }
        return try bundle.model(forVersion: designated)
    }

    /// An error in `NSCocoaErrorDomain` naming `path`.
    static func error(_ code: Int, _ description: String, path: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code,
                userInfo: [NSLocalizedDescriptionKey: description, NSFilePathErrorKey: path])
    }

    // MARK: - Rendering

    /// One value as text: dates in ISO 8601, data as its size, objects by their URI's
    /// last two parts (`Entity/p3`).
    static func text(_ value: Any?) -> String {
        switch value {
        case nil: return "NULL"
        case let string as String: return string
        case let date as Date: return ISO8601DateFormatter().string(from: date)
        case let uuid as UUID: return uuid.uuidString
        case let data as Data: return "<\(data.count) bytes>"
        case let url as URL: return url.absoluteString
        case let id as NSManagedObjectID:
            return id.uriRepresentation().pathComponents.suffix(2).joined(separator: "/")
        case let number as NSNumber: return number.stringValue
        case let value?: return "\(value)"
        }
    }

    static func renderTable(_ columns: [String], _ rows: [[String: Any]]) -> String {
        let shown = columns.filter { $0 != "objectID" }
        let header = ["pk"] + shown
        let cells: [[String]] = rows.map { row in
            let uri = (row["objectID"] as? String).flatMap(URL.init(string:))?.lastPathComponent ?? ""
            return [uri] + shown.map { name in
                let text = Self.text(row[name]).replacingOccurrences(of: "\n", with: "⏎")
                return text.count > 40 ? String(text.prefix(39)) + "…" : text
            }
        }
        let widths = header.indices.map { i in ([header[i]] + cells.map { $0[i] }).map(\.count).max() ?? 0 }
        func line(_ items: [String]) -> String {
            zip(items, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ").trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")]
        lines += cells.map(line)
        lines.append("(\(rows.count) row\(rows.count == 1 ? "" : "s"))")
        return lines.joined(separator: "\n")
    }

    static func renderJSON(_ columns: [String], _ rows: [[String: Any]]) -> String {
        let objects: [[String: Any]] = rows.map { row in
            var object: [String: Any] = [:]
            for name in columns {
                switch row[name] {
                case nil: object[name] = NSNull()
                case let string as String: object[name] = string
                case let number as NSNumber: object[name] = number
                case let data as Data: object[name] = data.base64EncodedString()
                case let value?: object[name] = text(value)
                }
            }
            return object
        }
        if objects.isEmpty { return "[]" }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
