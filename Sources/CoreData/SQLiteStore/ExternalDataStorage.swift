import Foundation
internal import CCoreDataSQLite

/// Binary attributes that allow external storage (`allowsExternalBinaryDataStorage`), kept
/// as Apple's SQLite store keeps them (<doc:StoreFormat#External-binary-data>):
///
/// - a value stored in the row is its bytes behind the marker byte `0x01`;
/// - a large value is a file named by a UUID in `.<store name>_SUPPORT/_EXTERNAL_DATA/`
///   beside the store, and the row holds the marker byte `0x02`, the UUID in ASCII and a
///   NUL byte.
///
/// Files are written before the save's transaction commits; a save that fails removes the
/// files it wrote, a save that commits removes the files of the values it replaced or
/// deleted.
struct ExternalDataStorage {
    /// The store's file.
    let storeURL: URL

    /// Values longer than this many bytes go to a file. Apple's threshold is not
    /// documented; values around this size are reported stored externally by Apple's
    /// Core Data on iOS and macOS.
    static let threshold = 128 * 1024

    static let inlineMarker: UInt8 = 0x01
    static let externalMarker: UInt8 = 0x02

    /// `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`, beside the store.
    var folder: URL {
        let name = storeURL.deletingPathExtension().lastPathComponent
        return storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The support folder (`.<store name>_SUPPORT`) that holds `_EXTERNAL_DATA`.
    var supportFolder: URL { folder.deletingLastPathComponent() }

    // MARK: - Encoding

    /// The column bytes of an inline value: the marker, then the value.
    static func inline(_ bytes: UnsafeRawBufferPointer) -> Data {
        var data = Data(capacity: bytes.count + 1)
        data.append(inlineMarker)
        data.append(contentsOf: bytes)
        return data
    }

    /// The column bytes that name the external file `name`.
    static func reference(_ name: String) -> Data {
        var data = Data([externalMarker])
        data.append(contentsOf: Array(name.utf8))
        data.append(0)
        return data
    }

    /// The column bytes for `bytes`: inline when small (or when the store has no folder),
    /// else a new file; returns the file's name too.
    func encode(_ bytes: UnsafeRawBufferPointer) throws -> (column: Data, file: String?) {
        guard bytes.count > Self.threshold, !SQLiteStoreBackend.isInMemoryPath(storeURL) else {
            return (Self.inline(bytes), nil)
        }
        let name = UUID().uuidString
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent(name), options: .atomic)
        return (Self.reference(name), name)
    }

    // MARK: - Decoding

    /// What column bytes hold: an inline value (without its marker), a file reference, or
    /// (no marker: written by a store that did not mark them) the bytes themselves.
    enum Stored {
        case inline(UnsafeRawBufferPointer)
        case file(String)
    }

    static func classify(_ bytes: UnsafeRawBufferPointer) -> Stored {
        guard let first = bytes.first else { return .inline(bytes) }
        switch first {
        case inlineMarker:
            return .inline(UnsafeRawBufferPointer(rebasing: bytes[1...]))
        case externalMarker:
            let rest = bytes[1...]
            let end = rest.firstIndex(of: 0) ?? rest.endIndex
            guard let name = String(bytes: rest[rest.startIndex..<end], encoding: .utf8),
                  UUID(uuidString: name) != nil else { return .inline(bytes) }
            return .file(name)
        default:
            return .inline(bytes)
        }
    }

    /// The external file name the column bytes reference, if any.
    static func referencedFile(_ data: Data) -> String? {
        data.withUnsafeBytes { bytes in
            if case .file(let name) = classify(bytes) { return name }
            return nil
        }
    }

