import Foundation
@testable import CoreData
import CCoreDataRuntime

// Helpers for the SQLite store tests that reach the store's internals: backends opened
// directly, and rows filled and read through the runtime. (Model builders, temporary
// folders, raw sqlite3 access and the fixture stores are in CoreDataTestSupport.)

// MARK: - Opening backends

func openBackend(_ url: URL, _ model: NSManagedObjectModel, options: [AnyHashable: Any] = [:]) throws -> SQLiteStoreBackend {
    let backend = SQLiteStoreBackend(url: url, options: options)
    try backend.load(model: model, entities: model.entities)
    return backend
}

// MARK: - Rows

/// A runtime value, written with and compared against `cdr_value`s.
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
    let r = row.values
    var v = cdr_value()
    switch value {
    case .null: cdr_row_set_null(r, index); return
    case let .int(i): cdr_row_set_int64(r, index, i); return
    case let .double(d): cdr_row_set_double(r, index, d); return
    case let .bool(b): v.type = UInt8(CDR_BOOL.rawValue); v.u.i = b ? 1 : 0
    case let .text(s):
        var s = s
        s.withUTF8 { b in b.withMemoryRebound(to: CChar.self) { _ = cdr_row_set_text(r, index, $0.baseAddress, $0.count) } }
        return
    case let .date(d): v.type = UInt8(CDR_DATE.rawValue); v.u.d = d
    case let .uuid(u): v.type = UInt8(CDR_UUID.rawValue); v.u.uuid = u.uuid
    case let .blob(d):
        d.withUnsafeBytes { _ = cdr_row_set_blob(r, index, $0.baseAddress, $0.count) }
        return
    case let .ref(pk, ent):
        v.type = UInt8(CDR_INT64.rawValue); v.u.i = pk; v.length = UInt32(ent)
        cdr_row_set(r, index, &v)
        // The runtime's copy drops `length` (see SQLiteStoreBackend.setReference).
        UnsafeMutablePointer(mutating: cdr_row_get(r, index)!).pointee.length = UInt32(ent)
        return
    }
    cdr_row_set(r, index, &v)
}

/// The value of a slot. `refSlot` reads an INT64 as a to-one reference.
func get(_ row: StoreRow, _ key: String) -> Value {
    let index = slot(row.entity, key)
    guard let v = cdr_row_get(row.values, index)?.pointee else { return .null }
    let isReference = row.entity.runtime.slotProperties[Int(index)] is NSRelationshipDescription
    switch UInt32(v.type) {
    case CDR_NULL.rawValue: return .null
    case CDR_INT64.rawValue: return isReference ? .ref(v.u.i, Int(v.length)) : .int(v.u.i)
    case CDR_DOUBLE.rawValue: return .double(v.u.d)
    case CDR_BOOL.rawValue: return .bool(v.u.i != 0)
    case CDR_TEXT.rawValue:
        return .text(String(decoding: UnsafeRawBufferPointer(start: v.u.text, count: Int(v.length)), as: UTF8.self))
    case CDR_DATE.rawValue: return .date(v.u.d)
    case CDR_UUID.rawValue: return .uuid(UUID(uuid: v.u.uuid))
    case CDR_BLOB.rawValue: return .blob(v.length == 0 ? Data() : Data(bytes: v.u.blob, count: Int(v.length)))
    default: return .null
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

/// A CDR_BOX value with no payload (unretained; only used to reach the store's check).
func cdr_box_value() -> cdr_value {
    var v = cdr_value()
    v.type = UInt8(CDR_BOX.rawValue)
    return v
}
