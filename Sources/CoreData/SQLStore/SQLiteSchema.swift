import Foundation

/// How the values of one column are encoded on disk.
enum SQLiteValueKind {
    case integer, double, boolean, text, decimal, date, uuid, blob
    /// A binary attribute that allows external storage: marked inline bytes or a file
    /// reference (``ExternalDataStorage``).
    case externalBlob

    /// The kind for an attribute, or nil when the attribute has no column.
    init?(_ attribute: NSAttributeDescription) {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: self = .integer
        case .doubleAttributeType, .floatAttributeType: self = .double
        case .booleanAttributeType: self = .boolean
        case .stringAttributeType, .URIAttributeType: self = .text
        case .decimalAttributeType: self = .decimal
        case .dateAttributeType: self = .date
        case .UUIDAttributeType: self = .uuid
        case .binaryDataAttributeType: self = attribute.allowsExternalBinaryDataStorage ? .externalBlob : .blob
        case .transformableAttributeType: self = .blob
        default: return nil
        }
    }

    /// The declared column type Core Data writes (<doc:StoreFormat#Attribute-columns>).
    var declaredType: String {
        switch self {
        case .integer, .boolean: "INTEGER"
        case .double: "FLOAT"
        case .decimal: "DECIMAL"
        case .date: "TIMESTAMP"
        case .text: "VARCHAR"
        case .uuid, .blob, .externalBlob: "BLOB"
        }
    }

    /// Core Data groups columns by type in its DDL: integers, then dates/floats/decimals,
    /// then strings, then blobs.
    var group: Int {
        switch self {
        case .integer, .boolean: 0
        case .double, .decimal, .date: 1
        case .text: 2
        case .uuid, .blob, .externalBlob: 3
        }
    }
}

/// Maps a model's entities onto Core Data's SQLite layout: one `Z<ROOT>` table per
/// inheritance root, `Z<NAME>` columns, to-one foreign keys, `Z_FOK_` ordering columns
/// and `Z_<n><NAME>` many-to-many join tables (<doc:StoreFormat>).
///
/// ``design(entities:)`` names everything as Core Data does for a new store;
/// ``resolved(with:)`` matches those names against an existing file's columns, found with
/// `PRAGMA table_info` (never by parsing DDL).
struct SQLiteSchema {
    /// A column as declared in a new store.
    struct ColumnSpec {
        var name: String
        /// The name before any collision suffix, tried first in existing stores.
        let baseName: String
        let declaredType: String
        /// Sort key for the DDL order (type group, entity, attributes before relationships, name).
        let order: (Int, Int, Int, String)
    }

    /// One entity table.
    struct Table {
        let name: String
        let root: NSEntityDescription
        var columns: [ColumnSpec] = []
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

        /// Adds a column, with Core Data's numeric suffix when the name is taken; returns
        /// its index.
        mutating func add(_ base: String, _ type: String, _ order: (Int, Int, Int, String)) -> String {
            var name = base
            var suffix = 1
            while used.contains(name.uppercased()) { name = base + String(suffix); suffix += 1 }
            used.insert(name.uppercased())
            columns.append(ColumnSpec(name: name, baseName: base, declaredType: type, order: order))
            return name
        }
    }

    /// A many-to-many (or inverse-less to-many) join table.
    struct JoinTable {
        var name: String
        /// Other names the table may have in an existing store (reflexive relationships).
        var alternativeNames: [String]
        /// Column holding the PKs of the side with the lower `Z_ENT` ("A"), then B's.
        var columnA: String
        var columnB: String
        var orderA: String?
        var orderB: String?
    }

    /// Where a to-many relationship's members are found.
    enum ToMany {
        /// One-to-many: rows of table `table` whose `foreignKey` is the source's PK,
        /// ordered by `orderColumn` when the relationship is ordered.
        case children(table: Int, foreignKey: String, orderColumn: String?)
        /// Join table rows: the source's PK in one column, the member's in the other.
        case join(index: Int, sourceIsA: Bool)
    }

    struct Index {
        let name: String
        let table: String
        /// Column terms, e.g. `ZNAME` or `ZNAME COLLATE BINARY ASC`.
        let terms: [String]
        let unique: Bool
    }

    var tables: [Table] = []
    var tableByRoot: [ObjectIdentifier: Int] = [:]
    /// Attribute → column name in its entity's table.
    var attributeColumns: [ObjectIdentifier: String] = [:]
    /// To-one relationship → FK column and, when the destination has sub-entities, the
    /// `Z<n>_<NAME>` column holding the destination's `Z_ENT`.
    var toOneColumns: [ObjectIdentifier: (fk: String, entity: String?)] = [:]
    var toMany: [ObjectIdentifier: ToMany] = [:]
    var joinTables: [JoinTable] = []
    var indexes: [Index] = []
    /// Every entity stored here, by `Z_ENT`.
    var entitiesByID: [Int: NSEntityDescription] = [:]

