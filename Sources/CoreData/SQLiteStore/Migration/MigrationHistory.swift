import Foundation

/// Carries a store's persistent history through a lightweight migration, on the
/// connection that builds the destination file (the source attached as `src`).
///
/// `ATRANSACTION` and `ATRANSACTIONSTRING` rows are copied as they are, so transaction
/// numbers and history tokens stay valid; `ACHANGE` rows get the destination model's
/// entity numbers, and their changed-property bits (`ZCOLUMNS`) and tombstone columns are
/// re-indexed for the destination entities' properties. Changes of entities the
/// destination no longer holds are left out: their objects are gone with their rows.
/// `Z_PRIMARYKEY` keeps the history entities' `Z_MAX`.
struct MigrationHistory {
    let sql: MigrationSQL

    /// (source entity, destination entity, its mapping) for each entity the store keeps.
    private var pairs: [(NSEntityDescription, NSEntityDescription, NSEntityMapping)] {
        sql.mapping.entityMappings.compactMap { mapping in
            guard let origin = mapping.sourceEntity, let target = mapping.destinationEntity,
                  sql.destination.entitiesByID[target.runtime.entityID] === target else { return nil }
            return (origin, target, mapping)
        }
    }

    func copy(on connection: SQLiteConnection) throws {
        guard try Self.hasHistory(on: connection) else { return }
        for statement in HistorySchema.createStatements { try connection.execute(statement) }
        let widest = sql.destination.entitiesByID.values.map { HistorySchema.preservedAttributes(of: $0).count }.max() ?? 0
        for index in 0..<widest {
            try connection.execute("ALTER TABLE main.ACHANGE ADD COLUMN \(HistorySchema.tombstoneColumn(index))")
        }
        let numbers = HistorySchema.primaryKeyRows.map { String($0.0) }.joined(separator: ", ")
        try connection.execute(
            "INSERT INTO main.Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) "
                + "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM src.Z_PRIMARYKEY WHERE Z_ENT IN (\(numbers))")
        for (entity, name) in HistorySchema.primaryKeyRows {
            try connection.execute(
                "INSERT OR IGNORE INTO main.Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(entity), '\(name)', 0, 0)")
        }
        for table in ["ATRANSACTIONSTRING", "ATRANSACTION"] {
            let columns = try Self.sharedColumns(table, on: connection).joined(separator: ", ")
            try connection.execute("INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM src.\(table)")
        }
        try copyChanges(on: connection)
        try remapColumnBits(on: connection)
    }

    // MARK: - ACHANGE

    private func copyChanges(on connection: SQLiteConnection) throws {
        let pairs = self.pairs
        guard !pairs.isEmpty else { return }
        let sourceTombstones = try Self.columns("ACHANGE", in: "src", on: connection)
            .filter { $0.hasPrefix("ZTOMBSTONE") }.count
        var columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
        var values = ["s.Z_PK", "s.Z_ENT", "s.Z_OPT", "s.ZCHANGETYPE",
                      "CASE s.ZENTITY" + pairs.map { " WHEN \($0.0.runtime.entityID) THEN \($0.1.runtime.entityID)" }.joined() + " END",
                      "s.ZENTITYPK", "s.ZTRANSACTIONID", "s.ZCOLUMNS"]
        // Destination tombstone column k of entity D holds what source column j of the
        // entity D comes from held, for the attribute that became D's k-th preserved one.
        let widest = sql.destination.entitiesByID.values.map { HistorySchema.preservedAttributes(of: $0).count }.max() ?? 0
        for k in 0..<widest {
            var cases = ""
            for (origin, target, mapping) in pairs {
                let preserved = HistorySchema.preservedAttributes(of: target)
                guard k < preserved.count,
                      let name = Self.sourceName(of: preserved[k].name, in: mapping),
                      let j = HistorySchema.preservedAttributes(of: origin).firstIndex(where: { $0.name == name }),
                      j < sourceTombstones else { continue }
                cases += " WHEN \(origin.runtime.entityID) THEN s.\(HistorySchema.tombstoneColumn(j))"
            }
            columns.append(HistorySchema.tombstoneColumn(k))
            values.append(cases.isEmpty ? "NULL" : "CASE s.ZENTITY\(cases) END")
        }
        let kept = pairs.map { String($0.0.runtime.entityID) }.joined(separator: ", ")
        try connection.execute(
            "INSERT INTO main.ACHANGE (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                + "FROM src.ACHANGE AS s WHERE s.ZENTITY IN (\(kept))")
    }

    /// Rewrites the `ZCOLUMNS` bits of updates whose entity's stored properties were
    /// added, removed or renamed: bit `i` names the `i`-th property by name
    /// (``HistorySchema/trackedProperties(of:)``), so the bits move with the names.
    private func remapColumnBits(on connection: SQLiteConnection) throws {
        for (origin, target, mapping) in pairs {
            let before = HistorySchema.trackedProperties(of: origin).map(\.name)
            let after = HistorySchema.trackedProperties(of: target).map(\.name)
            // Source bit → destination bit.
            var moves: [Int: Int] = [:]
            for (j, name) in after.enumerated() {
                if let source = Self.sourceName(of: name, in: mapping), let i = before.firstIndex(of: source) { moves[i] = j }
            }
            if before == after && moves.allSatisfy({ $0.key == $0.value }) { continue }
            let select = try connection.prepare(
                "SELECT Z_PK, ZCOLUMNS FROM main.ACHANGE WHERE ZENTITY = \(target.runtime.entityID) "
                    + "AND ZCHANGETYPE = 1 AND ZCOLUMNS IS NOT NULL")
            var rewritten: [(Int64, Data)] = []
            while try select.step() {
                guard let bits = select.data(1) else { continue }
                var result = [UInt8](repeating: 0, count: (after.count + 7) / 8)
                for (i, j) in moves where i / 8 < bits.count && bits[bits.startIndex + i / 8] & (1 << UInt8(i % 8)) != 0 {
                    result[j / 8] |= 1 << UInt8(j % 8)
                }
                rewritten.append((select.int64(0), Data(result)))
            }
            let update = try connection.prepare("UPDATE main.ACHANGE SET ZCOLUMNS = ? WHERE Z_PK = ?")
            for (pk, bits) in rewritten {
                try bits.withUnsafeBytes { try update.bindBlob(1, $0.baseAddress, count: $0.count) }
                try update.bind(2, pk)
                try update.run()
            }
        }
    }

    // MARK: - Helpers

    /// The source property the destination property `name` is mapped from.
    private static func sourceName(of name: String, in mapping: NSEntityMapping) -> String? {
        let all = (mapping.attributeMappings ?? []) + (mapping.relationshipMappings ?? [])
        return all.first { $0.name == name }?.sourcePropertyName
    }

    private static func hasHistory(on connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.prepare(
            "SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND name IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING')")
        var count = 0
        while try statement.step() { count += 1 }
        return count == 3
    }

    private static func columns(_ table: String, in schema: String, on connection: SQLiteConnection) throws -> [String] {
        let statement = try connection.prepare("PRAGMA \(schema).table_info(\(table))")
        var names: [String] = []
        while try statement.step() { if let name = statement.string(1) { names.append(name) } }
        return names
    }

    /// The columns `table` has both in the source and in the destination.
    private static func sharedColumns(_ table: String, on connection: SQLiteConnection) throws -> [String] {
        let source = Set(try columns(table, in: "src", on: connection))
        return try columns(table, in: "main", on: connection).filter { source.contains($0) }
    }
}
