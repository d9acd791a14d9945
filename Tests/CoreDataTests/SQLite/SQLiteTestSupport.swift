import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CCoreDataSQLite

// Shared helpers for the SQLite store tests: model builders, rows filled through the
// runtime, a temporary folder, raw sqlite3 access to the written files, and copies of
// the Apple-written fixture stores.

// MARK: - Temporary folders and fixtures

struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    static let stores = URL(fileURLWithPath: "/work/shared/fixtures/stores")

    /// Copies a fixture store (and a non-empty -wal beside it) into `folder`, writable.
    /// A `-shm` is only SQLite's index of the WAL and is rebuilt, so it is not copied.
    static func copy(_ name: String, to folder: TemporaryFolder) throws -> URL {
        let destination = folder.file(name)
        for suffix in ["", "-wal"] {
            let source = stores.appendingPathComponent(name + suffix)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: source.path))?[.size] as? NSNumber,
                  suffix.isEmpty || size.intValue > 0 else { continue }
            let target = URL(fileURLWithPath: destination.path + suffix)
            try FileManager.default.copyItem(at: source, to: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        }
        return destination
    }
}

/// The bytes of a store's files, to prove a failure wrote nothing.
func fileBytes(_ url: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    for suffix in ["", "-wal", "-journal"] {
        if let data = FileManager.default.contents(atPath: url.path + suffix) { result[suffix] = data }
    }
    return result
}

// MARK: - Model building

func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, indexed: Bool = false, transient: Bool = false) -> NSAttributeDescription {
    let a = NSAttributeDescription()
    a.name = name
    a.attributeType = type
    a.isOptional = optional
    a.isIndexed = indexed
    a.isTransient = transient
    return a
}

func entity(_ name: String, _ properties: [NSPropertyDescription] = [], abstract: Bool = false) -> NSEntityDescription {
    let e = NSEntityDescription()
    e.name = name
    e.isAbstract = abstract
    e.properties = properties
    return e
}

/// A relationship; call `connect` afterwards to set inverses.
func relationship(_ name: String, to destination: NSEntityDescription, toMany: Bool = false, ordered: Bool = false) -> NSRelationshipDescription {
    let r = NSRelationshipDescription()
    r.name = name
    r.destinationEntity = destination
    r.maxCount = toMany ? 0 : 1
    r.isOrdered = ordered
    return r
}

func connect(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
    a.inverseRelationship = b
    b.inverseRelationship = a
}

/// Freezes a model as a coordinator does.
@discardableResult
func freeze(_ model: NSManagedObjectModel) -> NSManagedObjectModel {
    _ = NSPersistentStoreCoordinator(managedObjectModel: model)
    return model
}

enum Models {
    /// A model exercising every feature of the layout:
    /// Author 1, Book 2, Item 3, Message 4 (SystemMessage 5, TextMessage 6), Shelf 7.
    static func library() -> NSManagedObjectModel {
        let author = entity("Author", [attribute("name", .stringAttributeType)])
        let book = entity("Book", [attribute("title", .stringAttributeType, indexed: true)])
        let shelf = entity("Shelf", [attribute("label", .stringAttributeType)])
        let message = entity("Message", [attribute("sentAt", .dateAttributeType)])
        let text = entity("TextMessage", [attribute("text", .stringAttributeType)])
        let system = entity("SystemMessage", [attribute("text", .stringAttributeType)])
        message.subentities = [text, system]
        let item = entity("Item", [
            attribute("int16", .integer16AttributeType), attribute("int32", .integer32AttributeType),
            attribute("int64", .integer64AttributeType), attribute("double", .doubleAttributeType),
            attribute("float", .floatAttributeType), attribute("flag", .booleanAttributeType),
            attribute("string", .stringAttributeType), attribute("date", .dateAttributeType),
            attribute("decimal", .decimalAttributeType), attribute("binary", .binaryDataAttributeType),
            attribute("uuid", .UUIDAttributeType), attribute("uri", .URIAttributeType),
            attribute("transformable", .transformableAttributeType),
            attribute("scratch", .stringAttributeType, transient: true),
        ])
        let books = relationship("books", to: book, toMany: true, ordered: true)
        let authors = relationship("authors", to: author, toMany: true)
        connect(books, authors)
        let shelfBooks = relationship("books", to: book, toMany: true, ordered: true)
        let bookShelf = relationship("shelf", to: shelf)
        connect(shelfBooks, bookShelf)
        let lastMessage = relationship("lastMessage", to: message)
        author.properties += [books]
        book.properties += [authors, bookShelf, lastMessage]
        shelf.properties += [shelfBooks]
        let model = NSManagedObjectModel()
        model.entities = [author, book, shelf, message, text, system, item]
        return freeze(model)
    }

