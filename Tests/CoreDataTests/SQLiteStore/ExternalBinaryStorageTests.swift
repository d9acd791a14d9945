import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Binary attributes with "Allows External Storage" kept as Apple's SQLite store keeps them:
// small values in the row behind the marker byte 0x01, large ones as files under
// `.<store>_SUPPORT/_EXTERNAL_DATA/` with 0x02 + UUID + NUL in the row.

/// Photo(title, image: Binary allowing external storage).
private func photoModel(external: Bool = true, caption: Bool = false) -> NSManagedObjectModel {
    let image = attribute("image", .binaryDataAttributeType)
    image.allowsExternalBinaryDataStorage = external
    var properties: [NSPropertyDescription] = [attribute("title", .stringAttributeType), image]
    if caption { properties.append(attribute("caption", .stringAttributeType)) }
    let model = NSManagedObjectModel()
    model.entities = [entity("Photo", properties)]
    return model
}

/// A 200 KiB value (above the external threshold) and a small one.
private let large = Data((0..<200 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) })
private let small = Data([0x01, 0x02, 0x00, 0xFF])

private final class PhotoContainer: NSPersistentContainer, @unchecked Sendable {}

private struct PhotoStore {
    let folder: TemporaryDirectory
    var url: URL { folder.file("Photos.sqlite") }
    var externalFolder: URL { folder.file(".Photos_SUPPORT/_EXTERNAL_DATA") }

    init() throws { folder = try TemporaryDirectory() }

    func container(_ model: NSManagedObjectModel) throws -> PhotoContainer {
        let container = PhotoContainer(name: "Photos", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    func externalFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: externalFolder.path)) ?? []).sorted()
    }

    /// title → image column bytes, read with plain SQLite.
    func columns() throws -> [String: Data] {
        let raw = try RawDatabase(url)
        var result: [String: Data] = [:]
        for row in try raw.rows("SELECT ZTITLE, ZIMAGE FROM ZPHOTO") {
            if let title = row[0] as? String, let data = row[1] as? Data { result[title] = data }
        }
        return result
    }

    func images(_ container: NSPersistentContainer) throws -> [String: Data] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var result: [String: Data] = [:]
            for photo in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")) {
                result[photo.value(forKey: "title") as! String] = photo.value(forKey: "image") as? Data
            }
            return result
        }
    }
}

private func insertPhoto(_ title: String, _ image: Data?, into context: NSManagedObjectContext) -> NSManagedObject {
    let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
    photo.setValue(title, forKey: "title")
    photo.setValue(image, forKey: "image")
    return photo
}

@Suite("External binary storage")
struct ExternalBinaryStorageTests {
    @Test("a small value is stored in the row behind 0x01, a large one as a file named in the row")
    func layout() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        _ = insertPhoto("small", small, into: container.viewContext)
        _ = insertPhoto("large", large, into: container.viewContext)
        _ = insertPhoto("none", nil, into: container.viewContext)
        try container.viewContext.save()

        let columns = try store.columns()
        #expect(columns["small"] == Data([0x01]) + small)
        let reference = try #require(columns["large"])
        #expect(reference.first == 0x02 && reference.last == 0x00 && reference.count == 38)
        let name = String(decoding: reference.dropFirst().dropLast(), as: UTF8.self)
        #expect(UUID(uuidString: name) != nil)
        #expect(store.externalFiles() == [name])
        #expect(try Data(contentsOf: store.externalFolder.appendingPathComponent(name)) == large)

