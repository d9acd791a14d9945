import Foundation
// NSManagedObjectModel.load(contentsOf:) (SPI Tools): loads an Xcode model source.
@_spi(Tools) import CoreData

/// The model loader: any `contents` file either loads into a model or is refused with an
/// error, never a crash.
enum ModelXMLFuzz {
    /// A model folder of this process, rewritten for each input.
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("coredata-fuzz-\(getpid())/Fuzz.xcdatamodel", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func run(_ data: Data) {
        guard (try? data.write(to: folder.appendingPathComponent("contents"))) != nil else { return }
        guard let model = try? NSManagedObjectModel.load(contentsOf: folder) else { return }
        // A model that loads describes itself and hashes without trouble.
        for entity in model.entities {
            _ = entity.versionHash
            _ = entity.propertiesByName.count
        }
        _ = model.entityVersionHashesByName
    }
}
