import Foundation
import Testing
import CCoreDataSQLite

/// The real Core Data files in `Fixtures/` (see its README.md for where each comes from),
/// found through this module's resource bundle: no test depends on the working directory
/// or on anything outside the repository.
///
/// Stores are never opened in place (SQLite writes `-wal`/`-shm` beside a WAL store even
/// when reading): ``copyStore(_:to:)`` copies one into a ``TemporaryDirectory`` first.
public enum Fixtures {
    /// The fixtures folder inside the built resource bundle.
    public static let root: URL = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("The test fixtures are missing from \(Bundle.module.bundlePath) (a .copy(\"Fixtures\") resource of CoreDataTestSupport).")
        }
        return url
    }()

    public static var models: URL { root.appendingPathComponent("models", isDirectory: true) }
    public static var stores: URL { root.appendingPathComponent("stores", isDirectory: true) }
    public static var compiled: URL { root.appendingPathComponent("compiled", isDirectory: true) }

    /// A fixture that is not there: a test failure naming it.
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "No fixture at \(path)" }
    }

    /// A model bundle (`.xcdatamodeld`) or bare `.xcdatamodel` in `models/`; `""` is the
    /// `models/` folder itself.
    public static func model(_ name: String) throws -> URL {
        try existing(name.isEmpty ? models : models.appendingPathComponent(name))
    }

    /// Every entry of `models/`, sorted by name.
    public static func allModelBundles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: models.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .map { models.appendingPathComponent($0) }
    }

    /// The names of the SQLite stores in `stores/`.
    public static func storeNames() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: stores.path).filter { $0.hasSuffix(".sqlite") })
    }

    /// Files in `stores/` that are not stores: `-wal`, `-shm` or `-journal` files a test left
    /// by opening a fixture in place.
    public static func storeCompanions() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: stores.path).filter { !$0.hasSuffix(".sqlite") }.sorted()
    }

    /// The URL of a fixture store, to read without opening it (its bytes, or an
    /// `immutable=1` connection). Open ``copyStore(_:to:)``'s copy instead.
    public static func store(_ name: String) throws -> URL {
        try existing(stores.appendingPathComponent(name))
    }

    /// Copies a fixture store (and a non-empty `-wal` beside it) into `directory`, writable.
    /// A `-shm` is only SQLite's index of the WAL and is rebuilt, so it is never copied.
    public static func copyStore(_ name: String, to directory: TemporaryDirectory) throws -> URL {
        let destination = directory.file(name)
        for suffix in ["", "-wal"] {
            let source = stores.appendingPathComponent(name + suffix)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: source.path))?[.size] as? NSNumber else {
                if suffix.isEmpty { throw Missing(path: source.path) }
                continue
            }
            guard suffix.isEmpty || size.intValue > 0 else { continue }
            let target = URL(fileURLWithPath: destination.path + suffix)
            try FileManager.default.copyItem(at: source, to: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        }
        return destination
    }

    private static func existing(_ url: URL) throws -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: url.path) }
        return url
    }

    // MARK: - Oracles

    /// `NSManagedObjectModel_VersionHashes` of a compiled `.momd`: version → entity → hash.
    public static func compiledVersionHashes(_ momd: String) throws -> [String: [String: Data]] {
        let url = try existing(compiled.appendingPathComponent("\(momd)/VersionInfo.plist"))
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let dict = try #require(plist as? [String: Any])
        let versions = try #require(dict["NSManagedObjectModel_VersionHashes"] as? [String: Any])
        return try versions.mapValues { entities in
            let hashes = try #require(entities as? [String: Any])
            return try hashes.mapValues { try #require(dataValue($0)) }
        }
    }

    /// The metadata plist (`Z_METADATA.Z_PLIST`) of a fixture store, read with the raw
    /// SQLite C API in immutable mode (the fixture file is never written, and nothing is
    /// created beside it).
    public static func storeMetadata(_ name: String) throws -> [String: Any] {
        let path = try store(name).path
        var db: OpaquePointer?
        let uri = "file:\(path)?immutable=1"
        let opened = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        defer { sqlite3_close(db) }
        try #require(opened == SQLITE_OK, "can't open \(path)")
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(db, "SELECT Z_PLIST FROM Z_METADATA", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_step(statement) == SQLITE_ROW, "Z_METADATA is empty in \(name)")
        let count = Int(sqlite3_column_bytes(statement, 0))
        let bytes = try #require(sqlite3_column_blob(statement, 0))
        let blob = Data(bytes: bytes, count: count)
        let plist = try PropertyListSerialization.propertyList(from: blob, options: [], format: nil)
        return try #require(plist as? [String: Any])
    }

    /// `NSStoreModelVersionHashes` of a fixture store's metadata.
    public static func storeVersionHashes(_ name: String) throws -> [String: Data] {
        let metadata = try storeMetadata(name)
        let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Any])
        return try hashes.mapValues { try #require(dataValue($0)) }
    }

    public static func dataValue(_ value: Any) -> Data? {
        (value as? Data) ?? (value as? NSData).map { Data(referencing: $0) }
    }

    public static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
