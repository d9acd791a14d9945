import Foundation

/// An Xcode model bundle on disk: every version it holds and which one is current.
///
/// A `.xcdatamodeld` folder holds one `<Version>.xcdatamodel` folder per version; a bare
/// `.xcdatamodel` folder is a bundle with a single version. ``open(_:)`` also accepts the
/// compiled-model URLs apps ask for on Apple platforms (see ``resolve(_:)``).
///
/// The current version is chosen this way:
/// 1. `.xccurrentversion` (an XML plist) names it under `_XCCurrentVersionName`, with or
///    without the `.xcdatamodel` extension; naming a version that is not in the bundle is
///    an error.
/// 2. Otherwise (file absent, empty `<dict/>`, key missing) a bundle with one version uses
///    that version.
/// 3. Otherwise the last version in numeric-aware name order is current (`Moody 10` comes
///    after `Moody 9`; `Model.V2` after `Model`).
///
/// ```swift
/// let bundle = try ModelBundle.open(URL(fileURLWithPath: "Moody.xcdatamodeld"))
/// let current = try bundle.currentModel()
/// let v2 = try bundle.model(forVersion: "Moody 2")
/// ```
///
/// - Note: Apple parity: rule 3 is ours; Xcode refuses to compile such a bundle without a
///   current version only in some versions, and what it picks otherwise is unverified.
@_spi(Tools) public struct ModelBundle: Sendable {
    /// The `.xcdatamodeld` (or lone `.xcdatamodel`) folder.
    public let url: URL
    /// Version names without the `.xcdatamodel` extension, in numeric-aware order.
    public let versionNames: [String]
    /// The name of the current version.
    public let currentVersionName: String
    private let versionURLs: [String: URL]

    // MARK: - Opening

    /// Opens the bundle at `url` (a `.xcdatamodeld`, a `.xcdatamodel`, or a compiled-model
    /// URL that ``resolve(_:)`` maps to one).
    public static func open(_ url: URL) throws -> ModelBundle {
        try resolve(url).bundle
    }

    /// Maps a URL to a bundle and the version it designates (the current one unless the
    /// URL names a single version).
    ///
    /// - A `.xcdatamodeld` folder: its current version.
    /// - A `.xcdatamodel` folder, or any folder holding a `contents` file: that version. When
    ///   its parent is a `.xcdatamodeld`, the whole parent bundle is opened so that the
    ///   other versions stay reachable.
    /// - `Foo.momd` (what `Bundle.main.url(forResource: "Foo", withExtension: "momd")`
    ///   asks for): `Foo.xcdatamodeld` beside it, else `Foo.xcdatamodel` beside it. This
    ///   applies whether or not the `.momd` exists, because compiled models can't be read.
    /// - `Foo.mom`: `Foo.xcdatamodel` beside it, else `Foo.xcdatamodeld` beside it; and
    ///   `Bar.momd/Foo.mom` (one compiled version) means version `Foo` of
    ///   `Bar.xcdatamodeld` beside the `.momd`.
    public static func resolve(_ url: URL) throws -> (bundle: ModelBundle, version: String) {
        let url = url.standardizedFileURL
        let fm = FileManager.default
        let ext = url.pathExtension.lowercased()
        let parent = url.deletingLastPathComponent()
        let base = url.deletingPathExtension().lastPathComponent

        if ext == "momd" || ext == "mom" {
            var candidates: [URL] = []
            if ext == "mom", parent.pathExtension.lowercased() == "momd" {
                let bundleName = parent.deletingPathExtension().lastPathComponent
                let bundleURL = parent.deletingLastPathComponent()
                    .appendingPathComponent(bundleName).appendingPathExtension("xcdatamodeld")
                if isDirectory(bundleURL) {
                    let bundle = try load(bundleURL: bundleURL)
                    guard bundle.versionURLs[base] != nil else {
                        throw ModelLoadError.make(
                            ModelLoadError.noSuchFile, file: url,
                            "\(bundleURL.path) has no version \(base) (versions: \(bundle.versionNames.joined(separator: ", ")))")
                    }
                    return (bundle, base)
                }
                candidates.append(bundleURL)
            }
            let modeld = parent.appendingPathComponent(base).appendingPathExtension("xcdatamodeld")
            let model = parent.appendingPathComponent(base).appendingPathExtension("xcdatamodel")
            candidates += ext == "momd" ? [modeld, model] : [model, modeld]
            for candidate in candidates where isDirectory(candidate) {
                return try resolve(candidate)
            }
            let exists = fm.fileExists(atPath: url.path)
            throw ModelLoadError.make(
                ModelLoadError.noSuchFile, file: url,
                (exists ? "compiled models (.mom/.momd) can't be read on this platform, and " : "the file does not exist, and ")
                    + "no model source was found beside it (looked for \(candidates.map(\.path).joined(separator: ", ")))")
        }

        guard fm.fileExists(atPath: url.path) else {
            throw ModelLoadError.make(ModelLoadError.noSuchFile, file: url, "the model does not exist")
        }
        guard isDirectory(url) else {
            throw ModelLoadError.make(
                ModelLoadError.corruptFile, file: url,
                "expected a .xcdatamodeld or .xcdatamodel folder, found a file")
        }
        if ext == "xcdatamodeld" {
            let bundle = try load(bundleURL: url)
            return (bundle, bundle.currentVersionName)
        }
        if ext == "xcdatamodel" || fm.fileExists(atPath: url.appendingPathComponent("contents").path) {
            if parent.pathExtension.lowercased() == "xcdatamodeld" {
                return (try load(bundleURL: parent), base)
            }
            let bundle = ModelBundle(url: url, versionNames: [base], currentVersionName: base, versionURLs: [base: url])
            return (bundle, base)
        }
        // A folder with another extension: treat it as a bundle if it holds versions.
        let bundle = try load(bundleURL: url)
        return (bundle, bundle.currentVersionName)
    }