    func tableIndex(for entity: NSEntityDescription) -> Int? {
        tableByRoot[ObjectIdentifier(entity.runtime.root)]
    }

    /// The column of an attribute or to-one relationship, in its entity's table.
    func column(for property: NSPropertyDescription) -> String? {
        attributeColumns[ObjectIdentifier(property)] ?? toOneColumns[ObjectIdentifier(property)]?.fk
    }
}

// MARK: - Designing a new store's schema

extension SQLiteSchema {
    /// Core Data's layout for `entities` (and the whole inheritance family of each).
    static func design(entities: [NSEntityDescription]) -> SQLiteSchema {
        var schema = SQLiteSchema()
        var roots: [NSEntityDescription] = []
        for entity in entities {
            let root = entity.runtime.root
            if !roots.contains(where: { $0 === root }) { roots.append(root) }
        }
        roots.sort { $0.runtime.entityID < $1.runtime.entityID }
        for root in roots {
            schema.tableByRoot[ObjectIdentifier(root)] = schema.tables.count
            schema.tables.append(Table(name: "Z" + (root.name ?? "").uppercased(), root: root))
            for member in root.runtime.family { schema.entitiesByID[member.runtime.entityID] = member }
        }
        let family = schema.entitiesByID.keys.sorted().map { schema.entitiesByID[$0]! }

        // Attribute and to-one columns, entity by entity in Z_ENT order.
        for entity in family {
            let t = schema.tableByRoot[ObjectIdentifier(entity.runtime.root)]!
            let id = entity.runtime.entityID
            let own = ownStoredProperties(of: entity)
            for case let attribute as NSAttributeDescription in own {
                guard let kind = SQLiteValueKind(attribute) else { continue }
                let base = "Z" + attribute.name.uppercased()
                let name = schema.tables[t].add(base, kind.declaredType, (kind.group, id, 0, base))
                schema.attributeColumns[ObjectIdentifier(attribute)] = name
            }
            for case let relationship as NSRelationshipDescription in own where !relationship.isToMany {
                let base = "Z" + relationship.name.uppercased()
                let fk = schema.tables[t].add(base, "INTEGER", (0, id, 1, base))
                var entityColumn: String?
                if let destination = relationship.destinationEntity, !destination.subentities.isEmpty {
                    let name = "Z\(destination.runtime.entityID)_" + relationship.name.uppercased()
                    entityColumn = schema.tables[t].add(name, "INTEGER", (0, id, 1, base + "_"))
                }
                schema.toOneColumns[ObjectIdentifier(relationship)] = (fk, entityColumn)
            }
        }
        // To-many relationships: children found by foreign key, or a join table.
        for entity in family {
            for case let relationship as NSRelationshipDescription in ownStoredProperties(of: entity)
            where relationship.isToMany && schema.toMany[ObjectIdentifier(relationship)] == nil {
                schema.designToMany(relationship)
            }
        }
        for t in schema.tables.indices {
            schema.tables[t].columns.sort { $0.order < $1.order }
        }
        schema.designIndexes(family: family)
        return schema
    }

    /// An entity's own (not inherited) persistent properties, sorted by name.
    static func ownStoredProperties(of entity: NSEntityDescription) -> [NSPropertyDescription] {
        entity.properties.filter { $0.entity === entity && !$0.isTransient }.sorted { $0.name < $1.name }
    }

