import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// A fetch's SQL is compiled once per predicate shape (issue 12): predicates built per call
/// with other constants reuse it, and every fetch still answers with its own constants.
@Suite struct SelectShapeTests {
    static func populated() throws -> TestStack {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: DifferentialModel.make())
        DifferentialModel.populate(stack.context, seed: 5)
        try stack.context.save()
        return stack
    }

    static func backend(_ stack: TestStack) throws -> SQLiteStoreBackend {
        try #require(stack.coordinator.persistentStores.first?.backend as? SQLiteStoreBackend)
    }

    /// The people a predicate selects, fetched from the store and filtered in memory.
    static func compare(_ predicate: NSPredicate, in stack: TestStack) throws -> (fetched: [String], expected: [String]) {
        let context = stack.newContext()
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = predicate
            request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
            let fetched = try context.fetch(request).map { "\($0.value(forKey: "serial") ?? "nil")" }
            let all = NSFetchRequest<NSManagedObject>(entityName: "Person")
            all.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
            let expected = try context.fetch(all).filter { predicate.evaluate(with: $0) }
                .map { "\($0.value(forKey: "serial") ?? "nil")" }
            return (fetched, expected)
        }
    }

    @Test("a predicate built per call compiles once per shape and binds each call's constants")
    func builtPerCall() throws {
        let stack = try Self.populated()
        let serials = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
                .compactMap { $0.value(forKey: "serial") as? Int64 }
        }
        #expect(serials.count > 3)
        let backend = try Self.backend(stack)
        for serial in serials.prefix(4) {
            let predicate = NSPredicate(format: "serial == %lld AND age >= %lld", serial, Int64(0))
            let (fetched, expected) = try Self.compare(predicate, in: stack)
            #expect(fetched == expected)
            #expect(fetched == ["\(serial)"] || expected.isEmpty)
        }
        // One shape with a predicate (the unfiltered fetches that `compare` makes are another,
        // without one), compiled to SQL once.
        let shapes = backend.selectCache.entries.filter { !$0.key.tokens.isEmpty }
        #expect(shapes.count == 1)
        #expect((shapes.first?.value ?? nil) != nil)
    }

    @Test("folded string constants, dates and reversed operands keep their meaning through the cache")
    func constantKinds() throws {
        let stack = try Self.populated()
        let formats: [(String, [[Any]])] = [
            ("name ==[cd] %@", [["BOB"], ["angström"], ["ÉCLAIR"], ["nobody"]]),
            ("%@ < name", [["b"], ["m"]]),
            ("born > %@ OR score <= %@", [[Date(timeIntervalSinceReferenceDate: 0), 1.5],
                                          [Date(timeIntervalSinceReferenceDate: 400_000), -3.0]]),
            ("NOT (age != %@)", [[Int64(30)], [Int64(41)]]),
        ]
        for (format, calls) in formats {
            for arguments in calls {
                let predicate = NSPredicate(format: format, argumentArray: arguments)
                let (fetched, expected) = try Self.compare(predicate, in: stack)
                #expect(fetched == expected, "\(format) \(arguments)")
            }
        }
    }

    @Test("a comparison the compiler decides without its constant is compiled every time")
    func undecidedShapesAreNotCached() throws {
        let stack = try Self.populated()
        let backend = try Self.backend(stack)
        // A number against a string attribute: never equal, so the SQL binds nothing.
        for value in [Int64(1), Int64(2)] {
            let predicate = NSPredicate(format: "name == %lld OR serial == %lld", value, value)
            let (fetched, expected) = try Self.compare(predicate, in: stack)
            #expect(fetched == expected)
        }
        let shapes = backend.selectCache.entries.filter { $0.key.tokens.count == 3 }
        #expect(shapes.count == 1)
        #expect(shapes.first?.value == .some(nil))
    }
}
