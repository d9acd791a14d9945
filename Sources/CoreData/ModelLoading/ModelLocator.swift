import Foundation

/// Finds an app's model by name, the way `NSPersistentContainer(name:)` needs it.
///
/// `model(named: "Foo")` looks for `Foo.xcdatamodeld`, `Foo.xcdatamodel`, then the compiled
/// `Foo.momd` and `Foo.mom`, in each of these folders, in this order, and loads the first one
/// found:
/// 1. `Bundle.main`'s resources (`resourceURL`, then `bundleURL` if different).
/// 2. SwiftPM resource bundles: every `*.resources` folder inside `Bundle.main.bundleURL`
///    and inside the executable's folder, in name order. That is where `Bundle.module` of
///    any package target lives on Linux, so a target that declares
///    `resources: [.copy("Foo.xcdatamodeld")]` is found without extra code.
/// 3. The current working directory.
///
/// If none has the model, the thrown error lists every folder searched.
///
/// ```swift
/// let model = try ModelLocator.model(named: "DataModel")
/// ```
enum ModelLocator {
    /// One folder searched, with the reason it is searched (for error messages).
    struct Location: Equatable {
        let label: String
        let directory: URL
    }

    // MARK: - Finding one model

    /// Loads the current version of the model called `name`.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) naming every folder searched, or the
    ///   error of the model that was found but does not load.
    static func model(named name: String) throws -> NSManagedObjectModel {
        try model(named: name, searching: defaultLocations())
    }

    static func model(named name: String, searching locations: [Location]) throws -> NSManagedObjectModel {
        guard let url = modelURL(named: name, searching: locations) else {
            let places = locations.map { "\($0.label) (\($0.directory.path))" }
            let text = "No Core Data model named \(name) (\(name).xcdatamodeld, \(name).xcdatamodel, \(name).momd or \(name).mom) was found. "
                + "Searched, in order: " + (places.isEmpty ? "nothing" : places.joined(separator: "; ")) + "."
            throw CoreDataError.make(260, text, userInfo: ["NSSearchedLocations": locations.map(\.directory.path)])
        }
        return try NSManagedObjectModel.load(contentsOf: url)
    }

    /// The first `<name>.xcdatamodeld`, `<name>.xcdatamodel`, `<name>.momd` or `<name>.mom`
    /// in `locations`.
    static func modelURL(named name: String, searching locations: [Location]) -> URL? {
        for location in locations {
            for ext in ["xcdatamodeld", "xcdatamodel", "momd"] {
                let candidate = location.directory.appendingPathComponent(name).appendingPathExtension(ext)
                if isDirectory(candidate) { return candidate }
            }
            let compiled = location.directory.appendingPathComponent(name).appendingPathExtension("mom")
            if FileManager.default.fileExists(atPath: compiled.path), !isDirectory(compiled) { return compiled }
        }
        return nil
    }

    /// The folders ``model(named:)`` searches, in order, without duplicates.
    static func defaultLocations(
        bundle: Bundle = .main,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> [Location] {
        var locations: [Location] = []
        func add(_ label: String, _ url: URL?) {
            guard let url else { return }
            let standard = url.standardizedFileURL
            guard !locations.contains(where: { $0.directory.path == standard.path }) else { return }
            locations.append(Location(label: label, directory: standard))
        }
        add("Bundle.main resources", bundle.resourceURL)
        add("Bundle.main", bundle.bundleURL)
        var resourceParents = [bundle.bundleURL]
        if let executable = bundle.executableURL?.deletingLastPathComponent() { resourceParents.append(executable) }
        for parent in resourceParents {
            for folder in resourceBundles(in: parent) {
                add("SwiftPM resource bundle \(folder.lastPathComponent)", folder)
            }
        }
        add("working directory", workingDirectory)
        return locations
    }

    // MARK: - Every model of some bundles

    /// The current version of every model found in `bundles`: each `*.xcdatamodeld`,
    /// `*.xcdatamodel`, `*.momd` and `*.mom` in a bundle's resources and in the SwiftPM
    /// `*.resources` folders inside it (a compiled model beside a source of the same name is
    /// the same model, and only the source is taken). Models that do not load are skipped.
    static func models(in bundles: [Bundle]) -> [NSManagedObjectModel] {
        modelURLs(in: bundles).compactMap { try? NSManagedObjectModel.load(contentsOf: $0) }
    }

    /// The model sources ``models(in:)`` loads, in a stable order.
    static func modelURLs(in bundles: [Bundle]) -> [URL] {
        var directories: [URL] = []
        for bundle in bundles {
            for base in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0 }) {
                directories.append(base)
                directories += resourceBundles(in: base)
            }
        }
        var seen = Set<String>()
        var urls: [URL] = []
        for directory in directories where seen.insert(directory.standardizedFileURL.path).inserted {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let sources = Set(names.filter {
                ["xcdatamodeld", "xcdatamodel"].contains(($0 as NSString).pathExtension.lowercased())
            }.map { ($0 as NSString).deletingPathExtension })
            for name in names.sorted() {
                let ext = (name as NSString).pathExtension.lowercased()
                let url = directory.appendingPathComponent(name).standardizedFileURL
                switch ext {
                case "xcdatamodeld", "xcdatamodel", "momd":
                    if ext == "momd", sources.contains((name as NSString).deletingPathExtension) { continue }
                    if isDirectory(url), seen.insert(url.path).inserted { urls.append(url) }
                case "mom":
                    if sources.contains((name as NSString).deletingPathExtension) { continue }
                    if !isDirectory(url), seen.insert(url.path).inserted { urls.append(url) }
                default:
                    continue
                }
            }
        }
        return urls
    }

    // MARK: - Helpers

    private static func resourceBundles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted()
            .filter { $0.hasSuffix(".resources") }
            .map { directory.appendingPathComponent($0) }
            .filter(isDirectory)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
