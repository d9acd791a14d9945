import Foundation
@testable import CoreData

// Helpers for the SQLite store tests that reach the store's internals: backends opened
// directly, and rows filled and read through the runtime's row type. (Model builders, temporary
// folders, raw sqlite3 access and the fixture stores are in CoreDataTestSupport.)

// MARK: - Opening backends

func openBackend(_ url: URL, _ model: NSManagedObjectModel, options: [AnyHashable: Any] = [:]) throws -> SQLiteStoreBackend {
    let backend = SQLiteStoreBackend(url: url, options: options)
    try backend.load(model: model, entities: model.entities)
    return backend
}

// MARK: - Rows

/// A row value, written into and compared against store rows.
enum Value: Equatable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case text(String)
    case date(Double)
    case uuid(UUID)
    case blob(Data)
    /// A to-one: destination PK and Z_ENT.
    case ref(Int64, Int)

    var description: String {
        switch self {
        case .null: "null"
        case let .int(v): "int(\(v))"
        case let .double(v): "double(\(v))"
        case let .bool(v): "bool(\(v))"
        case let .text(v): "text(\(v))"
        case let .date(v): "date(\(v))"
        case let .uuid(v): "uuid(\(v))"
        case let .blob(v): "blob(\(v.count) bytes)"
        case let .ref(pk, ent): "ref(p\(pk), ent \(ent))"
        }
    }
}

func slot(_ entity: NSEntityDescription, _ key: String) -> Int32 {
    entity.runtime.slotByName[key]!
}

/// A row of `entity` with the given slot values (others NULL).
func makeRow(_ entity: NSEntityDescription, pk: Int64, version: Int64 = 1, _ values: [String: Value]) -> StoreRow {
    let row = StoreRow(entity: entity, pk: pk, version: version)
    for (key, value) in values { set(row, slot(entity, key), value) }
    return row
}

func set(_ row: StoreRow, _ index: Int32, _ value: Value) {
    switch value {
    case .null: row.values.setNull(at: index)
    case let .int(i): row.values.setInt64(i, at: index)
    case let .double(d): row.values.setDouble(d, at: index)
    case let .bool(b): row.values.setBool(b, at: index)
    case let .text(s): row.values.setText(s, at: index)
    case let .date(d): row.values.setDate(d, at: index)
    case let .uuid(u): row.values.setUUID(u, at: index)
    case let .blob(d): row.values.setData(d, at: index)
    case let .ref(pk, ent): row.values.setKey(StoreKey(entityID: ent, pk: pk), at: index)
    }
}

/// The value of a slot (a to-one as a reference).
func get(_ row: StoreRow, _ key: String) -> Value {
    let v = row.values.value(at: slot(row.entity, key))
    switch v.type {
    case .null: return .null
    case .int64: return .int(v.int64)
    case .double: return .double(v.double)
    case .bool: return .bool(v.bool)
    case .text: return .text(v.string)
    case .date: return .date(v.double)
    case .uuid: return .uuid(v.uuid)
    case .blob: return .blob(v.data)
    case .key: return .ref(v.key.pk, v.key.entityID)
    case .object, .set, .box: return .null
    }
}

func insert(_ row: StoreRow) -> StoreChanges.Write {
    StoreChanges.Write(entity: row.entity, pk: row.pk, values: row,
                       changedSlots: (0..<Int32(row.entity.runtime.slotProperties.count)).map { $0 },
                       expectedVersion: 0)
}

func update(_ row: StoreRow, changed keys: [String], expected: Int64) -> StoreChanges.Write {
    StoreChanges.Write(entity: row.entity, pk: row.pk, values: row,
                       changedSlots: keys.map { slot(row.entity, $0) }, expectedVersion: expected)
}
