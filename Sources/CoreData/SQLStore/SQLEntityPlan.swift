import Foundation

/// How one slot of a concrete entity maps to its table in a SQL store (SQLite or
/// PostgreSQL): its column, its position in the table's select list, how it is encoded.
struct SQLField {
    let slot: Int32
    let column: String
    /// Position in the table's SELECT list (`Z_PK`, `Z_ENT`, `Z_OPT`, then the columns).
    let position: Int32
    let kind: Kind
    /// For Integer 16 and Integer 32 attributes: the values the attribute can hold
    /// (a wider value in the column is an error, not wrapped).
    var bounds: ClosedRange<Int64>? = nil

    enum Kind {
        case value(SQLiteValueKind)
        /// A to-one relationship: the FK column, plus the column (and its SELECT
        /// position) holding the destination's `Z_ENT` when it has sub-entities.
        case toOne(destination: NSEntityDescription, entityColumn: String?, entityPosition: Int32?)
    }

    /// The values an integer attribute of `type` can hold, when narrower than 64 bits.
    static func integerBounds(_ type: NSAttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
        case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
        default: nil
        }
    }

    /// `Entity.name (Integer 16)`: the attribute this field reads, for error messages.
    func attributeDescription(_ plan: SQLEntityPlan) -> String {
        let name = plan.entity.runtime.slotProperties[Int(slot)].name
        let width = bounds == Self.integerBounds(.integer16AttributeType) ? "Integer 16" : "Integer 32"
        return "\(plan.entity.name ?? "?").\(name) (\(width))"
    }
}

/// How a SQL store reads and writes the rows of one concrete entity: its table and the
/// fields of its slots, built once per store from its ``SQLiteSchema``.
final class SQLEntityPlan {
    let entity: NSEntityDescription
    let table: Int
    let tableName: String
    let fields: [SQLField]
    let fieldBySlot: [Int32: Int]
    /// `fields` as plain values, for decoding rows without reference counting.
    let decodeOps: [DecodeOp]
    /// Whether a field is a binary attribute that allows external storage.
    let hasExternalData: Bool

    init(entity: NSEntityDescription, table: Int, tableName: String, fields: [SQLField], fieldBySlot: [Int32: Int]) {
        self.hasExternalData = fields.contains {
            if case .value(.externalBlob) = $0.kind { return true }
            return false
        }
        self.entity = entity
        self.table = table
        self.tableName = tableName
        self.fields = fields
        self.fieldBySlot = fieldBySlot
        self.decodeOps = fields.enumerated().map { DecodeOp($0.offset, $0.element) }
    }

    /// A plan reading only the attribute `slots` of this entity, at SELECT positions 2, 3, …
    /// (after `Z_ENT` and `Z_PK`), for dictionary results read without building rows; nil
    /// when a slot is not a plain column of the table (a to-one key, a to-many, a transient).
    func columnsPlan(slots: [Int32]) -> SQLEntityPlan? {
        var columns: [SQLField] = []
        for (n, slot) in slots.enumerated() {
            guard let index = fieldBySlot[slot] else { return nil }
            let field = fields[index]
            guard case .value = field.kind else { return nil }
            columns.append(SQLField(slot: slot, column: field.column, position: Int32(n + 2), kind: field.kind,
                                    bounds: field.bounds))
        }
        return SQLEntityPlan(entity: entity, table: table, tableName: tableName, fields: columns, fieldBySlot: [:])
    }

    /// One field to decode: the common kinds inline, anything else by `fields[field]`.
    struct DecodeOp {
        enum Kind: UInt8 { case integer, boolean, double, date, text, other }
        let slot: Int32
        let position: Int32
        let kind: Kind
        let field: Int

        init(_ index: Int, _ field: SQLField) {
            slot = field.slot
            position = field.position
            self.field = index
            switch field.kind {
            case .value(.integer): kind = field.bounds == nil ? .integer : .other
            case .value(.boolean): kind = .boolean
            case .value(.double): kind = .double
            case .value(.date): kind = .date
            case .value(.text): kind = .text
            default: kind = .other
            }
        }
    }

    /// The plans of every concrete entity of `schema`, by `Z_ENT`: each persistent slot that
    /// has a column (attributes, to-one foreign keys) at its position in its table's select
    /// list (``SQLiteSchema/selectColumns(table:)``).
    static func plans(for schema: SQLiteSchema) -> [Int: SQLEntityPlan] {
        var positions: [[String: Int32]] = []
        for table in schema.tables {
            var map: [String: Int32] = [:]
            for (i, column) in table.columns.enumerated() { map[column.name] = Int32(i + 3) }
            positions.append(map)
        }
        var plans: [Int: SQLEntityPlan] = [:]
        for (id, entity) in schema.entitiesByID {
            let t = schema.tableIndex(for: entity)!
            var fields: [SQLField] = []
            for property in entity.runtime.slotProperties where !property.isTransient {
                let key = ObjectIdentifier(property)
                if let attribute = property as? NSAttributeDescription,
                   let kind = SQLiteValueKind(attribute), let column = schema.attributeColumns[key],
                   let position = positions[t][column] {
                    fields.append(SQLField(slot: property.slot, column: column, position: position, kind: .value(kind),
                                           bounds: SQLField.integerBounds(attribute.attributeType)))
                } else if let relationship = property as? NSRelationshipDescription,
                          let destination = relationship.destinationEntity,
                          let columns = schema.toOneColumns[key], let position = positions[t][columns.fk] {
                    fields.append(SQLField(
                        slot: property.slot, column: columns.fk, position: position,
                        kind: .toOne(destination: destination, entityColumn: columns.entity,
                                     entityPosition: columns.entity.flatMap { positions[t][$0] })))
                }
            }
            var bySlot: [Int32: Int] = [:]
            for (i, field) in fields.enumerated() { bySlot[field.slot] = i }
            plans[id] = SQLEntityPlan(entity: entity, table: t, tableName: schema.tables[t].name,
                                      fields: fields, fieldBySlot: bySlot)
        }
        return plans
    }
}

/// Names the SQL of an INSERT (every field) or an UPDATE (the fields at these indexes of
/// the entity plan) of one entity.
struct WriteSQLKey: Hashable {
    let entityID: Int
    let update: Bool
    let fields: [Int]
}

extension SQLiteSchema {
    /// The select list of table `t`: `Z_PK`, `Z_ENT`, `Z_OPT`, then its columns, in the
    /// order of the fields' positions (``SQLField/position``).
    func selectColumns(table t: Int) -> [String] {
        ["Z_PK", "Z_ENT", "Z_OPT"] + tables[t].columns.map(\.name)
    }

    /// Per inheritance root: the join-table columns naming a row of that root as a source,
    /// whose rows go when the row is deleted.
    func joinColumnsBySourceRoot() -> [ObjectIdentifier: [(table: String, column: String)]] {
        var result: [ObjectIdentifier: [(table: String, column: String)]] = [:]
        for entity in entitiesByID.values {
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.entity === entity {
                guard case let .join(index, sourceIsA)? = toMany[ObjectIdentifier(relationship)] else { continue }
                let join = joinTables[index]
                let root = ObjectIdentifier(entity.runtime.root)
                let column = (table: join.name, column: sourceIsA ? join.columnA : join.columnB)
                if !(result[root] ?? []).contains(where: { $0.table == column.table && $0.column == column.column }) {
                    result[root, default: []].append(column)
                }
            }
        }
        return result
    }
}
