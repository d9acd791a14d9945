import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// A colour an app stores in a transformable attribute, with secure coding.
final class PaletteColor: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let hex: String

    init(hex: String) {
        self.hex = hex
        super.init()
    }

    required init?(coder: NSCoder) {
        guard let hex = coder.decodeObject(of: NSString.self, forKey: "hex") as String? else { return nil }
        self.hex = hex
        super.init()
    }

    func encode(with coder: NSCoder) {
        coder.encode(hex as NSString, forKey: "hex")
    }
}

/// The transformer the model names for colours, written as Apple's documentation suggests:
/// a subclass that allows its own class. It counts which direction Core Data asks for.
final class PaletteColorTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    static let name = NSValueTransformerName(rawValue: "PaletteColorTransformer")
    nonisolated(unsafe) static var archived = 0
    nonisolated(unsafe) static var unarchived = 0

    override class var allowedTopLevelClasses: [AnyClass] { [PaletteColor.self] }

    override func transformedValue(_ value: Any?) -> Any? {
        Self.unarchived += 1
        return super.transformedValue(value)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        Self.archived += 1
        return super.reverseTransformedValue(value)
    }
}

/// A transformer that names the one class it transforms to, instead of listing classes.
final class TagListTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override class func transformedValueClass() -> AnyClass { NSArray.self }
}

/// A container on disk whose Swatch entity keeps a colour (PaletteColorTransformer) and a
/// list of tags (the built-in NSSecureUnarchiveFromData).
final class SwatchContainer: NSPersistentContainer, @unchecked Sendable {
    var folder: TemporaryDirectory?

    static func model() -> NSManagedObjectModel {
        let color = NSAttributeDescription()
        color.name = "color"
        color.attributeType = .transformableAttributeType
        color.valueTransformerName = PaletteColorTransformer.name.rawValue
        let tags = NSAttributeDescription()
        tags.name = "tags"
        tags.attributeType = .transformableAttributeType
        tags.valueTransformerName = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
        let swatch = NSEntityDescription()
        swatch.name = "Swatch"
        swatch.properties = [color, tags]
        let model = NSManagedObjectModel()
        model.entities = [swatch]
        return model
    }

    static func make(in folder: TemporaryDirectory) throws -> SwatchContainer {
        let container = SwatchContainer(name: "Swatches", managedObjectModel: model())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: folder.file("Swatches.sqlite"))]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        container.folder = folder
        return container
    }
}

@Suite(.serialized) struct SecureUnarchiveTransformerTests {
    @Test("transformedValue(_:) unarchives Data and reverseTransformedValue(_:) archives, as the name says")
    func directions() throws {
        let transformer = NSSecureUnarchiveFromDataTransformer()
        let data = try #require(transformer.reverseTransformedValue(["milk", "bread"]) as? Data)
        #expect(transformer.transformedValue(data) as? [String] == ["milk", "bread"])
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: data)
        #expect(unarchived as? [String] == ["milk", "bread"])
        #expect(transformer.transformedValue(["milk"]) == nil)
        #expect(transformer.transformedValue(nil) == nil)
        #expect(transformer.reverseTransformedValue(nil) == nil)
        #expect(NSSecureUnarchiveFromDataTransformer.allowsReverseTransformation())
    }

    @Test("allowedTopLevelClasses is Foundation's list, or the class transformedValueClass() names")
    func allowedClasses() throws {
        let defaults = NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses.map { ObjectIdentifier($0) }
        #expect(defaults.count == 10)
        #expect(defaults.contains(ObjectIdentifier(NSUUID.self)))
        #expect(defaults.contains(ObjectIdentifier(NSNull.self)))

        let named = TagListTransformer.allowedTopLevelClasses.map { ObjectIdentifier($0) }
        #expect(named == [ObjectIdentifier(NSArray.self)])
        let transformer = TagListTransformer()
        let tags = try #require(transformer.reverseTransformedValue(["a", "b"]) as? Data)
        #expect(transformer.transformedValue(tags) as? [String] == ["a", "b"])
        #expect(transformer.reverseTransformedValue(["key": "value"]) == nil)
        let dictionary = try #require(NSSecureUnarchiveFromDataTransformer().reverseTransformedValue(["key": "value"]) as? Data)
        #expect(transformer.transformedValue(dictionary) == nil)
    }

    @Test("a transformable attribute stores reverseTransformedValue(_:) of an unarchive transformer and reads with transformedValue(_:)")
    func attributeRoundTrip() throws {
        ValueTransformer.setValueTransformer(PaletteColorTransformer(), forName: PaletteColorTransformer.name)
        PaletteColorTransformer.archived = 0
        PaletteColorTransformer.unarchived = 0
        let folder = try TemporaryDirectory()
        do {
            let container = try SwatchContainer.make(in: folder)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let swatch = NSEntityDescription.insertNewObject(forEntityName: "Swatch", into: context)
                swatch.setValue(PaletteColor(hex: "#3366FF"), forKey: "color")
                swatch.setValue(["sky", "sea"], forKey: "tags")
                try context.save()
            }
        }
        #expect(PaletteColorTransformer.archived == 1)
        #expect(PaletteColorTransformer.unarchived == 0)

        let container = try SwatchContainer.make(in: folder)
        let context = container.newBackgroundContext()
        let (hex, tags) = try context.performAndWait {
            let swatch = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Swatch")).first)
            return ((swatch.value(forKey: "color") as? PaletteColor)?.hex, swatch.value(forKey: "tags") as? [String])
        }
        #expect(hex == "#3366FF")
        #expect(tags == ["sky", "sea"])
        #expect(PaletteColorTransformer.unarchived == 1)
    }
}
