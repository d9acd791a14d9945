import Foundation

/// `coredata query <store> [--model <bundle>] --entity <name> …`: lists the objects of one
/// entity of a SQLite store, opened read-only without writing anything, as a table or
/// JSON. The work is done by ``StoreQuery``.
enum QueryCommand: Subcommand {
    static let name = "query"
    static let summary = "list an entity's objects in a store, filtered and sorted"
    static var usage: String { StoreQuery.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        print(try StoreQuery(arguments: arguments).run())
        return ExitStatus.success
    }
}
