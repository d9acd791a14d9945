import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The values of a `.dictionaryResultType` fetch, read as Apple's users read them: numbers
/// as `NSNumber` that cast to any Swift number type, other values as their Swift types, nil
/// values left out, and each row a real `NSDictionary` that bridges to `[String: Any]`.
@Suite struct DictionaryResultValueTests {
    @Test("every attribute type reads back from a dictionary row as from the object", arguments: bothStoreTypes)
    func everyType(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let context = stack.context
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        let identifier = UUID()
        try context.performAndWait {
            let full = stack.insertItem("Full")
            full.setValuesForKeys([
                "quantity": 3_000_000_000 as Int64, "count16": 12 as Int16, "price": 2.5, "purchased": true,
                "addedAt": when, "identifier": identifier, "photo": Data([1, 2, 3]),
                "link": URL(string: "https://example.com/a")!, "cost": Decimal(string: "12.75")!,
            ])
            stack.insertItem("Empty")
            try context.save()
            context.reset()

            let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "quantity", "count16", "price", "purchased", "addedAt",
                                         "identifier", "photo", "link", "cost"]
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            let rows = try context.fetch(request)
            #expect(rows.count == 2)
            let row = rows[0], empty = rows[1]
            #expect(row["quantity"] as? Int64 == 3_000_000_000 && row["quantity"] as? Int == 3_000_000_000)
            #expect(row["quantity"] as? Double == 3_000_000_000 && (row["quantity"] as? NSNumber)?.int64Value == 3_000_000_000)
            #expect(row["count16"] as? Int16 == 12 && row["count16"] as? Int == 12)
            #expect(row["price"] as? Double == 2.5 && row["price"] as? Int == nil)
            #expect(row["purchased"] as? Bool == true)
            #expect(row["addedAt"] as? Date == when)
            #expect(row["identifier"] as? UUID == identifier)
            #expect(row["photo"] as? Data == Data([1, 2, 3]))
            #expect(row["link"] as? URL == URL(string: "https://example.com/a"))
            #expect(row["cost"] as? Decimal == Decimal(string: "12.75"))
            #expect(row["name"] as? String == "Full")
            // Nil values are left out; the defaults are there.
            #expect(Set(empty.allKeys.compactMap { $0 as? String }) == ["name", "quantity", "purchased"])
            #expect(empty["price"] == nil && empty["quantity"] as? Int == 1)

            let bridged = try #require(rows as? [[String: Any]])
            #expect(bridged[0].count == 10 && bridged[0]["quantity"] as? Int64 == 3_000_000_000)
            #expect(bridged[1]["name"] as? String == "Empty")
        }
    }

    @Test("a column whose expression description asks for another result type converts its values",
          arguments: bothStoreTypes)
    func resultTypes(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        let context = stack.context
        try context.performAndWait {
            stack.insert("ShoppingItem", ["name": "Tea", "quantity": 7, "price": 3.75])
            try context.save()
            context.reset()

            let asDouble = NSExpressionDescription()
            asDouble.name = "amount"
            asDouble.expression = NSExpression(forKeyPath: "quantity")
            asDouble.expressionResultType = .doubleAttributeType
            let asInteger = NSExpressionDescription()
            asInteger.name = "whole"
            asInteger.expression = NSExpression(forKeyPath: "price")
            asInteger.expressionResultType = .integer64AttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = [asDouble, asInteger, "name"]
            let row = try #require(try context.fetch(request).first)
            #expect((row["amount"] as? NSNumber)?.doubleValue == 7 && row["amount"] as? Double == 7)
            #expect(row["whole"] as? Int64 == 3)
            #expect(row["name"] as? String == "Tea")
        }
    }
}
