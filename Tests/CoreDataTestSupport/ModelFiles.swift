import Foundation

/// Xcode model files written by tests into a ``TemporaryDirectory``, and an independent
/// reader of what a model file declares (a line scan, not the loader under test).
public enum ModelFiles {
    /// Writes `Name.xcdatamodel/contents` into `folder`.
    @discardableResult
    public static func writeVersion(_ name: String, in folder: URL, contents: String) throws -> URL {
        let version = folder.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        return version
    }

    /// A minimal model file with one entity per name, each with one string attribute.
    public static func modelXML(entities: [String], identifier: String = "") -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">

            """
        for entity in entities {
            xml += "    <entity name=\"\(entity)\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
        }
        return xml + "</model>\n"
    }

    /// Writes a bundle's `.xccurrentversion` naming `name` (an empty dictionary for nil).
    public static func writeCurrentVersion(_ name: String?, in bundle: URL) throws {
        let body = name.map { "<key>_XCCurrentVersionName</key><string>\($0)</string>" } ?? ""
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
        try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }

    // MARK: - Independent XML scan

    /// What a `contents` file declares for one entity, in file order.
    public struct ScannedEntity: Equatable, Sendable {
        public var attributes: [String] = []
        public var relationships: [String] = []
        public var fetchedProperties: [String] = []
    }

    /// Entity name → what the `contents` file at `url` declares for it, read with a plain
    /// line scan.
    public static func scan(contents url: URL) throws -> [String: ScannedEntity] {
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
}
