import Foundation

/// The SQL of a lightweight migration, for either engine: statements that copy the rows of
/// the source tables (``sourcePrefix``: SQLite's attached `src.`, a PostgreSQL schema the old
/// tables were moved into) into the destination tables (``destinationPrefix``), written in
/// the store's ``dialect``.
///
/// Every relationship of the source is read as `(owner, member, position)` pairs,
/// whatever its storage (to-one key, children's key, join table), so that a destination
/// relationship can be rebuilt from it whatever its own storage.
struct MigrationSQL {
    let source: SQLiteSchema
    let destination: SQLiteSchema
    let mapping: NSMappingModel
    /// The store's external data folder (``ExternalDataStorage/folder``), for values that
    /// stop allowing external storage.
    var externalFolder = ""
    /// How the engine spells what SQLite and PostgreSQL spell differently.
    var dialect = SQLDialect.sqlite
    /// What names a source table: `src.` (SQLite's attached store) or a PostgreSQL schema.
    var sourcePrefix = "src."
    /// What names a destination table: `main.` on SQLite, nothing (the current schema) on
    /// PostgreSQL.
    var destinationPrefix = "main."

    /// An integer NULL: PostgreSQL types an untyped NULL in a subquery as text, which an
    /// integer column then refuses.
    private var nullInteger: String { dialect == .sqlite ? "NULL" : "CAST(NULL AS BIGINT)" }

    // MARK: - Entity rows

    /// One `INSERT … SELECT` per migrated concrete entity.
    func rowCopies() -> [String] {
        var statements: [String] = []
        for entityMapping in mapping.entityMappings {
            guard let origin = entityMapping.sourceEntity, let target = entityMapping.destinationEntity,
                  !target.isAbstract, let sourceTable = table(origin, in: source),
                  let destinationTable = table(target, in: destination) else { continue }
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            var values = ["s.Z_PK", "\(target.runtime.entityID)", "s.Z_OPT"]
            for property in target.runtime.slotProperties where !property.isTransient {
                let key = ObjectIdentifier(property)
                if let attribute = property as? NSAttributeDescription, let column = destination.attributeColumns[key] {
                    columns.append(column)
                    values.append(value(of: attribute, in: target))
                } else if let relationship = property as? NSRelationshipDescription,
                          let stored = destination.toOneColumns[key] {
                    let (fk, member) = foreignKey(of: relationship, in: target)
                    columns.append(stored.fk)
                    values.append(fk)
                    if let entityColumn = stored.entity {
                        columns.append(entityColumn)
                        values.append(member.map { entityNumber(ofPK: fk, memberOf: $0) } ?? nullInteger)
                    }
                }
            }
            for (column, expression) in orderColumns(for: target) {
                columns.append(column)
                values.append(expression)
            }
            statements.append(
                "INSERT INTO \(destinationPrefix)\(destinationTable) (\(columns.joined(separator: ", "))) "
                    + "SELECT \(values.joined(separator: ", ")) FROM \(sourcePrefix)\(sourceTable) AS s "
                    + "WHERE s.Z_ENT = \(origin.runtime.entityID)")
        }
        return statements
    }

    /// The source value of an attribute, its default when it is new (or NULL in the
    /// source while the attribute became non-optional).
    private func value(of attribute: NSAttributeDescription, in entity: NSEntityDescription) -> String {
        let fallback = Self.literal(attribute.defaultValue, kind: SQLiteValueKind(attribute), dialect: dialect)
        guard let old = sourceProperty(of: attribute, in: entity),
              let column = source.attributeColumns[ObjectIdentifier(old)] else { return fallback }
        var current = "s.\(column)"
        // A binary attribute that starts or stops allowing external storage: mark the
        // values, or read them back inline (files included).
        let before = (old as? NSAttributeDescription).flatMap(SQLiteValueKind.init)
        let after = SQLiteValueKind(attribute)
        if dialect != .sqlite {
            // PostgreSQL keeps every binary value in its row, unmarked.
        } else if before == .blob && after == .externalBlob {
            current = "cd_external_mark(\(current))"
        } else if before == .externalBlob && after != .externalBlob {
            current = "cd_external_value(\(current), \(SQLiteLightweightMigration.literal(externalFolder)))"
        }
        if !attribute.isOptional && fallback != "NULL" { return "COALESCE(\(current), \(fallback))" }
        return current
    }