        let reopened = try store.container(photoModel())
        let images = try store.images(reopened)
        #expect(images["small"] == small)
        #expect(images["large"] == large)
        #expect(images["none"] == nil)
    }

    @Test("a row Apple wrote (marker byte, file reference) reads back as the plain value")
    func readsApplesForm() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        _ = insertPhoto("inline", Data([9]), into: container.viewContext)
        _ = insertPhoto("file", Data([9]), into: container.viewContext)
        try container.viewContext.save()
        // Rewrite the rows by hand the way Apple's framework leaves them.
        let name = "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"
        try FileManager.default.createDirectory(at: store.externalFolder, withIntermediateDirectories: true)
        try large.write(to: store.externalFolder.appendingPathComponent(name))
        let raw = try RawDatabase(store.url, readOnly: false)
        let hex = Data(name.utf8).map { String(format: "%02X", $0) }.joined()
        try raw.execute("UPDATE ZPHOTO SET ZIMAGE = X'01CAFE' WHERE ZTITLE = 'inline'")
        try raw.execute("UPDATE ZPHOTO SET ZIMAGE = X'02\(hex)00' WHERE ZTITLE = 'file'")

        let images = try store.images(try store.container(photoModel()))
        #expect(images["inline"] == Data([0xCA, 0xFE]))
        #expect(images["file"] == large)
    }

    @Test("replacing or deleting a large value removes its file once the save commits")
    func filesFollowTheRow() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        let context = container.viewContext
        let photo = insertPhoto("large", large, into: context)
        try context.save()
        let first = store.externalFiles()
        #expect(first.count == 1)

        photo.setValue(Data(large.reversed()), forKey: "image")
        try context.save()
        let second = store.externalFiles()
        #expect(second.count == 1 && second != first)

        photo.setValue(small, forKey: "image")
        try context.save()
        #expect(store.externalFiles().isEmpty)

        photo.setValue(large, forKey: "image")
        try context.save()
        #expect(store.externalFiles().count == 1)
        context.delete(photo)
        try context.save()
        #expect(store.externalFiles().isEmpty)
    }

    @Test("a save that fails leaves no file behind")
    func failedSave() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        let photo = insertPhoto("large", small, into: container.viewContext)
        try container.viewContext.save()
        // Another context changes the row first: the view context's save conflicts.
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let mine = try other.existingObject(with: photo.objectID)
            mine.setValue("renamed", forKey: "title")
            try other.save()
        }
        photo.setValue(large, forKey: "image")
        #expect(throws: NSError.self) { try container.viewContext.save() }
        #expect(store.externalFiles().isEmpty)
    }

    @Test("lightweight migration carries values, and marks them when the attribute starts allowing external storage")
    func migration() throws {
        let store = try PhotoStore()
        let v1 = try store.container(photoModel(external: false))
        _ = insertPhoto("small", small, into: v1.viewContext)
        _ = insertPhoto("large", large, into: v1.viewContext)
        try v1.viewContext.save()
        for s in v1.persistentStoreCoordinator.persistentStores { try v1.persistentStoreCoordinator.remove(s) }
        #expect(try store.columns()["small"] == small)

        // v2: the attribute allows external storage; existing values stay in their rows, marked.
        let v2 = try store.container(photoModel(external: true))
        #expect(try store.columns()["small"] == Data([0x01]) + small)
        #expect(try store.images(v2) == ["small": small, "large": large])
        _ = insertPhoto("new", large, into: v2.viewContext)
        try v2.viewContext.save()
        #expect(store.externalFiles().count == 1)
        for s in v2.persistentStoreCoordinator.persistentStores { try v2.persistentStoreCoordinator.remove(s) }

        // v3 adds an attribute: files and marked values are carried over as they are.
        let v3 = try store.container(photoModel(external: true, caption: true))
        #expect(try store.images(v3) == ["small": small, "large": large, "new": large])
        for s in v3.persistentStoreCoordinator.persistentStores { try v3.persistentStoreCoordinator.remove(s) }

        // v4 stops allowing external storage: the file's content moves into the row.
        let v4 = try store.container(photoModel(external: false, caption: true))
        #expect(try store.columns()["new"] == large)
        #expect(try store.images(v4) == ["small": small, "large": large, "new": large])
    }

    @Test("a store copied with replacePersistentStore keeps its external files")
    func replaceCopiesFiles() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        _ = insertPhoto("large", large, into: container.viewContext)
        try container.viewContext.save()
        let copy = store.folder.file("Copy.sqlite")
        try container.persistentStoreCoordinator.replacePersistentStore(
            at: copy, destinationOptions: nil, withPersistentStoreFrom: store.url, sourceOptions: nil, type: .sqlite)
        let other = PhotoContainer(name: "Copy", managedObjectModel: photoModel())
        other.persistentStoreDescriptions = [NSPersistentStoreDescription(url: copy)]
        var failure: Error?
        other.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        let context = other.viewContext
        let photos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo"))
        #expect(photos.first?.value(forKey: "image") as? Data == large)
    }

    @Test("NSBatchDeleteRequest removes the external files of the rows it deletes once it commits")
    func batchDeleteRemovesFiles() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        let context = container.viewContext
        let kept = large + Data([7])
        _ = insertPhoto("a", large, into: context)
        _ = insertPhoto("b", Data(large.reversed()), into: context)
        _ = insertPhoto("small", small, into: context)
        _ = insertPhoto("keep", kept, into: context)
        try context.save()
        #expect(store.externalFiles().count == 3)
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Photo")
        fetch.predicate = NSPredicate(format: "title != %@", "keep")
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeCount
        let result = try context.execute(request) as? NSBatchDeleteResult
        #expect(result?.result as? Int == 3)
        #expect(store.externalFiles().count == 1)
        #expect(try store.images(container) == ["keep": kept])
    }
}
