import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct PrefetchingTests {
    /// 20 lists × 5 items, each item tagged with 2 of 6 tags.
    func populated(_ storeType: String) throws -> TestStack {
        let stack = try TestStack(storeType: storeType)
        let tags = (0..<6).map { index -> NSManagedObject in
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            tag.setValue("tag\(index)", forKey: "label")
            return tag
        }
        for l in 0..<20 {
            let list = ShoppingList(context: stack.context)
            list.title = "list\(l)"
            for i in 0..<5 {
                let item = ShoppingItem(context: stack.context)
                item.name = "item\(l).\(i)"
                item.list = list
                item.setValue(Set([tags[(l + i) % 6], tags[(l + i + 1) % 6]]), forKey: "tags")
            }
        }
        try stack.context.save()
        return stack
    }

    func request() -> NSFetchRequest<ShoppingList> {
        let request = NSFetchRequest<ShoppingList>(entityName: "ShoppingList")
        request.relationshipKeyPathsForPrefetching = ["items", "items.tags"]
        return request
    }

    @Test("prefetching loads two levels of relationships for all objects in a bounded number of statements")
    func boundedStatements() throws {
        let stack = try populated(NSSQLiteStoreType)
        let context = stack.newContext()
        let log = try SQLiteQueryCompilationTests.StatementLog(stack)
        let lists = try context.fetch(request())
        // The fetch, then per step a keys query and a rows query: 5, whatever the count.
        #expect(log.statements.count <= 5, "\(log.statements)")
        let afterFetch = log.statements.count
        var labels = 0
        for list in lists {
            #expect(!list.hasFault(forRelationshipNamed: "items"))
            for item in list.items {
                #expect(!item.isFault)
                #expect(item.name?.hasPrefix("item\((list.title ?? "?").dropFirst(4)).") == true)
                let tags = try #require(item.value(forKey: "tags") as? Set<NSManagedObject>)
                labels += tags.compactMap { $0.value(forKey: "label") as? String }.count
            }
        }
        #expect(labels == 200)
        #expect(log.statements.count == afterFetch, "reading prefetched objects ran \(log.statements.dropFirst(afterFetch))")
    }

    @Test("without prefetching, reading the same graph runs a statement per list")
    func withoutPrefetching() throws {
        let stack = try populated(NSSQLiteStoreType)
        let context = stack.newContext()
        let log = try SQLiteQueryCompilationTests.StatementLog(stack)
        let lists = try context.fetch(NSFetchRequest<ShoppingList>(entityName: "ShoppingList"))
        for list in lists { _ = list.items.map(\.name) }
        #expect(log.statements.count > 20)
    }

    @Test("prefetching gives the same graph on both stores", arguments: [NSInMemoryStoreType, NSSQLiteStoreType])
    func sameGraph(_ storeType: String) throws {
        let stack = try populated(storeType)
        let context = stack.newContext()
        let lists = try context.fetch(request())
        #expect(lists.count == 20)
        #expect(lists.allSatisfy { $0.items.count == 5 })
        #expect(lists.allSatisfy { list in list.items.allSatisfy { $0.list === list } })
    }

    @Test("a key path that is not a relationship is a thrown error")
    func badKeyPath() throws {
        let stack = try populated(NSInMemoryStoreType)
        let request = NSFetchRequest<ShoppingList>(entityName: "ShoppingList")
        request.relationshipKeyPathsForPrefetching = ["title"]
        #expect(throws: NSError.self) { try stack.newContext().fetch(request) }
    }
}
