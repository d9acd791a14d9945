import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Fetches on the SQLite store run as one compiled SQL statement (issue 5, item 4).
@Suite struct SQLiteQueryCompilationTests {
    /// Records the statements a connection runs.
    final class StatementLog {
        var statements: [String] = []
        convenience init(_ stack: TestStack) throws {
            try self.init(stack.coordinator)
        }

        init(_ coordinator: NSPersistentStoreCoordinator) throws {
            let backend = try #require(coordinator.persistentStores.first?.backend as? SQLiteStoreBackend)
            let connection = try #require(backend.connection)
            connection.statementObserver = { [unowned self] in self.statements.append($0) }
        }
    }

    static func populated() throws -> TestStack {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: DifferentialModel.make())
        DifferentialModel.populate(stack.context, seed: 3)
        try stack.context.save()
        return stack
    }

    static func compiles(_ format: String, _ arguments: [Any] = [], in stack: TestStack) throws -> String? {
        let backend = try #require(stack.coordinator.persistentStores.first?.backend as? SQLiteStoreBackend)
        let person = try #require(stack.model.entitiesByName["Person"])
        let compiler = SQLPredicateCompiler(schema: backend.schema, entity: person, backend: backend)
        return try? compiler.condition(NSPredicate.parse(format: format, arguments: arguments))
    }

    @Test("a predicate fetch with a LIMIT on an indexed attribute issues exactly one statement")
    func oneStatement() throws {
        let stack = try Self.populated()
        let context = stack.newContext()
        let log = try StatementLog(stack)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@", "bob")
        request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
        request.fetchLimit = 2
        let people = try context.fetch(request)
        #expect(!people.isEmpty)
        #expect(people.allSatisfy { $0.value(forKey: "name") as? String == "bob" })
        #expect(log.statements.count == 1, "\(log.statements)")
        #expect(log.statements.first?.contains("LIMIT") == true)
        #expect(log.statements.first?.contains("WHERE") == true)
    }

    @Test("count(for:) with a predicate is one COUNT statement")
    func countStatement() throws {
        let stack = try Self.populated()
        let context = stack.newContext()
        let log = try StatementLog(stack)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "ANY pets.legs > 2 OR team.title BEGINSWITH[cd] 'a'")
        let count = try context.count(for: request)
        #expect(log.statements.count == 1)
        #expect(log.statements.first?.hasPrefix("SELECT COUNT(*)") == true)
        #expect(count == (try stack.newContext().fetch(request).count))
    }

    @Test("values are bound as parameters, never spliced into the SQL")
    func boundValues() throws {
        let stack = try Self.populated()
        let context = stack.newContext()
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        let tricky = "O'Brien'); DROP TABLE ZPERSON; --"
        person.setValue(tricky, forKey: "name")
        try context.save()
        let log = try StatementLog(stack)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@ AND age == nil", tricky)
        #expect(try stack.newContext().fetch(request).count == 1)
        #expect(log.statements.count == 1)
        #expect(!log.statements[0].contains("O'Brien"))
    }

    @Test("every construct a store can run compiles to SQL", arguments: [
        "name ==[cd] 'angstrom' AND age >= 18",
        "name LIKE[c] 'a*' OR nickname MATCHES '[a-z]+'",
        "name BEGINSWITH 'A' OR name ENDSWITH[d] 'e' OR name CONTAINS[cd] 'Ö'",
        "NOT (score > 3.5) AND active == YES",
        "age BETWEEN {10, 20} AND name IN {'bob', 'alice'}",
        "'ob' IN name",
        "team.title ==[c] 'bob' AND team.rank != nil",
        "ANY pets.legs > 2", "ALL pets.name BEGINSWITH[c] 'a'", "NONE clubs.name == 'x'",
        "pets.@count > 1", "pets.@sum.legs >= 4", "pets.@avg.legs > 1.5", "pets.@max.legs == 4",
        "clubs.@min.name < 'b'", "team.people.@count > 3",
        "SUBQUERY(pets, $p, $p.legs > 1 AND $p.name BEGINSWITH 'a').@count > 0",
        "ANY clubs.members.name == 'bob'", "clubs.name CONTAINS[c] 'BOB'",
        "age + 1 > score * 2", "born + 86400 > CAST(0, 'NSDate')", "score / 2 > 1",
        "team == nil", "SELF != nil", "TRUEPREDICATE", "FALSEPREDICATE",
        "token == nil OR born < now()",
    ])
    func constructs(_ format: String) throws {
        let stack = try Self.populated()
        #expect(try Self.compiles(format, in: stack) != nil)
    }

    @Test("objects, UUIDs and dates are bound as the store encodes them")
    func encodedConstants() throws {
        let stack = try Self.populated()
        let context = stack.newContext()
        let teams = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team"))
        let team = try #require(teams.first)
        for (format, argument) in [("team == %@", team as Any), ("team IN %@", teams as Any),
                                   ("token == %@", DifferentialModel.uuids[0] as Any),
                                   ("born >= %@", Date(timeIntervalSinceReferenceDate: 86_400 * 3) as Any)] {
            let predicate = try NSPredicate.parse(format: format, arguments: [argument])
            #expect(try Self.compiles(format, [argument], in: stack) != nil, "\(format)")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = predicate
            let expected = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
                .filter { predicate.evaluate(with: $0) }
            #expect(Set(try context.fetch(request)) == Set(expected), "\(format)")
        }
    }

    @Test("a to-many key path used as a scalar is rejected with a clear error, even in an empty store",
          arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func toManyScalar(_ storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: DifferentialModel.make())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "age > 3 OR pets.name == 'Rex'")
        let error = try #require(throws: NSError.self) { try stack.context.fetch(request) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("to-many key not allowed here: 'pets.name'"))
        #expect(throws: NSError.self) { try stack.context.count(for: request) }
    }

    @Test("an unknown key is rejected in both back ends, even in an empty store",
          arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func unknownKey(_ storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: DifferentialModel.make())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "team.colour == 'red'")
        let error = try #require(throws: NSError.self) { try stack.context.fetch(request) }
        #expect(error.localizedDescription.contains("no property named 'colour'"))
    }

    @Test("case-insensitive and localized sorts and to-one key paths are sorted by SQL")
    func sortsInSQL() throws {
        let stack = try Self.populated()
        let log = try StatementLog(stack)
        for selector in ["caseInsensitiveCompare:", "localizedCompare:", "localizedStandardCompare:"] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "team.title", ascending: false, selector: Selector(selector)),
                                       NSSortDescriptor(key: "name", ascending: true, selector: Selector(selector))]
            request.fetchLimit = 10
            log.statements = []
            let fetched = try stack.newContext().fetch(request)
            #expect(log.statements.count == 1)
            #expect(log.statements.first?.contains("LEFT JOIN") == true)
            let reference = stack.newContext()
            let everyone = try reference.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            let expected = Array(NSSortDescriptor.sort(everyone, by: request.sortDescriptors!).prefix(10))
            #expect(fetched.map(\.objectID) == expected.map(\.objectID), "\(selector)")
        }
    }

    @Test("odd predicates never crash: both stores give the same rows or both throw", arguments: [
        "name IN 3", "pets.@sum.name > 1", "SUBQUERY(name, $x, $x == 1).@count > 0", "ANY name == 'a'",
        "FUNCTION(name, 'foo') == 1", "name[FIRST] == 'a'", "CAST(name, 'NSDate') > now()",
        "$unbound == 1", "age BETWEEN {1}", "name MATCHES '('", "pets.@avg.name > 1",
        "team.people.pets.name == 'a'", "@count > 1", "team.@sum.rank > 1", "ALL team.title == 'a'",
        "pets == nil", "pets != nil", "pets.legs == pets.legs", "clubs CONTAINS nil", "nil IN clubs",
        "age / 0 > 1", "score BETWEEN {'a', 'b'}", "token > %@", "born == 3", "active BEGINSWITH 'a'",
        "SUBQUERY(pets, $p, ANY $p.owner.clubs.name == 'bob').@count > 0", "TERNARY(age > 3, name, nickname) == 'bob'",
        "lowercase(name) == 'bob'", "name.length > 3", "pets[SIZE] > 1", "SELF == nil", "SELF.name ==[cd] 'BOB'",
    ])
    func oddPredicates(_ format: String) throws {
        var results: [Result<Set<Int64>, Error>] = []
        for storeType in [NSSQLiteStoreType, NSInMemoryStoreType] {
            let stack = try TestStack(storeType: storeType, model: DifferentialModel.make())
            DifferentialModel.populate(stack.context, seed: 5)
            try stack.context.save()
            let context = stack.newContext()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            results.append(Result {
                request.predicate = try NSPredicate.parse(format: format, arguments: [DifferentialModel.uuids[0]])
                return Set(try context.fetch(request).compactMap { $0.value(forKey: "serial") as? Int64 })
            })
        }
        switch (results[0], results[1]) {
        case let (.success(a), .success(b)): #expect(a == b)
        case (.failure, .failure): break
        default: Issue.record("\(format): SQLite \(results[0]) vs memory \(results[1])")
        }
    }
}
