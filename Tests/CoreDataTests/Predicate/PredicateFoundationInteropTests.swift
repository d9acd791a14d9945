import CoreData
import Foundation
import Testing

/// A file that imports Foundation as well as CoreData: `NSPredicate` and
/// `NSSortDescriptor` are Foundation's (with our factory initializers), while
/// `NSExpression` and `NSComparisonPredicate` are called unqualified but must be written
/// `CoreData.…` where the name is a type (`scripts/measure-foundation-names.sh`).
@Suite struct PredicateFoundationInteropTests {

    @Test("NSPredicate is Foundation's type, created by our factory initializer")
    func predicateTypeIsFoundations() {
        let predicate: NSPredicate = NSPredicate(format: "SELF > 2")
        #expect(predicate.evaluate(with: 3))
        let filtered = NSArray(array: [1, 2, 3, 4]).filtered(using: predicate)
        #expect(filtered.count == 2)
    }

    @Test("CoreData.NSExpression and CoreData.NSComparisonPredicate in type position")
    func qualifiedTypes() throws {
        let left: CoreData.NSExpression = CoreData.NSExpression(forKeyPath: "count")
        let right: CoreData.NSExpression = CoreData.NSExpression(forConstantValue: 2)
        let predicate: CoreData.NSComparisonPredicate = CoreData.NSComparisonPredicate(
            leftExpression: left, rightExpression: right, modifier: .direct, type: .greaterThan)
        #expect(predicate.evaluate(with: ["count": 3]))
        let parsed = try #require(NSPredicate(format: "count > 2") as? CoreData.NSComparisonPredicate)
        #expect(parsed.leftExpression.keyPath == "count")
    }

    @Test("NSSortDescriptor is Foundation's type with our key-based factory")
    func sortDescriptorType() {
        let descriptor: NSSortDescriptor = NSSortDescriptor(key: "n", ascending: true)
        #expect(descriptor.compare(["n": 1], to: ["n": 2]) == .orderedAscending)
        #expect(descriptor.key == "n")
    }

    @Test("NSPredicate(value:) and NSPredicate(block:) still work beside ours")
    func foundationPredicatesStillWork() {
        #expect(NSPredicate(value: true).evaluate(with: nil))
        #expect(NSPredicate { object, _ in (object as? Int) == 1 }.evaluate(with: 1))
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(value: true), NSPredicate(format: "SELF == 1")])
        #expect(both.evaluate(with: 1))
        #expect(!both.evaluate(with: 2))
    }

    @Test("calls need no qualifier beside Foundation: initializers, class methods, inferred cases")
    func unqualifiedCalls() throws {
        // Each of these names resolves to CoreData's class although Foundation declares
        // one too: Foundation's initializers and methods are unavailable on Linux.
        let key = NSExpression(forKeyPath: "count")
        let limit = NSExpression(forConstantValue: 2)
        let sum = NSExpression(format: "count + %@", 1)
        let me = NSExpression.expressionForEvaluatedObject()
        let predicate = NSComparisonPredicate(leftExpression: key, rightExpression: limit,
                                              modifier: .direct, type: .greaterThan)
        #expect(predicate.evaluate(with: ["count": 3]))
        #expect(key.expressionType == .keyPath)
        #expect(sum.expressionValue(with: ["count": 1], context: nil) as? Int == 2)
        #expect(me.expressionValue(with: 7, context: nil) as? Int == 7)
        let fetched = NSExpressionDescription()
        fetched.expression = NSExpression(forKeyPath: "count")
        #expect(fetched.expression?.keyPath == "count")
    }
}
