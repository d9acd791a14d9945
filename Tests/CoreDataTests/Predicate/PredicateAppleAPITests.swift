import CoreData
import Testing

/// Apple's spellings only, with `import CoreData` alone: this file would compile against
/// Apple's framework too (with `#selector` in place of `Selector(...)`).
@Suite struct PredicateAppleAPITests {
    let people: [[String: Any]] = [
        ["name": "Alice", "age": 34], ["name": "bob", "age": 19], ["name": "Carol", "age": 52],
    ]

    @Test("NSPredicate(format:) returns a predicate that filters objects")
    func formatPredicateFilters() {
        let predicate: NSPredicate = NSPredicate(format: "age > %d", 20)
        let names = people.filter { predicate.evaluate(with: $0) }.compactMap { $0["name"] as? String }
        #expect(names == ["Alice", "Carol"])
    }

    @Test("NSPredicate(format:argumentArray:) binds an argument array")
    func argumentArray() {
        let predicate = NSPredicate(format: "name IN %@", argumentArray: [["Alice", "bob"]])
        #expect(people.filter { predicate.evaluate(with: $0) }.count == 2)
    }

    @Test("NSComparisonPredicate and NSExpression build the same predicate as the parser")
    func objectAPI() {
        let built = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"),
            rightExpression: NSExpression(forConstantValue: "a"),
            modifier: .direct, type: .beginsWith, options: [.caseInsensitive])
        #expect(built.evaluate(with: ["name": "Alice"]))
        #expect(built == NSPredicate(format: "name BEGINSWITH[c] 'a'"))
        #expect(built.predicateFormat == "name BEGINSWITH[c] \"a\"")
        #expect(built.predicateOperatorType == .beginsWith)
        #expect(built.comparisonPredicateModifier == .direct)
        #expect(NSComparisonPredicate.Operator.between.rawValue == 100)
        #expect(NSComparisonPredicate.Operator.contains.rawValue == 99)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSComparisonPredicate.Options.diacriticInsensitive.rawValue == 2)
    }

    @Test("Foundation's NSCompoundPredicate evaluates our predicates")
    func compoundOverOurPredicates() {
        let adultsNamedA = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "age >= 18"), NSPredicate(format: "name BEGINSWITH 'A'"),
        ])
        #expect(people.filter { adultsNamedA.evaluate(with: $0) }.count == 1)
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [
            NSPredicate(format: "age < 20"), NSPredicate(format: "age > 50"),
        ])
        #expect(people.filter { either.evaluate(with: $0) }.count == 2)
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "age < 20"))
        #expect(people.filter { not.evaluate(with: $0) }.count == 2)
    }

    @Test("parsed compound predicates are NSCompoundPredicates")
    func parsedCompounds() throws {
        let compound = try #require(NSPredicate(format: "a == 1 AND b == 2") as? NSCompoundPredicate)
        #expect(compound.compoundPredicateType == .and)
        #expect(compound.subpredicates.count == 2)
        // `description` is `predicateFormat` without Foundation's Linux deprecation warning.
        #expect(compound.description == "a == 1 AND b == 2")
    }

    @Test("NSPredicate(block:) evaluates, also inside a compound predicate")
    func blockPredicates() {
        let block = NSPredicate { object, _ in (object as? [String: Any])?["age"] as? Int == 19 }
        #expect(people.filter { block.evaluate(with: $0) }.count == 1)
        let compound = NSCompoundPredicate(orPredicateWithSubpredicates: [block, NSPredicate(format: "age > 50")])
        #expect(people.filter { compound.evaluate(with: $0) }.count == 2)
    }

    @Test("withSubstitutionVariables replaces $variables with constants")
    func substitution() {
        let template = NSPredicate(format: "age > $MIN AND SUBQUERY(kids, $MIN, $MIN > 1).@count == 0")
        let bound = template.withSubstitutionVariables(["MIN": 30])
        #expect(bound.description == "age > 30 AND SUBQUERY(kids, $MIN, $MIN > 1).@count == 0")
        #expect(bound.evaluate(with: ["age": 34, "kids": [Int]()]))
        #expect(NSPredicate(format: "age > $MIN").evaluate(with: ["age": 34], substitutionVariables: ["MIN": 30]))
    }

    @Test("NSExpression evaluates key paths, functions, aggregates and subqueries")
    func expressionValues() {
        let object: [String: Any] = ["items": [["price": 2], ["price": 5]]]
        #expect(NSExpression(forKeyPath: "items.@sum.price").expressionValue(with: object, context: nil) as? Int == 7)
        let max = NSExpression(forFunction: "max:", arguments: [NSExpression(forKeyPath: "items.price")])
        #expect(max.expressionValue(with: object, context: nil) as? Int == 5)
        let add = NSExpression(forFunction: "add:to:", arguments: [NSExpression(forConstantValue: 2), NSExpression(forConstantValue: 3)])
        #expect(add.expressionValue(with: nil, context: nil) as? Int == 5)
        let aggregate = NSExpression(forAggregate: [NSExpression(forConstantValue: 1), NSExpression(forConstantValue: 2)])
        #expect((aggregate.expressionValue(with: nil, context: nil) as? [Any?])?.count == 2)
        let cheap = NSExpression(forSubquery: NSExpression(forKeyPath: "items"), usingIteratorVariable: "i",
                                 predicate: NSPredicate(format: "$i.price < 3"))
        #expect((cheap.expressionValue(with: object, context: nil) as? [Any?])?.count == 1)
        #expect(NSExpression.expressionForEvaluatedObject().expressionValue(with: 4, context: nil) as? Int == 4)
        #expect(NSExpression(forVariable: "v").expressionValue(with: nil, context: ["v": 9]) as? Int == 9)
    }

    @Test("NSExpression accessors describe the tree")
    func expressionAccessors() {
        #expect(NSExpression(forConstantValue: 3).expressionType == .constantValue)
        #expect(NSExpression(forConstantValue: 3).constantValue as? Int == 3)
        #expect(NSExpression(forKeyPath: "a.b").keyPath == "a.b")
        #expect(NSExpression(forKeyPath: "a.b").operand.expressionType == .evaluatedObject)
        #expect(NSExpression(forVariable: "x").variable == "x")
        let f = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "a")])
        #expect(f.function == "sum:" && f.arguments?.count == 1)
        let s = NSExpression(forSubquery: NSExpression(forKeyPath: "a"), usingIteratorVariable: "x",
                             predicate: NSPredicate(value: true))
        #expect(s.expressionType == .subquery && (s.collection as? NSExpression)?.keyPath == "a")
        #expect(s.predicate == NSPredicate(value: true))
        #expect(NSExpression.ExpressionType.aggregate.rawValue == 14)
        #expect(NSExpression(format: "a + 1") == NSExpression(format: "a + 1.0"))
    }

    @Test("NSSortDescriptor(key:ascending:) sorts with Apple's spelling")
    func sortDescriptor() {
        let descriptor: NSSortDescriptor = NSSortDescriptor(key: "age", ascending: false)
        let sorted = people.sorted { descriptor.compare($0, to: $1) == .orderedAscending }
        #expect(sorted.compactMap { $0["age"] as? Int } == [52, 34, 19])
        #expect(descriptor.key == "age")
    }

    @Test("evaluate(with:) answers false when evaluation fails")
    func evaluateFailureIsFalse() {
        final class Opaque {}
        #expect(!NSPredicate(format: "missing == 1").evaluate(with: Opaque()))
        #expect(!NSPredicate(format: "name < 3").evaluate(with: ["name": "x"]))
    }
}
