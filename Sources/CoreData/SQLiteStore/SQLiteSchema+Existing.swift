import Foundation

// MARK: - Matching an existing store

extension SQLiteSchema {
    /// Matches the designed names against the columns that an existing store really has
    /// (`PRAGMA table_info`). Collision suffixes and reflexive join-table names are not
    /// predictable (<doc:StoreFormat#Names-and-indexes>), so each column is looked up by its
    /// designed name, then by its base name with suffixes 1–9. Throws
    /// `NSPersistentStoreIncompatibleSchemaError` when a table or column is missing.
    mutating func resolve(with connection: SQLiteConnection) throws {
        var missing: [String] = []
        var renames: [Int: [String: String]] = [:]
        for t in tables.indices {
            let existing = try connection.columns(ofTable: tables[t].name).map(\.name)
            if existing.isEmpty {
                missing.append("table \(tables[t].name)")
                continue
            }
            let designed = tables[t].columns.map { ($0.name, $0.baseName) }
            guard let map = Self.match(designed, in: existing) else {
                missing.append(contentsOf: Self.unmatched(designed, in: existing).map { "column \(tables[t].name).\($0)" })
                continue
            }
            renames[t] = map
            for c in tables[t].columns.indices { tables[t].columns[c].name = map[tables[t].columns[c].name]! }
        }
        func rename(_ t: Int?, _ name: String) -> String {
            t.flatMap { renames[$0]?[name] } ?? name
        }
        for (key, name) in attributeColumns {
            let t = entity(owning: key).flatMap(tableIndex(for:))
            attributeColumns[key] = rename(t, name)
        }
        for (key, columns) in toOneColumns {
            let t = entity(owning: key).flatMap(tableIndex(for:))
            toOneColumns[key] = (rename(t, columns.fk), columns.entity.map { rename(t, $0) })
        }
        for (key, value) in toMany {
            if case let .children(t, fk, order) = value {
                toMany[key] = .children(table: t, foreignKey: rename(t, fk), orderColumn: order.map { rename(t, $0) })
            }
        }
        for j in joinTables.indices {
            var found: (String, [String])?
            for name in [joinTables[j].name] + joinTables[j].alternativeNames {
                let columns = try connection.columns(ofTable: name).map(\.name)
                if !columns.isEmpty { found = (name, columns); break }
            }
            guard let (name, existing) = found else {
                missing.append("table \(joinTables[j].name)")
                continue
            }
            let join = joinTables[j]
            let designed = [join.columnA, join.columnB, join.orderA, join.orderB].compactMap { $0 }.map { ($0, $0) }
            guard let map = Self.match(designed, in: existing) else {
                missing.append(contentsOf: Self.unmatched(designed, in: existing).map { "column \(name).\($0)" })
                continue
            }
            joinTables[j].name = name
            joinTables[j].columnA = map[join.columnA]!
            joinTables[j].columnB = map[join.columnB]!
            joinTables[j].orderA = join.orderA.map { map[$0]! }
            joinTables[j].orderB = join.orderB.map { map[$0]! }
        }
        indexes = []
        if !missing.isEmpty {
            throw CoreDataError.make(
                NSPersistentStoreIncompatibleSchemaError,
                "The store's schema does not match the model: missing \(missing.joined(separator: ", ")).",
                userInfo: ["missing": missing])
        }
    }

    /// The entity that declares the property with this identity.
    private func entity(owning property: ObjectIdentifier) -> NSEntityDescription? {
        for entity in entitiesByID.values {
            if entity.properties.contains(where: { ObjectIdentifier($0) == property }) { return entity }
        }
        return nil
    }

    /// Designed name → existing name (exact matches first, then base name + suffix), or
    /// nil when some column has no match.
    private static func match(_ designed: [(name: String, base: String)], in existing: [String]) -> [String: String]? {
        let byUpper = Dictionary(existing.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var claimed: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        var map: [String: String] = [:]
        for column in designed {
            let key = column.name.uppercased()
            if let found = byUpper[key], !claimed.contains(key) {
                map[column.name] = found
                claimed.insert(key)
            }
        }
        for column in designed where map[column.name] == nil {
            let candidates = [column.base] + (1...9).map { column.base + String($0) }
            guard let key = candidates.map({ $0.uppercased() }).first(where: { byUpper[$0] != nil && !claimed.contains($0) }) else {
                return nil
            }
            map[column.name] = byUpper[key]!
            claimed.insert(key)
        }
        return map
    }

    private static func unmatched(_ designed: [(name: String, base: String)], in existing: [String]) -> [String] {
        let upper = Set(existing.map { $0.uppercased() })
        return designed.filter { column in
            !([column.base] + (1...9).map { column.base + String($0) } + [column.name])
                .contains { upper.contains($0.uppercased()) }
        }.map(\.name)
    }
}
