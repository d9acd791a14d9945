import Foundation
// SQLiteStoreInspection (SPI Tools): tables, journal mode and row counts below the API.
@_spi(Tools) import CoreData

/// `coredata info <store>`: what a store is, without its model: type, UUID, the version
/// hashes of the model that wrote it, persistent history on or off, rows per table and
/// the sizes of its files (the `-wal` included). Writes nothing.
enum InfoCommand: Subcommand {
    static let name = "info"
    static let summary = "describe a store: UUID, model hashes, history, rows, file sizes"
    static let usage = """
        info <store> [--json]
          <store>   a SQLite store, read without writing anything in or beside it
          --json    print one JSON object
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, flags: ["--json"])
        let url = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        let inspection = try SQLiteStoreInspection(storeAt: url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        let hashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Data]) ?? [:]
        let files = [url.path, url.path + "-wal", url.path + "-shm"].compactMap { path -> (String, Int)? in
            guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
            return (URL(fileURLWithPath: path).lastPathComponent, size)
        }
        let transactions = inspection.rowCounts["ATRANSACTION"]
        let entityTables = inspection.rowCounts.filter { $0.key.hasPrefix("Z") && !$0.key.hasPrefix("Z_") }

        if parsed.has("--json") {
            var object: [String: Any] = [
                "path": url.path,
                "type": metadata[NSStoreTypeKey] as? String ?? "SQLite",
                "uuid": metadata[NSStoreUUIDKey] as? String ?? "",
                "journalMode": inspection.journalMode,
                "history": transactions != nil,
                "modelVersionHashes": hashes.mapValues { $0.base64EncodedString() },
                "rows": entityTables,
                "files": Dictionary(uniqueKeysWithValues: files),
            ]
            if let transactions { object["transactions"] = transactions }
            if let identifiers = metadata[NSStoreModelVersionIdentifiersKey] as? [Any] {
                object["modelVersionIdentifiers"] = identifiers.map { "\($0)" }
            }
            if let version = metadata["NSPersistenceFrameworkVersion"] { object["frameworkVersion"] = "\(version)" }
            print(try JSONValues.text(object))
            return ExitStatus.success
        }
        print("Store      \(url.path)")
        print("Type       \(metadata[NSStoreTypeKey] as? String ?? "SQLite") (journal mode \(inspection.journalMode))")
        print("UUID       \(metadata[NSStoreUUIDKey] as? String ?? "")")
        if let version = metadata["NSPersistenceFrameworkVersion"] { print("Framework  \(version)") }
        print("History    " + (transactions.map { "on, \($0) transaction\($0 == 1 ? "" : "s")" } ?? "off"))
        print("Files      " + files.map { "\($0.0) \(byteCount($0.1))" }.joined(separator: ", "))
        print("")
        print("Model version hashes (\(hashes.count) entities):")
        let width = hashes.keys.map(\.count).max() ?? 0
        for (entity, hash) in hashes.sorted(by: { $0.key < $1.key }) {
            print("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + hash.base64EncodedString())
        }
        print("")
        print("Rows by table:")
        let tableWidth = entityTables.keys.map(\.count).max() ?? 0
        for (table, count) in entityTables.sorted(by: { $0.key < $1.key }) {
            print("  " + table.padding(toLength: tableWidth, withPad: " ", startingAt: 0) + "  \(count)")
        }
        return ExitStatus.success
    }

    /// A size in bytes, KiB or MiB.
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return String(format: "%.1f MiB", Double(bytes) / 1024 / 1024)
    }
}
