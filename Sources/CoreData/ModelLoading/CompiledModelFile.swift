import Foundation

/// Compiled models on disk, as Xcode's model compiler lays them out.
///
/// - `Foo.mom`: one model version, a keyed archive (``CompiledModelReader``).
/// - `Foo.momd/`: a versioned model. `VersionInfo.plist` names the current version under
///   `NSManagedObjectModel_CurrentVersionName` and holds each version's entity hashes
///   (`NSManagedObjectModel_VersionHashes`) and checksum
///   (`NSManagedObjectModel_VersionChecksums`); each version is `<Version>.mom`. The
///   current version may also have a `<Version>.omo`, Apple's private, optimised copy of
///   the same model, which is not needed: the `.mom` beside it is read.
enum CompiledModelFile {
    /// Whether `url` is a compiled model that exists (a `.mom` file or a `.momd` folder).
    static func exists(_ url: URL) -> Bool {
        let ext = url.pathExtension.lowercased()
        guard ext == "mom" || ext == "momd" || ext == "omo" else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// The current version of the compiled model at `url` (a `.momd`), or the model itself
    /// (a `.mom`; an `.omo` reads the `.mom` of the same name beside it).
    static func load(_ url: URL, into model: NSManagedObjectModel = NSManagedObjectModel()) throws -> NSManagedObjectModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelLoadError.make(ModelLoadError.noSuchFile, file: url, "there is no compiled model here")
        }
        if isDirectory.boolValue {
            let (current, versions) = try self.versions(ofBundle: url)
            guard let file = versions[current] else {
                throw ModelLoadError.make(
                    ModelLoadError.noSuchFile, file: url,
                    "the current version \(current) has no \(current).mom (versions: \(versions.keys.sorted().joined(separator: ", ")))")
            }
            return try loadVersion(file, into: model)
        }
        if url.pathExtension.lowercased() == "omo" {
            return try loadVersion(url.deletingPathExtension().appendingPathExtension("mom"), into: model)
        }
        return try loadVersion(url, into: model)
    }

    /// Every version of the compiled model at `url`, by version name (one, for a `.mom`).
    static func allModels(_ url: URL) throws -> [(name: String, model: NSManagedObjectModel)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else {
            return [(url.deletingPathExtension().lastPathComponent, try loadVersion(url))]
        }
        let (_, versions) = try self.versions(ofBundle: url)
        return try versions.keys.sorted().map { ($0, try loadVersion(versions[$0]!)) }
    }

    /// Reads one `.mom` file.
    static func loadVersion(
        _ file: URL, into model: NSManagedObjectModel = NSManagedObjectModel()
    ) throws -> NSManagedObjectModel {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ModelLoadError.make(
                ModelLoadError.noSuchFile, file: file, "the file can't be read (\(error.localizedDescription))")
        }
        return try CompiledModelReader.model(from: data, source: file, into: model)
    }

    /// The current version's name and every `<Version>.mom` of a `.momd` folder.
    static func versions(ofBundle url: URL) throws -> (current: String, versions: [String: URL]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        var versions: [String: URL] = [:]
        for name in names where (name as NSString).pathExtension.lowercased() == "mom" {
            versions[(name as NSString).deletingPathExtension] = url.appendingPathComponent(name)
        }
        var current: String?
        if let data = try? Data(contentsOf: url.appendingPathComponent("VersionInfo.plist")) {
            guard let info = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                    as? [String: Any] else {
                throw ModelLoadError.make(
                    ModelLoadError.corruptFile, file: url.appendingPathComponent("VersionInfo.plist"),
                    "VersionInfo.plist is not a property list dictionary")
            }
            current = info["NSManagedObjectModel_CurrentVersionName"] as? String
        }
        if current == nil, versions.count == 1 { current = versions.keys.first }
        guard let current else {
            throw ModelLoadError.make(
                ModelLoadError.corruptFile, file: url,
                versions.isEmpty ? "the compiled model folder holds no .mom file"
                    : "VersionInfo.plist does not name the current version")
        }
        return (current, versions)
    }
}