    /// CoreDataPlus SampleModel (version 1), as in
    /// fixtures/models/alemar11_CoreDataPlus__SampleModel.xcdatamodeld/SampleModel.xcdatamodel.
    static func sampleModelV1() throws -> NSManagedObjectModel {
        // Loaded from the Xcode bundle: its version hashes equal the ones Apple wrote into
        // the store's metadata, which the store checks on open.
        let bundle = try ModelBundle.open(ModelFixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        return freeze(try bundle.model(forVersion: "SampleModel"))
    }

    /// objcio Moody (first version), as in
    /// fixtures/models/objcio_core-data__Migrations_Moody.xcdatamodeld/Moody.xcdatamodel.
    static func moody() throws -> NSManagedObjectModel {
        let bundle = try ModelBundle.open(ModelFixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld"))
        return freeze(try bundle.model(forVersion: "Moody"))
    }
}

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
    case let .ref(pk, ent): row.values.setReference(.key(StoreKey(entityID: ent, pk: pk)), at: index)
    }
}

/// The value of a slot (a to-one as a reference).
func get(_ row: StoreRow, _ key: String) -> Value {
    let index = slot(row.entity, key)
    let v = row.values.value(at: index)
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

// MARK: - Raw SQLite

/// Direct sqlite3 access to a file, independent of the code under test.
final class RawDatabase {
    let db: OpaquePointer

    init(_ url: URL, readOnly: Bool = true) throws {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        guard sqlite3_open_v2(url.path, &handle, flags, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawError(message: "cannot open \(url.path)")
        }
        db = handle
    }

    deinit { sqlite3_close_v2(db) }

    struct RawError: Error { let message: String }

    /// Every row of a query; each value as Int64, Double, String, Data or nil.
    func rows(_ sql: String) throws -> [[Any?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)) + " in " + sql)
        }
        defer { sqlite3_finalize(statement) }
        var result: [[Any?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            var row: [Any?] = []
            for i in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, i) {
                case SQLITE_INTEGER: row.append(sqlite3_column_int64(statement, i))
                case SQLITE_FLOAT: row.append(sqlite3_column_double(statement, i))
                case SQLITE_TEXT: row.append(String(cString: sqlite3_column_text(statement, i)))
                case SQLITE_BLOB:
                    let n = Int(sqlite3_column_bytes(statement, i))
                    row.append(n == 0 ? Data() : Data(bytes: sqlite3_column_blob(statement, i), count: n))
                default: row.append(nil)
                }
            }
            result.append(row)
        }
        return result
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawError(message: String(cString: sqlite3_errmsg(db)))
        }
    }

    func scalar(_ sql: String) throws -> Any? { try rows(sql).first?.first ?? nil }

    /// Column name → declared type.
    func columns(_ table: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try rows("PRAGMA table_info(\(table))") { result[row[1] as! String] = row[2] as? String }
        return result
    }

    func tables() throws -> Set<String> {
        Set(try rows("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0[0] as! String })
    }

    /// Index name → (unique, columns).
    func indexes() throws -> [String: (unique: Bool, columns: [String])] {
        var result: [String: (Bool, [String])] = [:]
        for table in try tables() {
            for row in try rows("PRAGMA index_list(\(table))") {
                let name = row[1] as! String
                if name.hasPrefix("sqlite_autoindex") { continue }
                let columns = try rows("PRAGMA index_info(\(name))").map { $0[2] as! String }
                result[name] = ((row[2] as! Int64) != 0, columns)
            }
        }
        return result
    }

    func metadataPlist() throws -> [String: Any] {
        let data = try #require(try scalar("SELECT Z_PLIST FROM Z_METADATA") as? Data)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }
}