    private static func load(bundleURL: URL) throws -> ModelBundle {
        let fm = FileManager.default
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: bundleURL.path)
        } catch {
            throw ModelLoadError.make(ModelLoadError.noSuchFile, file: bundleURL, "the folder can't be read (\(error.localizedDescription))")
        }
        var versionURLs: [String: URL] = [:]
        for name in names where name.lowercased().hasSuffix(".xcdatamodel") {
            let versionURL = bundleURL.appendingPathComponent(name)
            guard isDirectory(versionURL) else { continue }
            versionURLs[String(name.dropLast(".xcdatamodel".count))] = versionURL
        }
        guard !versionURLs.isEmpty else {
            throw ModelLoadError.make(ModelLoadError.noSuchFile, file: bundleURL, "the bundle holds no .xcdatamodel version")
        }
        let ordered = versionURLs.keys.sorted(by: numericAwareLess)
        let current: String
        if let named = try currentVersionName(in: bundleURL) {
            guard versionURLs[named] != nil else {
                throw ModelLoadError.make(
                    ModelLoadError.corruptFile, file: bundleURL.appendingPathComponent(".xccurrentversion"),
                    "the current version \(named) is not in the bundle (versions: \(ordered.joined(separator: ", ")))")
            }
            current = named
        } else {
            current = ordered[ordered.count - 1]
        }
        return ModelBundle(url: bundleURL, versionNames: ordered, currentVersionName: current, versionURLs: versionURLs)
    }

    /// `_XCCurrentVersionName` from `.xccurrentversion`, without its extension; `nil`
    /// when the file, or the key, is absent.
    private static func currentVersionName(in bundleURL: URL) throws -> String? {
        let file = bundleURL.appendingPathComponent(".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelLoadError.make(ModelLoadError.corruptFile, file: file, "not a property list (\(error.localizedDescription))")
        }
        guard let dict = plist as? [String: Any], let name = dict["_XCCurrentVersionName"] as? String,
              !name.isEmpty else { return nil }
        return name.lowercased().hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }

    // MARK: - Versions

    /// The folder of a version, or `nil` if the bundle has no such version.
    public func url(forVersion name: String) -> URL? { versionURLs[name] }

    /// Loads one version.
    public func model(forVersion name: String) throws -> NSManagedObjectModel {
        guard let versionURL = versionURLs[name] else {
            throw ModelLoadError.make(
                ModelLoadError.noSuchFile, file: url,
                "the bundle has no version \(name) (versions: \(versionNames.joined(separator: ", ")))")
        }
        let model = try ModelLoader.loadVersion(at: versionURL)
        model.bundleURL = url
        return model
    }

    /// Loads the current version.
    public func currentModel() throws -> NSManagedObjectModel {
        try model(forVersion: currentVersionName)
    }

    /// Loads every version, in ``versionNames`` order.
    public func allModels() throws -> [(name: String, model: NSManagedObjectModel)] {
        try versionNames.map { ($0, try model(forVersion: $0)) }
    }

    // MARK: - Ordering

    /// Compares names with runs of digits taken as numbers (`V2` < `V10`).
    static func numericAwareLess(_ a: String, _ b: String) -> Bool {
        func chunks(_ s: String) -> [(isNumber: Bool, text: Substring)] {
            var result: [(Bool, Substring)] = []
            var start = s.startIndex
            while start < s.endIndex {
                let isDigit = s[start].isASCII && s[start].isNumber
                var end = start
                while end < s.endIndex, (s[end].isASCII && s[end].isNumber) == isDigit { end = s.index(after: end) }
                result.append((isDigit, s[start..<end]))
                start = end
            }
            return result
        }
        let x = chunks(a), y = chunks(b)
        for (p, q) in zip(x, y) {
            if p.isNumber && q.isNumber {
                let m = p.text.drop { $0 == "0" }, n = q.text.drop { $0 == "0" }
                if m.count != n.count { return m.count < n.count }
                if m != n { return m < n }
            } else if p.text != q.text {
                return p.text < q.text
            }
        }
        return x.count != y.count ? x.count < y.count : a < b
    }
}
