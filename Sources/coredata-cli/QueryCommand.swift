import Foundation

/// `coredata query <store> [--model <bundle>] --entity <name> …`: lists the objects of one
/// entity of a SQLite store, opened read-only without writing anything, as a table or
/// JSON. The work is done by ``StoreQuery``.
enum QueryCommand: Subcommand {
    static let name = "query"
    static let summary = "list an entity's objects in a store, filtered and sorted"
    static var usage: String { StoreQuery.usage }

    static func run(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            print("usage: coredata \(usage)")
            return ExitStatus.success
        }
        let query: StoreQuery
        do {
            query = try StoreQuery(arguments: arguments)
        } catch let error as StoreQuery.ArgumentError {
            throw UsageError(error.description)
        }
        print(try query.run())
        return ExitStatus.success
    }
}
