import CCoreDataAPI
@_spi(Tools) @_spi(CAPI) import CoreData
import Foundation

// MARK: - Containers

/// The open flags this build knows (`cd_open_flags`).
private let knownOpenFlags = UInt32(CD_OPEN_READ_ONLY.rawValue | CD_OPEN_NO_MIGRATION.rawValue | CD_OPEN_IN_MEMORY.rawValue)

@c @implementation public func cd_container_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ modelPath: UnsafePointer<CChar>?,
    _ storePath: UnsafePointer<CChar>?, _ flags: UInt32
) -> Int32 {
    capi {
        let out = try requireOut(out)
        guard flags & ~knownOpenFlags == 0 else {
            throw CAPIError(.misuse, "Unknown cd_open_flags bits 0x\(String(flags & ~knownOpenFlags, radix: 16)).")
        }
        let inMemory = flags & UInt32(CD_OPEN_IN_MEMORY.rawValue) != 0
        if inMemory && flags & UInt32(CD_OPEN_READ_ONLY.rawValue) != 0 {
            throw CAPIError(.misuse, "CD_OPEN_READ_ONLY with CD_OPEN_IN_MEMORY: a new in-memory store is empty, and read-only it could never hold anything.")
        }
        // The store path is ignored for an in-memory store, but checked when given.
        let storeText = try storePath.map { try requirePath($0, "store_path") }
        if !inMemory && storeText == nil {
            throw CAPIError(.misuse, "store_path is NULL (pass a path, or CD_OPEN_IN_MEMORY).")
        }
        // Without a model file, the store's own cached model (Z_MODELCACHE) is the model:
        // the store must exist, and there is nothing to migrate to.
        let model: NSManagedObjectModel
        let name: String
        if let modelPath {
            let modelURL = URL(fileURLWithPath: try requirePath(modelPath, "model_path"))
            model = try NSManagedObjectModel.load(contentsOf: modelURL)
            name = modelURL.deletingPathExtension().lastPathComponent
        } else {
            guard let storeText, !inMemory else {
                throw CAPIError(.misuse, "model_path is NULL with CD_OPEN_IN_MEMORY: a new in-memory store has no cached model to open with.")
            }
            if storeText.hasPrefix("postgresql://") || storeText.hasPrefix("postgres://") {
                throw CAPIError(.misuse, "model_path is NULL for a PostgreSQL store, which keeps no cached model: pass the model.")
            }
            let storeURL = URL(fileURLWithPath: storeText)
            model = try NSManagedObjectModel(cachedInStoreAt: storeURL)
            name = storeURL.deletingPathExtension().lastPathComponent
        }
        let container = NSPersistentContainer(name: name, managedObjectModel: model)
        let description = NSPersistentStoreDescription()
        if inMemory {
            description.type = NSInMemoryStoreType
        } else if let storeText {
            if storeText.hasPrefix("postgresql://") || storeText.hasPrefix("postgres://") {
                // A PostgreSQL store: libpq's connection URI.
                guard let url = URL(string: storeText) else {
                    throw CAPIError(.misuse, "store_path is not a valid postgresql:// URI.")
                }
                description.url = url
                description.type = NSPostgreSQLStoreType
            } else {
                description.url = URL(fileURLWithPath: storeText)
            }
        }
        description.isReadOnly = flags & UInt32(CD_OPEN_READ_ONLY.rawValue) != 0
        let migrate = flags & UInt32(CD_OPEN_NO_MIGRATION.rawValue) == 0
        description.shouldMigrateStoreAutomatically = migrate
        description.shouldInferMappingModelAutomatically = migrate
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        out.pointee = retained(ContainerBox(container: container))
    }
}

@c @implementation public func cd_container_release(_ container: OpaquePointer?) {
    release(container, as: ContainerBox.self)
}

@c @implementation public func cd_container_view_context(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ container: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(container, as: ContainerBox.self, "container")
        out.pointee = retained(box.viewContext())
    }
}

@c @implementation public func cd_container_new_background_context(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ container: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(container, as: ContainerBox.self, "container")
        let context = box.container.newBackgroundContext()
        out.pointee = retained(ContextBox(context: context, container: box.container))
    }
}

@c @implementation public func cd_container_copy_model(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ container: OpaquePointer?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(container, as: ContainerBox.self, "container")
        out.pointee = retained(ModelBox(box.container.managedObjectModel))
    }
}

@c @implementation public func cd_container_object_id_from_uri(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ container: OpaquePointer?,
    _ uri: UnsafePointer<CChar>?
) -> Int32 {
    capi {
        let out = try requireOut(out)
        let box = try handle(container, as: ContainerBox.self, "container")
        let text = try requireString(uri, "uri")
        guard let url = CoreDataC.uri(text) else {
            throw CAPIError(.type, "\"\(text)\" is not a URI.")
        }
        let parts = url.path.split(separator: "/", omittingEmptySubsequences: false)
        guard url.scheme == "x-coredata", parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty,
              let kind = parts[2].first, kind == "p" || kind == "t", parts[2].count > 1 else {
            throw CAPIError(.type, "\(text) is not an object ID URI (x-coredata://<store>/<Entity>/p<n>).")
        }
        guard let objectID = box.container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: url) else {
            let why = kind == "t" ? "it is a temporary ID, which only its own context knows"
                : "no store, entity or primary key of this container matches"
            throw CAPIError(.notFound, "The URI \(text) names no object ID here: \(why).")
        }
        out.pointee = retained(ObjectIDBox(objectID))
    }
}
