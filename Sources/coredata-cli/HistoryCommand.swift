import Foundation
// SQLiteStoreInspection (SPI Tools): whether the store records history at all.
@_spi(Tools) import CoreData

/// `coredata history <store> [--model <bundle>]`: the store's persistent history, read with
/// Core Data's own request (`NSPersistentHistoryChangeRequest`): every transaction (number,
/// time, author, context, bundle, process) and its changes (inserts, updates with the
/// properties they touched, deletes with their tombstones), since a date or a transaction.
enum HistoryCommand: Subcommand {
    static let name = "history"
    static let summary = "list a store's persistent history: transactions and their changes"
    static let usage = """
        history <store> [--model <bundle>] [--since <date> | --after <transaction>] [--json]
          <store>              a SQLite store that records persistent history, read without
                               writing anything in or beside it
          --model <bundle>     the .xcdatamodeld (the version matching the store is used);
                               without it, the model the store caches in Z_MODELCACHE
          --since <date>       transactions after this moment, ISO 8601 (2024-05-01T12:00:00Z)
          --after <number>     transactions after this transaction number
          --json               print a JSON array of transactions
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model", "--since", "--after"], flags: ["--json"])
        let url = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        let model = parsed.value("--model").map { URL(fileURLWithPath: $0) }
        if parsed.value("--since") != nil, parsed.value("--after") != nil {
            throw UsageError("--since and --after exclude each other")
        }
        var since = Date.distantPast
        if let text = parsed.value("--since") {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw UsageError("--since needs an ISO 8601 date such as 2024-05-01T12:00:00Z, not '\(text)'")
            }
            since = date
        }
        let after = Int64(try parsed.number("--after") ?? 0)

        guard try SQLiteStoreInspection(storeAt: url).hasPersistentHistory else {
            throw OpenedStore.error(NSPersistentStoreOperationError,
                                    "\(url.path) records no persistent history (it has no ATRANSACTION table).", path: url.path)
        }
        let opened = try OpenedStore(storeAt: url, modelBundle: model,
                                     options: [NSPersistentHistoryTrackingKey: true])
        defer { opened.close() }
        var transactions: [NSPersistentHistoryTransaction] = []
        try opened.context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: since)
            request.resultType = .transactionsAndChanges
            let result = try opened.context.execute(request) as? NSPersistentHistoryResult
            transactions = ((result?.result as? [NSPersistentHistoryTransaction]) ?? [])
                .filter { $0.transactionNumber > after }
        }
        if parsed.has("--json") {
            print(try JSONValues.text(transactions.map(json)))
            return ExitStatus.success
        }
        for transaction in transactions {
            var line = "#\(transaction.transactionNumber)  \(JSONValues.timestamp(transaction.timestamp))"
            if let author = transaction.author { line += "  author \(author)" }
            if let name = transaction.contextName { line += "  context \(name)" }
            if !transaction.bundleID.isEmpty { line += "  bundle \(transaction.bundleID)" }
            if !transaction.processID.isEmpty { line += "  process \(transaction.processID)" }
            print(line)
            for change in transaction.changes ?? [] {
                print("  " + describe(change))
            }
        }
        print("(\(transactions.count) transaction\(transactions.count == 1 ? "" : "s"))")
        return ExitStatus.success
    }

    static func kind(_ type: NSPersistentHistoryChangeType) -> String {
        switch type {
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        @unknown default: return "change"
        }
    }

    static func describe(_ change: NSPersistentHistoryChange) -> String {
        var text = "\(kind(change.changeType)) \(change.changedObjectID.uriRepresentation().absoluteString)"
        if let properties = change.updatedProperties, !properties.isEmpty {
            text += " (" + properties.map(\.name).sorted().joined(separator: ", ") + ")"
        }
        if let tombstone = change.tombstone, !tombstone.isEmpty {
            text += " tombstone " + tombstone.map { "\($0.key)=\(JSONValues.value($0.value))" }.sorted().joined(separator: " ")
        }
        return text
    }

    static func json(_ transaction: NSPersistentHistoryTransaction) -> [String: Any] {
        [
            "number": transaction.transactionNumber,
            "timestamp": JSONValues.timestamp(transaction.timestamp),
            "author": JSONValues.value(transaction.author),
            "contextName": JSONValues.value(transaction.contextName),
            "bundleID": transaction.bundleID,
            "processID": transaction.processID,
            "storeID": transaction.storeID,
            "changes": (transaction.changes ?? []).map { change -> [String: Any] in
                var object: [String: Any] = [
                    "type": kind(change.changeType),
                    "objectID": change.changedObjectID.uriRepresentation().absoluteString,
                ]
                if let properties = change.updatedProperties { object["updatedProperties"] = properties.map(\.name).sorted() }
                if let tombstone = change.tombstone {
                    object["tombstone"] = Dictionary(uniqueKeysWithValues: tombstone.map { ("\($0.key)", JSONValues.value($0.value)) })
                }
                return object
            },
        ]
    }
}
