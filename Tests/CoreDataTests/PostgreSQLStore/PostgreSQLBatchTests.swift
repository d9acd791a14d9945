import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Batch updates and deletes on the PostgreSQL store run as SQL statements over the selected
/// rows, as on SQLite, not as a save of one row at a time.
@Suite("PostgreSQL batch requests", .enabled(if: PostgreSQLTestDatabase.isAvailable, PostgreSQLTestDatabase.skipReason))
struct PostgreSQLBatchTests {
    /// The statements the store's connection has sent so far.
    private func statementsSent(_ stack: TestStack) throws -> Int {
        let backend = try #require(stack.coordinator.persistentStores.first?.backend as? PostgreSQLStoreBackend)
        return try #require(backend.connection).statementsSent
    }

    private func seedQuakes(_ stack: TestStack, count: Int) throws {
        for i in 0..<count {
            stack.insert("Quake", ["code": "q\(i)", "magnitude": Double(i) / 4, "count": i])
        }
        try stack.context.save()
    }

    @Test("a batch update of 200 rows sends a few statements, not one per row, and every row reads back updated")
    func updateIsSetBased() throws {
        let stack = try TestStack(storeType: NSPostgreSQLStoreType, model: BatchModel.make())
        try seedQuakes(stack, count: 200)
        let before = try statementsSent(stack)
        let request = NSBatchUpdateRequest(entityName: "Quake")
        request.predicate = NSPredicate(format: "count >= 10")
        request.propertiesToUpdate = ["place": "Here", "count": NSExpression(format: "count + 1000")]
        request.resultType = .updatedObjectIDsResultType
        let ids = try #require((try stack.context.execute(request) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        let sent = try statementsSent(stack) - before
        #expect(ids.count == 190)
        #expect(sent <= 10, "a batch update sent \(sent) statements")

        let reader = stack.newContext()
        let fetch = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        fetch.predicate = NSPredicate(format: "place == 'Here'")
        let updated = try reader.fetch(fetch)
        #expect(updated.count == 190)
        #expect(updated.allSatisfy { ($0.value(forKey: "count") as? Int ?? 0) >= 1010 })
        #expect(Set(updated.map(\.objectID)) == Set(ids))
    }

    @Test("a batch delete of 200 rows sends a few statements, not one per row")
    func deleteIsSetBased() throws {
        let stack = try TestStack(storeType: NSPostgreSQLStoreType, model: BatchModel.make())
        try seedQuakes(stack, count: 200)
        let before = try statementsSent(stack)
        let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest(entityName: "Quake"))
        request.resultType = .resultTypeCount
        #expect((try stack.context.execute(request) as? NSBatchDeleteResult)?.result as? Int == 200)
        let sent = try statementsSent(stack) - before
        #expect(sent <= 12, "a batch delete sent \(sent) statements")
        #expect(try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: "Quake")) == 0)
    }

    @Test("an integer set from a fractional expression drops the fraction, on both SQL stores",
          arguments: [NSSQLiteStoreType, NSPostgreSQLStoreType])
    func integerExpressionTruncates(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        stack.insert("Quake", ["code": "up", "magnitude": 2.5])
        stack.insert("Quake", ["code": "down", "magnitude": -2.5])
        try stack.context.save()
        let request = NSBatchUpdateRequest(entityName: "Quake")
        request.propertiesToUpdate = ["count": NSExpression(format: "magnitude * 1.5")]
        _ = try stack.context.execute(request)
        let reader = stack.newContext()
        let counts = Dictionary(uniqueKeysWithValues: try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake")).map {
            ($0.value(forKey: "code") as! String, $0.value(forKey: "count") as? Int)
        })
        #expect(counts == ["up": 3, "down": -3])
    }
}
