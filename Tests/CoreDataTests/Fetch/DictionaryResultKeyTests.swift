import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The dictionaries of a `.dictionaryResultType` fetch read from a store's columns behave as
/// ordinary string-keyed dictionaries, whatever their keys are made of.
@Suite struct DictionaryResultKeyTests {
    private func rows(onDisk: Bool) throws -> (TestStack, [NSDictionary]) {
        let stack = try TestStack(storeType: onDisk ? NSSQLiteStoreType : NSInMemoryStoreType)
        let context = stack.context
        let rows = try context.performAndWait {
            stack.insertItem("Milk")
            stack.insertItem("Bread")
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name"]
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request)
        }
        return (stack, rows)
    }

    @Test("rows are read with string keys, list their keys as strings and bridge to [String: Any]",
          arguments: [false, true])
    func stringKeys(onDisk: Bool) throws {
        let (_, rows) = try rows(onDisk: onDisk)
        #expect(rows.map { $0["name"] as? String } == ["Bread", "Milk"])
        #expect(rows.map { $0.value(forKey: "name") as? String } == ["Bread", "Milk"])
        #expect(rows.map { $0["nam"] == nil } == [true, true])
        let first = try #require(rows.first)
        #expect(first.allKeys as? [String] == ["name"])
        #expect((first.allKeys.first as? NSString)?.hasPrefix("na") == true)
        let bridged = try #require(first as? [String: Any])
        #expect(bridged.count == 1 && bridged["name"] as? String == "Bread")
        #expect(first.isEqual(["name": "Bread"] as NSDictionary))
        #expect((["name": "Bread"] as NSDictionary).isEqual(first))
        let copy = try #require(first.mutableCopy() as? NSMutableDictionary)
        copy["count"] = 2
        #expect(copy["name"] as? String == "Bread" && copy.count == 2 && first.count == 1)
    }
}
