import Foundation
import Testing
import CCoreDataSQLite
@_spi(Tools) @testable import CoreData

/// Paths and readers for the shared fixtures in `../shared/fixtures` (relative to the
/// repository root, found from this file's path so the working directory does not matter).
enum ModelFixtures {
    /// `…/Tests/CoreDataTests/Model/ModelFixtures.swift` → repository root.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let root: URL = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures").standardizedFileURL

    /// The fixtures folder, or a test failure that says where it was expected.
    static func require() throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            Issue.record("The shared fixtures folder is missing: expected \(root.path) (../shared/fixtures from the repository root \(repositoryRoot.path)).")
            throw FixtureMissing()
        }
        return root
    }

    struct FixtureMissing: Error {}

    static func model(_ name: String) throws -> URL {
        try require().appendingPathComponent("models").appendingPathComponent(name)
    }

    static func allModelBundles() throws -> [URL] {
        let folder = try require().appendingPathComponent("models")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .map { folder.appendingPathComponent($0) }
    }

    // MARK: - Oracles

    /// `NSManagedObjectModel_VersionHashes` of a compiled `.momd`: version → entity → hash.
    static func compiledVersionHashes(_ momd: String) throws -> [String: [String: Data]] {
        let url = try require().appendingPathComponent("compiled/\(momd)/VersionInfo.plist")
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
    /// SQLite C API in immutable mode (the fixture file is never written).
    static func storeMetadata(_ store: String) throws -> [String: Any] {
        let path = try require().appendingPathComponent("stores/\(store)").path
        var db: OpaquePointer?
        let uri = "file:\(path)?immutable=1"
        let opened = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        defer { sqlite3_close(db) }
        try #require(opened == SQLITE_OK, "can't open \(path)")
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(db, "SELECT Z_PLIST FROM Z_METADATA", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_step(statement) == SQLITE_ROW, "Z_METADATA is empty in \(store)")
        let count = Int(sqlite3_column_bytes(statement, 0))
        let bytes = try #require(sqlite3_column_blob(statement, 0))
        let blob = Data(bytes: bytes, count: count)
        let plist = try PropertyListSerialization.propertyList(from: blob, options: [], format: nil)
        return try #require(plist as? [String: Any])
    }

    static func storeVersionHashes(_ store: String) throws -> [String: Data] {
        let metadata = try storeMetadata(store)
        let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Any])
        return try hashes.mapValues { try #require(dataValue($0)) }
    }

    static func dataValue(_ value: Any) -> Data? {
        (value as? Data) ?? (value as? NSData).map { Data(referencing: $0) }
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    // MARK: - Independent XML scan

    /// What a `contents` file declares, read with a plain line scan (not the loader).
    struct ScannedEntity: Equatable {
        var attributes: [String] = []
        var relationships: [String] = []
        var fetchedProperties: [String] = []
    }

    static func scan(contents url: URL) throws -> [String: ScannedEntity] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var result: [String: ScannedEntity] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<entity ") {
                let name = attribute("name", in: trimmed) ?? "?"
                result[name] = ScannedEntity()
                current = trimmed.hasSuffix("/>") ? nil : name
            } else if trimmed.hasPrefix("</entity>") {
                current = nil
            } else if let entity = current {
                if trimmed.hasPrefix("<attribute "), let name = attribute("name", in: trimmed) {
                    result[entity]?.attributes.append(name)
                } else if trimmed.hasPrefix("<relationship "), let name = attribute("name", in: trimmed) {
                    result[entity]?.relationships.append(name)
                } else if trimmed.hasPrefix("<fetchedProperty "), let name = attribute("name", in: trimmed) {
                    result[entity]?.fetchedProperties.append(name)
                }
            }
        }
        return result
    }

    private static func attribute(_ key: String, in line: String) -> String? {
        guard let start = line.range(of: " \(key)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    // MARK: - Temporary model bundles

    /// A fresh temporary folder, removed by the caller with `FileManager.removeItem`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("model-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `Name.xcdatamodel/contents` into `folder`.
    @discardableResult
    static func writeVersion(_ name: String, in folder: URL, contents: String) throws -> URL {
        let version = folder.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        return version
    }

    /// A minimal model file with one entity per name, each with one string attribute.
    static func modelXML(entities: [String], identifier: String = "") -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">

            """
        for entity in entities {
            xml += "    <entity name=\"\(entity)\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
        }
        return xml + "</model>\n"
    }

    static func writeCurrentVersion(_ name: String?, in bundle: URL) throws {
        let body = name.map { "<key>_XCCurrentVersionName</key><string>\($0)</string>" } ?? ""
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
        try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }
}