    /// The foreign key of a to-one relationship and the source entity its members are
    /// rows of (nil when the relationship is new).
    private func foreignKey(of relationship: NSRelationshipDescription, in entity: NSEntityDescription)
        -> (String, NSEntityDescription?) {
        if let old = sourceProperty(of: relationship, in: entity) as? NSRelationshipDescription {
            if !old.isToMany, let fk = source.toOneColumns[ObjectIdentifier(old)]?.fk {
                return ("s.\(fk)", old.destinationEntity)
            }
            if let pairs = pairs(of: old) {
                return ("(SELECT x.member FROM (\(pairs)) AS x WHERE x.owner = s.Z_PK ORDER BY x.position, x.member LIMIT 1)",
                        old.destinationEntity)
            }
        }
        // A new to-one whose inverse existed: read the inverse's pairs backwards.
        if let inverse = relationship.inverseRelationship,
           let oldInverse = sourceProperty(of: inverse, in: inverse.entity) as? NSRelationshipDescription,
           let pairs = pairs(of: oldInverse) {
            return ("(SELECT x.owner FROM (\(pairs)) AS x WHERE x.member = s.Z_PK ORDER BY x.owner LIMIT 1)",
                    oldInverse.entity)
        }
        return (nullInteger, nil)
    }

    /// The destination `Z_ENT` of the source row `pk` of `entity`'s hierarchy.
    private func entityNumber(ofPK pk: String, memberOf entity: NSEntityDescription) -> String {
        guard let table = table(entity, in: source) else { return nullInteger }
        return "(SELECT \(entityCase("m.Z_ENT", family: entity)) FROM \(sourcePrefix)\(table) AS m WHERE m.Z_PK = \(pk))"
    }

    /// `CASE` mapping the source `Z_ENT` of `family` members to their destination `Z_ENT`.
    private func entityCase(_ column: String, family entity: NSEntityDescription) -> String {
        var cases = ""
        for member in entity.runtime.family {
            if let target = mapping.destination(of: member) {
                cases += " WHEN \(member.runtime.entityID) THEN \(target.runtime.entityID)"
            }
        }
        return cases.isEmpty ? nullInteger : "CASE \(column)\(cases) END"
    }

    /// `Z_FOK_` columns of the destination table that order `entity`'s rows inside an
    /// ordered to-many relationship, with the position each row had in the source.
    private func orderColumns(for entity: NSEntityDescription) -> [(String, String)] {
        var result: [(String, String)] = []
        for owner in destination.entitiesByID.values {
            for case let relationship as NSRelationshipDescription in owner.properties
            where relationship.entity === owner && relationship.isToMany {
                guard case let .children(_, _, order?)? = destination.toMany[ObjectIdentifier(relationship)],
                      let members = relationship.destinationEntity,
                      members.runtime.family.contains(where: { $0 === entity }) else { continue }
                var expression = nullInteger
                if let old = sourceProperty(of: relationship, in: owner) as? NSRelationshipDescription,
                   old.isOrdered, let pairs = pairs(of: old) {
                    expression = "(SELECT x.position FROM (\(pairs)) AS x WHERE x.member = s.Z_PK LIMIT 1)"
                }
                result.append((order, expression))
            }
        }
        return result
    }

    // MARK: - Join tables

