import Foundation
// SQLiteStoreInspection (SPI Tools): SQLite's integrity check and Z_PRIMARYKEY's counters.
@_spi(Tools) import CoreData

/// `coredata check <store>`: is the store sound? SQLite's integrity check, every
/// `Z_PRIMARYKEY` counter at or above the keys in use (else the next insert would reuse a
/// key), and, with the model, every relationship leading to an object that exists and
/// whose inverse leads back. Exits 0 when
/// all is well, 1 when it found a problem (each printed), 2 for bad arguments.
enum CheckCommand: Subcommand {
    static let name = "check"
    static let summary = "check a store: SQLite integrity, primary keys, inverse relationships"
    static let usage = """
        check <store> [--model <bundle>] [--json]
          <store>            a SQLite store, read without writing anything in or beside it
          --model <bundle>   also check that every relationship and its inverse agree
          --json             print {"problems": [...], "checks": [...]}
        exit status: 0 sound, 1 problems found (or the store cannot be read), 2 bad arguments
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        if printedHelp(arguments, usage: usage) { return ExitStatus.success }
        let parsed = try CommandArguments(arguments, options: ["--model"], flags: ["--json"])
        let url = URL(fileURLWithPath: try parsed.positional(0, missing: "the store path"))
        var checks: [String] = []
        var problems: [String] = []

        let integrity = try SQLiteStoreInspection.integrityCheck(storeAt: url)
        checks.append("SQLite integrity check")
        if integrity != ["ok"] { problems += integrity.map { "integrity: \($0)" } }

        let inspection = try SQLiteStoreInspection(storeAt: url)
        checks.append("Z_PRIMARYKEY counters (\(inspection.primaryKeyCounters.count) root entities)")
        for counter in inspection.primaryKeyCounters where !counter.isConsistent {
            if let largest = counter.largestInUse {
                problems.append("Z_PRIMARYKEY: \(counter.entity) has Z_MAX \(counter.counter) but its table holds Z_PK \(largest): the next insert would reuse a key")
            } else {
                problems.append("Z_PRIMARYKEY: \(counter.entity) has no table Z\(counter.entity.uppercased())")
            }
        }

        if let model = parsed.value("--model") {
            let opened = try OpenedStore(storeAt: url, modelBundle: URL(fileURLWithPath: model))
            defer { opened.close() }
            let (count, found) = try inverseProblems(opened)
            checks.append("relationships and their inverses (\(count) checked)")
            problems += found
        }

        if parsed.has("--json") {
            print(try JSONValues.text(["checks": checks, "problems": problems]))
        } else {
            for check in checks { print("checked: \(check)") }
            for problem in problems { print("PROBLEM: \(problem)") }
            print(problems.isEmpty ? "The store is sound." : "\(problems.count) problem\(problems.count == 1 ? "" : "s") found.")
        }
        return problems.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// For every object and every relationship of its entity that has an inverse: each
    /// destination exists (no foreign key names a missing row) and its inverse leads back
    /// to the object.
    static func inverseProblems(_ opened: OpenedStore) throws -> (checked: Int, problems: [String]) {
        var checked = 0
        var problems: [String] = []
        let context = opened.context
        try context.performAndWait {
            for entity in opened.model.entities where entity.superentity == nil {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                for object in try context.fetch(request) {
                    for (name, relationship) in object.entity.relationshipsByName {
                        guard let inverse = relationship.inverseRelationship else { continue }
                        for destination in members(object, name, relationship) {
                            checked += 1
                            if (try? context.existingObject(with: destination.objectID)) == nil {
                                problems.append("dangling: \(uri(object)).\(name) refers to \(uri(destination)), which is not in the store")
                                continue
                            }
                            if !members(destination, inverse.name, inverse).contains(where: { $0 === object }) {
                                problems.append("inverse: \(uri(object)).\(name) holds \(uri(destination)), whose \(inverse.name) does not hold it back")
                            }
                        }
                    }
                }
                context.reset()
            }
        }
        return (checked, problems)
    }

    static func members(_ object: NSManagedObject, _ key: String, _ relationship: NSRelationshipDescription) -> [NSManagedObject] {
        let value = object.value(forKey: key)
        if !relationship.isToMany { return (value as? NSManagedObject).map { [$0] } ?? [] }
        if let set = value as? NSSet { return set.compactMap { $0 as? NSManagedObject } }
        if let ordered = value as? NSOrderedSet { return ordered.compactMap { $0 as? NSManagedObject } }
        if let set = value as? Set<NSManagedObject> { return Array(set) }
        return []
    }

    /// Objects in the order of their entity's name, then their primary key.
    static func primaryKeyOrder(_ a: NSManagedObject, _ b: NSManagedObject) -> Bool {
        let (first, second) = (uri(a).split(separator: "/"), uri(b).split(separator: "/"))
        if first.first != second.first { return (first.first ?? "") < (second.first ?? "") }
        return (Int(first.last?.dropFirst() ?? "") ?? 0) < (Int(second.last?.dropFirst() ?? "") ?? 0)
    }

    /// An object's ID as its URI's last two parts: `Person/p3`.
    static func uri(_ object: NSManagedObject) -> String {
        object.objectID.uriRepresentation().pathComponents.suffix(2).joined(separator: "/")
    }
}
