import Foundation
internal import CCoreDataSQLite

/// PLACEHOLDER: the SQLite store is being written; see StoreBackend for the contract.
final class SQLiteStoreBackend: StoreBackend {
    let storeType = NSSQLiteStoreType
    var metadata: [String: Any] = [:]
    let url: URL
    init(url: URL, options: [AnyHashable: Any]) { self.url = url }
    static func readMetadata(at url: URL) throws -> [String: Any] { throw CoreDataError.make(NSCoreDataError, "SQLite store not built yet") }
    static func destroyFiles(at url: URL) throws {}
    static func copyStore(from: URL, to: URL) throws {}
    func load(model: NSManagedObjectModel, entities: [NSEntityDescription]) throws { throw CoreDataError.make(NSCoreDataError, "SQLite store not built yet") }
    func fetch(_ plan: FetchPlan) throws -> [StoreRow] { [] }
    func count(_ plan: FetchPlan) throws -> Int { 0 }
    func row(entity: NSEntityDescription, pk: Int64) throws -> StoreRow? { nil }
    func relatedKeys(relationship: NSRelationshipDescription, pk: Int64) throws -> [StoreKey] { [] }
    func allocateKeys(entity: NSEntityDescription, count: Int) throws -> Int64 { 0 }
    func save(_ changes: StoreChanges) throws {}
    func close() {}
}