    private mutating func designToMany(_ relationship: NSRelationshipDescription) {
        guard let destination = relationship.destinationEntity,
              let destinationTable = tableIndex(for: destination) else { return }
        if let inverse = relationship.inverseRelationship, !inverse.isToMany {
            guard let fk = toOneColumns[ObjectIdentifier(inverse)]?.fk else { return }
            var order: String?
            if relationship.isOrdered {
                let base = "Z_FOK_" + inverse.name.uppercased()
                let id = inverse.entity.runtime.entityID
                order = tables[destinationTable].add(base, "INTEGER", (0, id, 2, base))
            }
            toMany[ObjectIdentifier(relationship)] = .children(
                table: destinationTable, foreignKey: fk, orderColumn: order)
            return
        }
        // Many-to-many: A is the side with the lower Z_ENT; for a reflexive pair, the
        // ordered side, else the alphabetically first relationship.
        var a = relationship
        var b = relationship.inverseRelationship
        if let inverse = b {
            let ids = (relationship.entity.runtime.entityID, inverse.entity.runtime.entityID)
            let swap: Bool
            if ids.0 != ids.1 {
                swap = ids.1 < ids.0
            } else if relationship.isOrdered != inverse.isOrdered {
                swap = inverse.isOrdered
            } else {
                swap = inverse.name < relationship.name
            }
            if swap { (a, b) = (inverse, relationship) }
        }
        let aID = a.entity.runtime.entityID
        let bID = (a.destinationEntity ?? destination).runtime.entityID
        let aName = a.name.uppercased()
        // Without an inverse, A's column is named after A's entity.
        let bName = (b?.name ?? a.entity.name ?? "").uppercased()
        var join = JoinTable(
            name: "Z_\(aID)\(aName)",
            alternativeNames: b.map { ["Z_\(aID)\($0.name.uppercased())", "Z_\(bID)\($0.name.uppercased())"] } ?? [],
            columnA: "Z_\(aID)\(bName)", columnB: "Z_\(bID)\(aName)")
        if join.columnA == join.columnB { join.columnB += "1" }
        // Each ordered side orders the column of the objects it points at.
        if a.isOrdered { join.orderB = "Z_FOK_" + join.columnB.dropFirst(2) }
        if let b, b.isOrdered { join.orderA = "Z_FOK_" + join.columnA.dropFirst(2) }
        // Two join tables must not share a name (a second relationship of the same name).
        var name = join.name
        var suffix = 1
        while joinTables.contains(where: { $0.name == name }) { name = join.name + String(suffix); suffix += 1 }
        join.name = name
        let index = joinTables.count
        joinTables.append(join)
        toMany[ObjectIdentifier(a)] = .join(index: index, sourceIsA: true)
        if let b { toMany[ObjectIdentifier(b)] = .join(index: index, sourceIsA: false) }
    }

    // MARK: Indexes

    private mutating func designIndexes(family: [NSEntityDescription]) {
        var names = Set<String>()
        func add(_ name: String, _ table: String, _ terms: [String], unique: Bool = false) {
            guard !terms.isEmpty, names.insert(name).inserted else { return }
            indexes.append(Index(name: name, table: table, terms: terms, unique: unique))
        }
        for table in tables where !table.root.subentities.isEmpty {
            add("\(table.name)_Z_ENT_INDEX", table.name, ["Z_ENT"])
        }
        for entity in family {
            let table = tables[tableIndex(for: entity)!].name
            let entityName = entity.name ?? ""
            for property in Self.ownStoredProperties(of: entity) {
                if let attribute = property as? NSAttributeDescription, attribute.isIndexed,
                   let column = attributeColumns[ObjectIdentifier(attribute)] {
                    add("\(table)_\(column)_INDEX", table, [column])
                }
                if let fk = toOneColumns[ObjectIdentifier(property)]?.fk {
                    add("\(table)_\(fk)_INDEX", table, [fk])
                }
            }
            func columns(_ elements: [Any]) -> [String]? {
                let result = elements.compactMap { element -> String? in
                    let name = (element as? String) ?? (element as? NSPropertyDescription)?.name
                    return name.flatMap { entity.propertiesByName[$0] }.flatMap { column(for: $0) }
                }
                return result.count == elements.count ? result : nil
            }
            for compound in entity.compoundIndexes {
                guard let cols = columns(compound) else { continue }
                add(([table] + cols).joined(separator: "_"), table, cols)
            }
            for index in entity.indexes {
                let terms = index.elements.compactMap { element -> String? in
                    guard element.collationType == .binary,
                          let name = element.property?.name ?? element.propertyName,
                          let property = entity.propertiesByName[name],
                          let col = column(for: property) else { return nil }
                    return "\(col) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")"
                }
                guard terms.count == index.elements.count else { continue }
                add("Z_\(entityName)_\(index.name)", table, terms)
            }
            for constraint in entity.uniquenessConstraints {
                guard let cols = columns(constraint) else { continue }
                let attributeNames = constraint.map { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name ?? "" }
                add("Z_\(entityName)_UNIQUE_" + attributeNames.joined(separator: "_"), table,
                    cols.map { "\($0) COLLATE BINARY ASC" }, unique: true)
            }
        }
        for join in joinTables {
            add("\(join.name)_\(join.columnB)_INDEX", join.name, [join.columnB, join.columnA])
        }
    }

    // MARK: DDL

    /// Every statement that creates this schema's entity and join tables and indexes.
    var createStatements: [String] {
        var sql: [String] = []
        for table in tables {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\($0.name) \($0.declaredType)" }
            sql.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in joinTables {
            var columns = ["\(join.columnA) INTEGER", "\(join.columnB) INTEGER"]
            if let order = join.orderA { columns.append("\(order) INTEGER") }
            if let order = join.orderB { columns.append("\(order) INTEGER") }
            columns.append("PRIMARY KEY (\(join.columnA), \(join.columnB))")
            sql.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
        }
        for index in indexes {
            sql.append("CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(index.terms.joined(separator: ", ")))")
        }
        return sql
    }
}