    /// One `INSERT … SELECT` per destination join table, keeping only pairs whose two
    /// objects were migrated.
    func joinCopies() -> [String] {
        var statements: [String] = []
        var sides: [Int: (a: NSRelationshipDescription?, b: NSRelationshipDescription?)] = [:]
        for owner in destination.entitiesByID.values {
            for case let relationship as NSRelationshipDescription in owner.properties where relationship.entity === owner {
                guard case let .join(index, sourceIsA)? = destination.toMany[ObjectIdentifier(relationship)] else { continue }
                if sourceIsA { sides[index, default: (nil, nil)].a = relationship } else { sides[index, default: (nil, nil)].b = relationship }
            }
        }
        for (index, side) in sides.sorted(by: { $0.key < $1.key }) {
            guard let a = side.a, let aMembers = a.destinationEntity,
                  let aTable = table(a.entity, in: destination), let bTable = table(aMembers, in: destination) else { continue }
            let join = destination.joinTables[index]
            // (A's PK, B's PK, position of B in a, position of A in b)
            let select: String
            if let old = sourceProperty(of: a, in: a.entity) as? NSRelationshipDescription, let pairs = pairs(of: old) {
                select = "SELECT x.owner AS a, x.member AS b, x.position AS pb, \(nullInteger) AS pa FROM (\(pairs)) AS x"
            } else if let b = side.b, let old = sourceProperty(of: b, in: b.entity) as? NSRelationshipDescription,
                      let pairs = pairs(of: old) {
                select = "SELECT x.member AS a, x.owner AS b, \(nullInteger) AS pb, x.position AS pa FROM (\(pairs)) AS x"
            } else {
                continue
            }
            var columns = [join.columnA, join.columnB]
            var values = ["y.a", "y.b"]
            if let order = join.orderB { columns.append(order); values.append("y.pb") }
            if let order = join.orderA { columns.append(order); values.append("y.pa") }
            statements.append(dialect.insertSelectIgnoringDuplicates(
                into: destinationPrefix + join.name, columns: columns,
                select: "SELECT \(values.joined(separator: ", ")) FROM (\(select)) AS y "
                    + "WHERE y.a IN (SELECT Z_PK FROM \(destinationPrefix)\(aTable)) "
                    + "AND y.b IN (SELECT Z_PK FROM \(destinationPrefix)\(bTable))"))
        }
        return statements
    }

    // MARK: - Z_PRIMARYKEY

    /// Each destination hierarchy's `Z_MAX`: the largest of its rows' keys and of the
    /// `Z_MAX` of the source hierarchies its entities came from.
    func primaryKeyMaxima() -> [String] {
        destination.tables.map { table in
            var roots = Set<Int>()
            for member in table.root.runtime.family {
                if let origin = mapping.mapping(forDestination: member)?.sourceEntity {
                    roots.insert(origin.runtime.root.runtime.entityID)
                }
            }
            let list = roots.sorted().map(String.init).joined(separator: ", ")
            // PostgreSQL has no empty `IN ()`: a hierarchy with no source keeps no old Z_MAX.
            let old = roots.isEmpty ? "0"
                : "COALESCE((SELECT MAX(Z_MAX) FROM \(sourcePrefix)Z_PRIMARYKEY WHERE Z_ENT IN (\(list))), 0)"
            let greatest = dialect == .sqlite ? "MAX" : "GREATEST"
            return "UPDATE \(destinationPrefix)Z_PRIMARYKEY SET Z_MAX = \(greatest)("
                + "COALESCE((SELECT MAX(Z_PK) FROM \(destinationPrefix)\(table.name)), 0), \(old)) "
                + "WHERE Z_ENT = \(table.root.runtime.entityID)"
        }
    }

    /// `Z_NAME` of each destination entity a source entity migrates into: the name the
    /// store had for it, as Apple's migration leaves it (a renamed entity keeps its old
    /// name there; entity numbers follow the destination model).
    func primaryKeyNames() -> [String] {
        mapping.entityMappings.compactMap { entityMapping in
            guard let origin = entityMapping.sourceEntity, let target = entityMapping.destinationEntity,
                  destination.entitiesByID[target.runtime.entityID] === target else { return nil }
            return "UPDATE \(destinationPrefix)Z_PRIMARYKEY SET Z_NAME = COALESCE("
                + "(SELECT Z_NAME FROM \(sourcePrefix)Z_PRIMARYKEY WHERE Z_ENT = \(origin.runtime.entityID)), Z_NAME) "
                + "WHERE Z_ENT = \(target.runtime.entityID)"
        }
    }

    // MARK: - Source relationships as pairs

