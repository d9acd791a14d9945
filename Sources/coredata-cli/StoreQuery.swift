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
    /// Key paths to show instead of the entity's attributes and to-one relationships; they
    /// may lead through to-one relationships (`owner.firstName`).
    var columns: [String] = []
    var format = Format.table

    /// How the rows are written.
    enum Format { case table, json, csv }

    static let usage = """
        query <store> [--model <bundle>] --entity <name> [--where <predicate>]
              [--sort key[,-key…]] [--limit N] [--columns key[,key.path…]] [--json | --csv]
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
          --columns <keys>   comma-separated key paths to show (through to-one relationships:
                             owner.name); by default every attribute and to-one relationship
          --json             print a JSON array instead of a table
          --csv              print CSV (RFC 4180: a header line, quoted where needed)
        """

    init(storeURL: URL, modelURL: URL?, entityName: String) {
        self.storeURL = storeURL
        self.modelURL = modelURL
        self.entityName = entityName
    }

    /// Parses the arguments after `coredata query`.
    init(arguments: [String]) throws {
        let parsed = try CommandArguments(arguments, options: ["--model", "--entity", "--where", "--sort", "--limit", "--columns"],
                                          flags: ["--json", "--csv"])
        let store = try parsed.positional(0, missing: "the store path")
        guard let entity = parsed.value("--entity") else { throw UsageError("missing --entity <name>") }
        self.init(storeURL: URL(fileURLWithPath: store), modelURL: parsed.value("--model").map { URL(fileURLWithPath: $0) },
                  entityName: entity)
        predicateFormat = parsed.value("--where")
        sortKeys = parsed.value("--sort").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        limit = try parsed.number("--limit") ?? 0
        columns = parsed.value("--columns").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        if parsed.has("--json") && parsed.has("--csv") { throw UsageError("--json and --csv exclude each other") }
        format = parsed.has("--json") ? .json : parsed.has("--csv") ? .csv : .table
    }

    // MARK: - Running

    /// Runs the query and returns the rendered rows.
    ///
    /// - Throws: `NSError`s from opening the model or store, parsing the predicate
    ///   (with its position) or fetching (an unknown key names it).
    func run() throws -> String {
        let (columns, rows) = try fetch()
        switch format {
        case .table: return Self.renderTable(columns, rows)
        case .json: return Self.renderJSON(columns, rows)
        case .csv: return Self.renderCSV(columns, rows)
        }
    }

    /// The entity's columns (attributes, then to-one relationships) and the fetched rows.
    func fetch() throws -> (columns: [String], rows: [[String: Any]]) {
        let predicate = try predicateFormat.map { try NSPredicate.throwingParse(format: $0, arguments: []) }
        let opened = try OpenedStore(storeAt: storeURL, modelBundle: modelURL)
        defer { opened.close() }
        let entity = try opened.entity(entityName)
        let context = opened.context
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
        if !columns.isEmpty {
            for path in columns { try Self.checkKeyPath(path, from: entity) }
            for object in try context.fetch(request) {
                var row: [String: Any] = ["objectID": object.objectID.uriRepresentation().absoluteString]
                for path in columns {
                    let value = object.value(forKeyPath: path)
                    if let destination = value as? NSManagedObject {
                        row[path] = destination.objectID
                    } else if let value, !(value is NSNull) {
                        row[path] = value
                    }
                }
                rows.append(row)
            }
            return (["objectID"] + columns, rows)
        }
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

    /// Refuses a column key path that does not name an attribute or relationship at every
    /// step, or passes through a to-many relationship (whose value is a set, not a cell).
    static func checkKeyPath(_ path: String, from entity: NSEntityDescription) throws {
        var current = entity
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, key) in keys.enumerated() {
            guard let property = current.propertiesByName[key] else {
                throw UsageError("--columns: \(current.name ?? "?") has no property '\(key)' (in '\(path)')")
            }
            guard let relationship = property as? NSRelationshipDescription else {
                if index == keys.count - 1 { return }
                throw UsageError("--columns: '\(key)' in '\(path)' is an attribute; only relationships lead further")
            }
            if relationship.isToMany {
                throw UsageError("--columns: '\(key)' in '\(path)' is a to-many relationship; a column holds one value")
            }
            guard let destination = relationship.destinationEntity else { return }
            current = destination
        }
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

    /// CSV as RFC 4180 writes it: the header line, then one line per object (its URI's
    /// last two parts first, as `pk`); a field with a comma, quote or line break is quoted,
    /// quotes doubled; a nil value is an empty field.
    static func renderCSV(_ columns: [String], _ rows: [[String: Any]]) -> String {
        let shown = columns.filter { $0 != "objectID" }
        func field(_ text: String) -> String {
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var lines = [(["pk"] + shown).map(field).joined(separator: ",")]
        for row in rows {
            let uri = (row["objectID"] as? String).flatMap(URL.init(string:))?.lastPathComponent ?? ""
            lines.append(([uri] + shown.map { row[$0] == nil ? "" : text(row[$0]) }).map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n")
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
