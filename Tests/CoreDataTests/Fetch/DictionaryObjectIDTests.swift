import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct DictionaryObjectIDTests {
    private func savedItems(onDisk: Bool) throws -> (MembersContainer, [String: NSManagedObjectID]) {
        let container = try MembersContainer.make(onDisk: onDisk)
        let context = container.viewContext
        let items = ["Milk", "Bread", "Tea"].map { name in
            let item = ShoppingItem(context: context)
            item.name = name
            return item
        }
        try context.save()
        return (container, Dictionary(uniqueKeysWithValues: items.map { ($0.name!, $0.objectID) }))
    }

    @Test("propertiesToFetch accepts \"objectID\": each row carries its object's ID", arguments: [false, true])
    func objectIDKey(onDisk: Bool) throws {
        let (container, ids) = try savedItems(onDisk: onDisk)
        let request = NSFetchRequest<NSDictionary>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["objectID", "name"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let rows = try container.newBackgroundContext().fetch(request)
        #expect(rows.map { $0["name"] as? String } == ["Bread", "Milk", "Tea"])
        for row in rows {
            let name = try #require(row["name"] as? String)
            #expect(row["objectID"] as? NSManagedObjectID == ids[name])
        }
    }

    @Test("an NSExpressionDescription over expressionForEvaluatedObject() gives the object's ID", arguments: [false, true])
    func evaluatedObjectDescription(onDisk: Bool) throws {
        let (container, ids) = try savedItems(onDisk: onDisk)
        let objectID = NSExpressionDescription()
        objectID.name = "objectID"
        objectID.expression = NSExpression.expressionForEvaluatedObject()
        objectID.expressionResultType = .objectIDAttributeType
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "ShoppingItem")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [objectID, "name"]
        request.predicate = NSPredicate(format: "name BEGINSWITH %@", "T")
        let context = container.newBackgroundContext()
        let rows = try context.fetch(request) as! [[String: Any]]
        #expect(rows.count == 1)
        let id = try #require(rows.first?["objectID"] as? NSManagedObjectID)
        #expect(id == ids["Tea"])
        #expect(context.object(with: id).value(forKey: "name") as? String == "Tea")
    }
}