    /// `SELECT owner, member, position` over the source rows of a relationship, or nil
    /// when the source store does not hold it.
    func pairs(of relationship: NSRelationshipDescription) -> String? {
        let key = ObjectIdentifier(relationship)
        if !relationship.isToMany {
            guard let fk = source.toOneColumns[key]?.fk, let t = table(relationship.entity, in: source) else { return nil }
            return "SELECT p.Z_PK AS owner, p.\(fk) AS member, \(nullInteger) AS position FROM \(sourcePrefix)\(t) AS p "
                + "WHERE p.\(fk) IS NOT NULL AND p.Z_ENT IN (\(ids(relationship.entity)))"
        }
        switch source.toMany[key] {
        case let .children(t, fk, order)?:
            guard let members = relationship.destinationEntity else { return nil }
            return "SELECT p.\(fk) AS owner, p.Z_PK AS member, \(order.map { "p." + $0 } ?? nullInteger) AS position "
                + "FROM \(sourcePrefix)\(source.tables[t].name) AS p WHERE p.\(fk) IS NOT NULL AND p.Z_ENT IN (\(ids(members)))"
        case let .join(index, sourceIsA)?:
            let join = source.joinTables[index]
            let (owner, member, position) = sourceIsA
                ? (join.columnA, join.columnB, join.orderB) : (join.columnB, join.columnA, join.orderA)
            return "SELECT p.\(owner) AS owner, p.\(member) AS member, \(position.map { "p." + $0 } ?? nullInteger) AS position "
                + "FROM \(sourcePrefix)\(join.name) AS p"
        case nil:
            return nil
        }
    }

    // MARK: - Helpers

    /// The source property a destination property migrates from.
    private func sourceProperty(of property: NSPropertyDescription, in entity: NSEntityDescription) -> NSPropertyDescription? {
        let entityMapping = mapping.mapping(forDestination: entity) ?? mapping.mapping(forDestination: property.entity)
        guard let entityMapping, let origin = entityMapping.sourceEntity else { return nil }
        let mappings = property is NSAttributeDescription ? entityMapping.attributeMappings : entityMapping.relationshipMappings
        guard let name = mappings?.first(where: { $0.name == property.name })?.sourcePropertyName else { return nil }
        return origin.propertiesByName[name]
    }

    private func table(_ entity: NSEntityDescription, in schema: SQLiteSchema) -> String? {
        schema.tableIndex(for: entity).map { schema.tables[$0].name }
    }

    private func ids(_ entity: NSEntityDescription) -> String {
        entity.runtime.family.map { String($0.runtime.entityID) }.joined(separator: ", ")
    }

    /// A default value as a SQL literal, in the column's on-disk encoding
    /// (<doc:StoreFormat#Attribute-columns>) for `dialect`: PostgreSQL's binary values are
    /// `BYTEA`, never marked as inline.
    static func literal(_ value: Any?, kind: SQLiteValueKind?, dialect: SQLDialect = .sqlite) -> String {
        guard let value, let kind else { return "NULL" }
        switch kind {
        case .integer, .boolean:
            if let bool = value as? Bool { return bool ? "1" : "0" }
            if let number = value as? NSNumber { return String(number.int64Value) }
            return "NULL"
        case .double:
            return (value as? NSNumber).map { String($0.doubleValue) } ?? "NULL"
        case .decimal:
            if let decimal = value as? Decimal { return String(NSDecimalNumber(decimal: decimal).doubleValue) }
            return (value as? NSNumber).map { String($0.doubleValue) } ?? "NULL"
        case .date:
            return (value as? Date).map { String($0.timeIntervalSinceReferenceDate) } ?? "NULL"
        case .text:
            let text = (value as? String) ?? (value as? URL)?.absoluteString
            return text.map { SQLiteLightweightMigration.literal($0) } ?? "NULL"
        case .uuid:
            guard let uuid = value as? UUID else { return "NULL" }
            return blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }, dialect)
        case .blob:
            return (value as? Data).map { blob($0, dialect) } ?? "NULL"
        case .externalBlob:
            guard let data = value as? Data else { return "NULL" }
            if dialect != .sqlite { return blob(data, dialect) }
            return data.withUnsafeBytes { blob(ExternalDataStorage.inline($0), dialect) }
        }
    }

    private static func blob(_ data: Data, _ dialect: SQLDialect) -> String {
        let hex = data.map { String(format: "%02X", $0) }.joined()
        return dialect == .sqlite ? "X'\(hex)'" : "CAST('\\x\(hex)' AS BYTEA)"
    }
}
