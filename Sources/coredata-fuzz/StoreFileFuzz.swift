import Foundation
import CoreData

/// Store files: any bytes, opened read-only as a SQLite store of the SampleModel fixture and
/// read through (every entity fetched with its relationships prefetched, every property
/// read), either work or fail with an error, never a crash. Seeds are real stores Apple's
/// Core Data wrote.
///
/// Only the throwing paths read the file: a fault fired later (`value(forKey:)` on an object
/// whose row sits on a damaged page) raises "could not fulfill a fault" with Apple's wording,
/// as Apple's Core Data raises there, which is not a finding.
enum StoreFileFuzz {
    /// The fixture model the seed stores were written with; `COREDATA_FUZZ_ROOT` is the
    /// repository's root (the working directory by default).
    static let model: NSManagedObjectModel? = {
        let root = ProcessInfo.processInfo.environment["COREDATA_FUZZ_ROOT"] ?? FileManager.default.currentDirectoryPath
        let url = URL(fileURLWithPath: root)
            .appendingPathComponent("Tests/CoreDataTestSupport/Fixtures/models/alemar11_CoreDataPlus__SampleModel.xcdatamodeld")
        guard let model = NSManagedObjectModel(contentsOf: url) else {
            fatalError("store: no model at \(url.path); run from the repository's root or set COREDATA_FUZZ_ROOT")
        }
        return model
    }()

    static let file: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("Fuzz.sqlite")
    }()

    static func run(_ data: Data) {
        guard let model else { return }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        guard (try? data.write(to: file)) != nil else { return }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        guard let store = try? coordinator.addPersistentStore(
            type: .sqlite, at: file, options: [NSReadOnlyPersistentStoreOption: true]) else { return }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            for entity in model.entities {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                request.returnsObjectsAsFaults = false
                request.relationshipKeyPathsForPrefetching = Array(entity.relationshipsByName.keys)
                guard let objects = try? context.fetch(request) else { continue }
                for object in objects {
                    for name in object.entity.attributesByName.keys { _ = object.value(forKey: name) }
                    for (name, relationship) in object.entity.relationshipsByName {
                        // To-ones as IDs (no fault fired); to-manys were prefetched.
                        if relationship.isToMany {
                            _ = object.value(forKey: name)
                        } else {
                            _ = object.objectIDs(forRelationshipNamed: name)
                        }
                    }
                }
            }
            context.reset()
        }
        try? coordinator.remove(store)
    }
}
