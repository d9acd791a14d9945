@testable import CoreData

/// A tiny object graph for predicate tests: people with a to-one department and to-many
/// projects, read through `KeyValueReading` as managed objects will be.
final class TestPerson: KeyValueReading {
    var values: [String: Any]
    init(_ values: [String: Any]) { self.values = values }

    func predicateValue(forKey key: String) throws -> Any? {
        let known: Set<String> = ["name", "age", "salary", "active", "birthday", "department",
                                  "projects", "tags", "nickname"]
        guard known.contains(key) else { throw PredicateEvaluationError.unknownKey(key) }
        return values[key]
    }
}

final class TestProject: KeyValueReading {
    let title: String
    let hours: Int
    init(_ title: String, _ hours: Int) { self.title = title; self.hours = hours }

    func predicateValue(forKey key: String) throws -> Any? {
        switch key {
        case "title": return title
        case "hours": return hours
        default: throw PredicateEvaluationError.unknownKey(key)
        }
    }
}

enum PredicateFixtures {
    static var research: [String: Any] { ["name": "Research", "budget": 1000] }

    static func alice() -> TestPerson {
        TestPerson([
            "name": "Alice", "age": 34, "salary": 5000.5, "active": true,
            "department": research,
            "projects": NSSet(array: [TestProject("Orion", 120), TestProject("Vega", 40)]),
            "tags": ["swift", "linux"],
            "birthday": Date(timeIntervalSinceReferenceDate: 0),
        ])
    }

    static func bob() -> TestPerson {
        TestPerson(["name": "Bob", "age": 19, "active": false, "projects": NSSet(),
                    "tags": [String]()])
    }
}

/// Parses (throwing) and evaluates (throwing) in one step.
func predicateHolds(_ format: String, _ object: Any? = nil, _ arguments: [Any] = [],
           variables: [String: Any]? = nil) throws -> Bool {
    try NSPredicate.parse(format: format, arguments: arguments)
        .evaluateOrThrow(with: object, substitutionVariables: variables)
}

/// The error a format string fails to parse with.
func formatParseError(_ format: String, _ arguments: [Any] = []) -> NSError? {
    do {
        _ = try NSPredicate.parse(format: format, arguments: arguments)
        return nil
    } catch {
        return error as NSError
    }
}
