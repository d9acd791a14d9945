import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model loading errors")
struct ModelLoadErrorTests {
    /// Loads `xml` as `Bad.xcdatamodel/contents` and returns the thrown error.
    private func loadError(_ xml: String) throws -> NSError {
        let temporary = try TemporaryDirectory()
        let folder = temporary.url
        let version = try ModelFiles.writeVersion("Bad", in: folder, contents: xml)
        #expect(NSManagedObjectModel(contentsOf: version) == nil)
        return try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: version) }
    }

    private func model(_ body: String) -> String {
        "<?xml version=\"1.0\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(body)\n</model>\n"
    }

    @Test("the legacy binary elements format is refused by name")
    func legacy() throws {
        let url = try Fixtures.model("magicalpanda_MagicalRecord__Recipes.xcdatamodeld_LEGACY_BINARY")
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: url) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("unsupported legacy model format"))
        #expect(error.localizedDescription.contains("Recipes.xcdatamodel"))
    }

    @Test("malformed XML names the file and the line")
    func malformed() throws {
        let error = try loadError("<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n")
        #expect(error.domain == NSCocoaErrorDomain && error.code == 259)
        #expect(error.localizedDescription.contains("Bad.xcdatamodel/contents"))
        #expect(error.localizedDescription.contains("malformed XML"))
        #expect(error.userInfo[NSFilePathErrorKey] as? String != nil)
    }

    @Test("a name that is not valid UTF-8 is refused with the line, not a crash in XMLParser (found by fuzzing)")
    func invalidUTF8() throws {
        let temporary = try TemporaryDirectory()
        let version = try ModelFiles.writeVersion("Bad", in: temporary.url, contents: "")
        let xml = model("<entity name=\"Item\">\n  <attribute name=\"na~me\" attributeType=\"String\"/></entity>")
        // A lone 0xC2 in place of the `~`: not UTF-8.
        let bytes = Data(xml.utf8.map { $0 == UInt8(ascii: "~") ? 0xC2 : $0 })
        try bytes.write(to: version.appendingPathComponent("contents"))
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: version) }
        #expect(error.domain == NSCocoaErrorDomain && error.code == 259)
        #expect(error.localizedDescription.contains("not valid UTF-8"), "\(error.localizedDescription)")
        #expect(error.localizedDescription.contains("line 4"), "\(error.localizedDescription)")
    }

    @Test("a file that is XML but not a model is refused")
    func notAModel() throws {
        let error = try loadError("<?xml version=\"1.0\"?><plist/>")
        #expect(error.localizedDescription.contains("<plist>"))
    }

    @Test("an unknown attributeType names the entity and the property")
    func unknownType() throws {
        let error = try loadError(model(#"<entity name="Item"><attribute name="price" attributeType="Money"/></entity>"#))
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.localizedDescription.contains("entity Item"))
        #expect(error.localizedDescription.contains("property price"))
        #expect(error.localizedDescription.contains("Money"))
        #expect(error.userInfo[ModelLoadError.entityKey] as? String == "Item")
        #expect(error.userInfo[ModelLoadError.propertyKey] as? String == "price")
    }

    @Test("a missing destination entity names the relationship")
    func missingDestination() throws {
        let error = try loadError(model(#"<entity name="Item"><relationship name="shop" maxCount="1" destinationEntity="Shop"/></entity>"#))
        #expect(error.localizedDescription.contains("entity Item, property shop"))
        #expect(error.localizedDescription.contains("Shop"))
    }

    @Test("a missing inverse names the relationship and the inverse")
    func missingInverse() throws {
        let error = try loadError(model("""
            <entity name="Item"><relationship name="shop" maxCount="1" destinationEntity="Shop" inverseName="items" inverseEntity="Shop"/></entity>
            <entity name="Shop"><attribute name="name" attributeType="String"/></entity>
            """))
        #expect(error.localizedDescription.contains("entity Item, property shop"))
        #expect(error.localizedDescription.contains("Shop.items"))
    }

    @Test("an inheritance cycle is refused with the cycle spelled out")
    func inheritanceCycle() throws {
        let error = try loadError(model("""
            <entity name="A" parentEntity="C"/>
            <entity name="B" parentEntity="A"/>
            <entity name="C" parentEntity="B"/>
            """))
        #expect(error.localizedDescription.contains("inheritance cycle"))
        #expect(error.localizedDescription.contains("A → C → B → A"))
    }

    @Test("an unknown parent entity is refused")
    func unknownParent() throws {
        let error = try loadError(model(#"<entity name="A" parentEntity="Ghost"/>"#))
        #expect(error.localizedDescription.contains("entity A"))
        #expect(error.localizedDescription.contains("Ghost"))
    }

    @Test("a missing contents file is a file error naming the path")
    func missingContents() throws {
        let temporary = try TemporaryDirectory()
        let folder = temporary.url
        let version = folder.appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: version) }
        #expect(error.code == 260)
        #expect(error.localizedDescription.contains("Empty.xcdatamodel/contents"))
    }

    @Test("bad default values, counts, delete rules and duplicates are errors, not traps")
    func otherBadInput() throws {
        #expect(try loadError(model(#"<entity name="A"><attribute name="n" attributeType="Integer 16" defaultValueString="70000"/></entity>"#))
            .localizedDescription.contains("defaultValueString"))
        #expect(try loadError(model(#"<entity name="A"><relationship name="r" destinationEntity="A" deletionRule="Explode"/></entity>"#))
            .localizedDescription.contains("Explode"))
        #expect(try loadError(model(#"<entity name="A"><relationship name="r" maxCount="-1" destinationEntity="A"/></entity>"#))
            .localizedDescription.contains("maxCount"))
        #expect(try loadError(model(#"<entity name="A"/><entity name="A"/>"#))
            .localizedDescription.contains("declared twice"))
        #expect(try loadError(model(#"<entity name="A"><attribute name="x" attributeType="String"/><attribute name="x" attributeType="String"/></entity>"#))
            .localizedDescription.contains("property x"))
        #expect(try loadError(model(#"<entity name="A"><attribute name="c" attributeType="Composite" composite="Nope"/></entity>"#))
            .localizedDescription.contains("Nope"))
        #expect(try loadError(model(#"<entity name="A"><attribute name="u" attributeType="Undefined"/></entity>"#))
            .localizedDescription.contains("Undefined"))
        #expect(try loadError(model(#"<fetchRequest name="F" entity="Ghost"/>"#))
            .localizedDescription.contains("Ghost"))
        #expect(try loadError(model(#"<entity name="A"/><configuration name="C"><memberEntity name="Ghost"/></configuration>"#))
            .localizedDescription.contains("Ghost"))
        #expect(try loadError(model(#"<entity name="P"><attribute name="x" attributeType="String"/></entity><entity name="Q" parentEntity="P"><attribute name="x" attributeType="String"/></entity>"#))
            .localizedDescription.contains("parent entity P"))
        #expect(try loadError("").code == 259)
    }
}
