import Foundation
// NSManagedObjectModel.load(contentsOf:) (SPI Tools): loads a compiled model (`.mom`).
@_spi(Tools) import CoreData

/// Compiled models: any bytes, as a `.mom` file (Xcode's keyed archive of the model),
/// either load into a model or are refused with an error, never a crash. Seeds are the
/// `.mom` files Xcode compiled for the fixtures (Tests/CoreDataTestSupport/Fixtures/compiled).
enum CompiledModelFuzz {
    /// A model file of this process, rewritten for each input.
    static let file: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("Fuzz.mom")
    }()

    static func run(_ data: Data) {
        guard (try? data.write(to: file)) != nil else { return }
        guard let model = try? NSManagedObjectModel.load(contentsOf: file) else { return }
        // A model that loads describes itself, hashes, and serves fetch request templates.
        for entity in model.entities {
            _ = entity.versionHash
            for property in entity.properties { _ = property.versionHash }
            _ = entity.relationshipsByName.values.map { $0.inverseRelationship?.name }
        }
        _ = model.entityVersionHashesByName
        for name in model.fetchRequestTemplatesByName.keys { _ = model.fetchRequestTemplate(forName: name) }
    }
}
