import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct FetchRequestExpressionTests {
    private func fill(_ stack: TestStack) throws -> (week: NSManagedObject, party: NSManagedObject) {
        let week = stack.insert("ShoppingList", ["title": "Week"])
        let party = stack.insert("ShoppingList", ["title": "Party"])
        for (name, list) in [("Milk", week), ("Bread", week), ("Cake", party)] {
            stack.insert("ShoppingItem", ["name": name]).setValue(list, forKey: "list")
        }
        try stack.context.save()
        return (week, party)
    }

    @Test("a predicate holding a fetch request expression selects by the fetch's results", arguments: allStoreTypes)
    func predicateWithFetch(storeType: String) throws {
        let stack = try TestStack(storeType: storeType)
        _ = try fill(stack)
        let weekLists = NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")
        weekLists.predicate = NSPredicate(format: "title == %@", "Week")
        let fetch = NSFetchRequestExpression.expression(
            forFetch: NSExpression(forConstantValue: weekLists),
            context: NSExpression(forConstantValue: stack.context), countOnly: false)
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "list"), rightExpression: fetch,
            modifier: .direct, type: .in)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let names = try stack.context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["Bread", "Milk"])
    }

    @Test("evaluating a fetch request expression runs fetch(_:) or count(for:) in its context")
    func evaluation() throws {
        let stack = try TestStack()
        let (week, _) = try fill(stack)
        let lists = NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")
        lists.predicate = NSPredicate(format: "title == 'Week'")
        let request = NSExpression(forConstantValue: lists)
        let context = NSExpression(forConstantValue: stack.context)
        let objects = NSFetchRequestExpression.expression(forFetch: request, context: context, countOnly: false)
        let count = NSFetchRequestExpression.expression(forFetch: request, context: context, countOnly: true)

        #expect(objects.expressionType == NSFetchRequestExpressionType)
        #expect(NSFetchRequestExpressionType.rawValue == 50)
        let typed = try #require(count as? NSFetchRequestExpression)
        #expect(typed.isCountOnlyRequest)
        #expect(typed.requestExpression == request && typed.contextExpression == context)
        #expect(!(try #require(objects as? NSFetchRequestExpression)).isCountOnlyRequest)

        let found = objects.expressionValue(with: nil, context: nil) as? [Any]
        #expect(found?.count == 1)
        #expect(found?.first as? NSManagedObject === week)
        #expect((count.expressionValue(with: nil, context: nil) as? NSNumber)?.intValue == 1)
        // Something that is not a context evaluates to nothing, as a failed fetch does.
        let broken = NSFetchRequestExpression.expression(forFetch: request, context: NSExpression(forConstantValue: 3), countOnly: true)
        #expect(broken.expressionValue(with: nil, context: nil) == nil)
    }

    @Test("fetch request expressions compare by structure and substitute variables in their operands")
    func structure() throws {
        let stack = try TestStack()
        let lists = NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")
        let a = NSFetchRequestExpression.expression(
            forFetch: NSExpression(forConstantValue: lists), context: NSExpression(forVariable: "CONTEXT"), countOnly: true)
        let b = NSFetchRequestExpression.expression(
            forFetch: NSExpression(forConstantValue: lists), context: NSExpression(forVariable: "CONTEXT"), countOnly: true)
        #expect(a == b && a.hash == b.hash)
        #expect(a.description.hasPrefix("FETCH("))
        let predicate = NSComparisonPredicate(leftExpression: a, rightExpression: NSExpression(forConstantValue: 0),
                                              modifier: .direct, type: .equalTo)
        let bound = predicate.withSubstitutionVariables(["CONTEXT": stack.context])
        #expect(bound.evaluate(with: nil))
    }
}