    /// The content of the external file `name`.
    func read(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// Removes external files (those already gone are skipped).
    func remove(_ names: [String]) {
        for name in names { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }
}

extension SQLiteStoreBackend {
    /// Where this store keeps its external binary data.
    var externalData: ExternalDataStorage { ExternalDataStorage(storeURL: url) }
}

extension SQLiteSchema {
    /// The columns of table `t` that hold binary attributes allowing external storage
    /// (their values may name files).
    func externalColumns(ofTable t: Int) -> [String] {
        var columns: [String] = []
        for (_, entity) in entitiesByID.sorted(by: { $0.key < $1.key }) where tableIndex(for: entity) == t {
            for attribute in entity.attributesByName.values where SQLiteValueKind(attribute) == .externalBlob {
                if let column = attributeColumns[ObjectIdentifier(attribute)], !columns.contains(column) {
                    columns.append(column)
                }
            }
        }
        return columns
    }
}

// MARK: - SQL functions for migrations

extension ExternalDataStorage {
    /// Registers the functions a lightweight migration uses when a binary attribute starts
    /// or stops allowing external storage: `cd_external_mark(x)` (the inline form of plain
    /// bytes) and `cd_external_value(x, folder)` (the plain bytes of a marked value, read
    /// from its file in `folder` when it is external).
    static func registerMigrationFunctions(on connection: SQLiteConnection) throws {
        let db = connection.handle
        for (name, count, function) in [("cd_external_mark", Int32(1), markFunction),
                                        ("cd_external_value", Int32(2), valueFunction)] {
            let rc = sqlite3_create_function_v2(db, name, count, SQLITE_UTF8, nil, function, nil, nil, nil)
            guard rc == SQLITE_OK else { throw SQLiteError(connection: db, resultCode: rc, sql: "register \(name)") }
        }
    }

    private static func blobArgument(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> UnsafeRawBufferPointer? {
        guard let value = argv?[i], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        let start = sqlite3_value_blob(value)
        return UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(value)))
    }

    private static func result(_ context: OpaquePointer?, _ data: Data) {
        data.withUnsafeBytes { bytes in
            // A zero-length blob needs a non-NULL pointer, else SQLite stores NULL.
            sqlite3_result_blob(context, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                                cdsqlite_transient())
        }
    }

    private static let markFunction: SQLiteFunctions.Function = { context, _, argv in
        guard let bytes = blobArgument(argv, 0) else { sqlite3_result_null(context); return }
        result(context, inline(bytes))
    }

    private static let valueFunction: SQLiteFunctions.Function = { context, _, argv in
        guard let bytes = blobArgument(argv, 0) else { sqlite3_result_null(context); return }
        switch classify(bytes) {
        case .inline(let value):
            result(context, Data(value))
        case .file(let name):
            let folder = SQLiteFunctions.text(argv, 1) ?? ""
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)) else {
                sqlite3_result_error(context, "external data file \(name) can't be read in \(folder)", -1)
                return
            }
            result(context, data)
        }
    }
}

// MARK: - Copying

extension ExternalDataStorage {
    /// Moves every external data file of this store into `other`'s folder (the names are
    /// UUIDs: none is replaced). Does nothing when this store has no file.
    func moveFiles(to other: ExternalDataStorage) throws {
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: folder.path), !names.isEmpty else { return }
        try fileManager.createDirectory(at: other.folder, withIntermediateDirectories: true)
        for name in names {
            try fileManager.moveItem(at: folder.appendingPathComponent(name), to: other.folder.appendingPathComponent(name))
        }
    }

    /// Makes the external data of the store at `destination` that of the store at `source`
    /// (a store copied with its rows references the same file names).
    static func copyFolder(from source: URL, to destination: URL) throws {
        let from = ExternalDataStorage(storeURL: source).folder
        let to = ExternalDataStorage(storeURL: destination).folder
        let fileManager = FileManager.default
        guard from.standardizedFileURL != to.standardizedFileURL else { return }
        if fileManager.fileExists(atPath: to.path) { try fileManager.removeItem(at: to) }
        guard fileManager.fileExists(atPath: from.path) else { return }
        try fileManager.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileManager.copyItem(at: from, to: to)
    }
}
