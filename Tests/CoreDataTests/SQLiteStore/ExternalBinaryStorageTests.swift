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

    @Test("NSBatchUpdateRequest replacing large values removes their files once it commits")
    func batchUpdateRemovesReplacedFiles() throws {
        let store = try PhotoStore()
        let container = try store.container(photoModel())
        let context = container.viewContext
        _ = insertPhoto("a", large, into: context)
        _ = insertPhoto("keep", Data(large.reversed()), into: context)
        try context.save()
        #expect(store.externalFiles().count == 2)
        let request = NSBatchUpdateRequest(entityName: "Photo")
        request.predicate = NSPredicate(format: "title == %@", "a")
        request.propertiesToUpdate = ["image": small]
        _ = try context.execute(request)
        #expect(store.externalFiles().count == 1)
        #expect(try store.images(container) == ["a": small, "keep": Data(large.reversed())])
    }

    @Test("a migration renaming the entity and the attribute carries the files; one dropping the attribute removes them")
    func migrationCarriesAndDropsFiles() throws {
        let store = try PhotoStore()
        let v1 = try store.container(photoModel())
        _ = insertPhoto("small", small, into: v1.viewContext)
        _ = insertPhoto("large", large, into: v1.viewContext)
        try v1.viewContext.save()
        for s in v1.persistentStoreCoordinator.persistentStores { try v1.persistentStoreCoordinator.remove(s) }
        let files = store.externalFiles()
        #expect(files.count == 1)

        // v2: Photo → Picture, image → pixels (renaming identifiers).
        let pixels = attribute("pixels", .binaryDataAttributeType)
        pixels.allowsExternalBinaryDataStorage = true
        pixels.renamingIdentifier = "image"
        let picture = entity("Picture", [attribute("title", .stringAttributeType), pixels])
        picture.renamingIdentifier = "Photo"
        let model2 = NSManagedObjectModel()
        model2.entities = [picture]
        let v2 = try store.container(model2)
        #expect(store.externalFiles() == files)
        let context = v2.newBackgroundContext()
        let values = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Picture")).reduce(into: [String: Data]()) {
                $0[$1.value(forKey: "title") as! String] = $1.value(forKey: "pixels") as? Data
            }
        }
        #expect(values == ["small": small, "large": large])
        for s in v2.persistentStoreCoordinator.persistentStores { try v2.persistentStoreCoordinator.remove(s) }

        // v3 drops the attribute: no row names the file any more, so it goes.
        let model3 = NSManagedObjectModel()
        let bare = entity("Picture", [attribute("title", .stringAttributeType)])
        model3.entities = [bare]
        _ = try store.container(model3)
        #expect(store.externalFiles().isEmpty)
    }

    @Test("a migration with a mapping model file keeps large values: their new files join the store's, the old ones go")
    func mappingModelMigrationCarriesFiles() throws {
        let folder = try TemporaryDirectory()
        let body = """
            <entity name="Photo"><attribute name="title" attributeType="String"/>
              <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>%@</entity>
            """
        let (v1, v2) = try MigrationFixtures.bundle(
            "Photos", in: folder, v1: String(format: body, ""),
            v2: String(format: body, #"<attribute name="caption" optional="YES" attributeType="String"/>"#))
        let mapping = folder.file("Photos.xcmappingmodel")
        try FileManager.default.createDirectory(at: mapping, withIntermediateDirectories: true)
        try photoMappingXML.write(to: mapping.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        let url = folder.file("Photos.sqlite")
        try MigrationFixtures.makeStore(at: url, model: v1) { context in
            _ = insertPhoto("small", small, into: context)
            _ = insertPhoto("large", large, into: context)
        }
        let external = folder.file(".Photos_SUPPORT/_EXTERNAL_DATA")
        let before = try FileManager.default.contentsOfDirectory(atPath: external.path)
        #expect(before.count == 1)
        let container = PhotoContainer(name: "Photos", managedObjectModel: v2)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let after = try FileManager.default.contentsOfDirectory(atPath: external.path)
        #expect(after.count == 1 && after != before)
        let context = container.newBackgroundContext()
        let values = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Photo")).reduce(into: [String: Data]()) {
                $0[$1.value(forKey: "title") as! String] = $1.value(forKey: "image") as? Data
            }
        }
        #expect(values == ["small": small, "large": large])
        let strays = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("migration") }
        #expect(strays.isEmpty)
    }
}

/// `Photos.xcmappingmodel` as Xcode writes it for Photos → Photos 2: PhotoToPhoto, every
/// expression left to Xcode.
private let photoMappingXML = """
    <?xml version="1.0" standalone="no"?>
    <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

    <database>
        <databaseInfo>
            <version>134481920</version>
            <UUID>0E3B8F8A-5D1C-4C2B-8E0A-3F4D5A6B7C81</UUID>
            <nextObjectID>106</nextObjectID>
            <metadata>
                <plist version="1.0">
                    <dict>
                        <key>NSPersistenceFrameworkVersion</key>
                        <integer>1338</integer>
                        <key>NSStoreModelVersionHashesVersion</key>
                        <integer>3</integer>
                    </dict>
                </plist>
            </metadata>
        </databaseInfo>
        <object type="XDDEVATTRIBUTEMAPPING" id="z102">
            <attribute name="name" type="string">title</attribute>
            <attribute name="autogenerateexpression" type="bool">1</attribute>
            <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
        </object>
        <object type="XDDEVATTRIBUTEMAPPING" id="z103">
            <attribute name="name" type="string">image</attribute>
            <attribute name="autogenerateexpression" type="bool">1</attribute>
            <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
        </object>
        <object type="XDDEVATTRIBUTEMAPPING" id="z105">
            <attribute name="name" type="string">caption</attribute>
            <attribute name="autogenerateexpression" type="bool">1</attribute>
            <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
        </object>
        <object type="XDDEVENTITYMAPPING" id="z104">
            <attribute name="mappingnumber" type="int16">1</attribute>
            <attribute name="sourcename" type="string">Photo</attribute>
            <attribute name="destinationname" type="string">Photo</attribute>
            <attribute name="name" type="string">PhotoToPhoto</attribute>
            <attribute name="autogenerateexpression" type="bool">1</attribute>
            <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z101"></relationship>
            <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z102 z103 z105"></relationship>
        </object>
        <object type="XDDEVMAPPINGMODEL" id="z101">
            <attribute name="sourcemodelpath" type="string">Photos.xcdatamodeld/Photos.xcdatamodel</attribute>
            <attribute name="destinationmodelpath" type="string">Photos.xcdatamodeld/Photos 2.xcdatamodel</attribute>
            <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
        </object>
    </database>
    """
