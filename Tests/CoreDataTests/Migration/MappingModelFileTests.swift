import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// An `xcmapping.xml` as Xcode writes it (a Core Data XML store of Xcode's editing
/// objects) for Library → Library 2: AuthorToAuthor (no policy) and BookToBook (with
/// `bookPolicy`), every expression left to Xcode.
private func xcmappingXML(bookPolicy: String?, bookSource: String = "Book", bookFilter: String? = nil,
                          titleExpression: Data? = nil, pagesExpression: Data? = nil) -> String {
    func written(_ data: Data?) -> String {
        guard let data else { return "<attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>" }
        return "<attribute name=\"autogenerateexpression\" type=\"bool\">0</attribute>\n"
            + "            <attribute name=\"valueexpressiondata\" type=\"binary\">\(data.base64EncodedString())</attribute>"
    }
    var policy = bookPolicy.map { "\n        <attribute name=\"migrationpolicyclassname\" type=\"string\">\($0)</attribute>" } ?? ""
    if let bookFilter {
        policy += "\n        <attribute name=\"sourcefilterpredicatestring\" type=\"string\">\(bookFilter)</attribute>"
    }
    return """
        <?xml version="1.0" standalone="no"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>6C1D2A4E-1B7F-4C55-9E63-0A9B2F3D4E11</UUID>
                <nextObjectID>110</nextObjectID>
                <metadata>
                    <plist version="1.0">
                        <dict>
                            <key>NSPersistenceFrameworkVersion</key>
                            <integer>1338</integer>
                            <key>NSStoreModelVersionHashesVersion</key>
                            <integer>3</integer>
                            <key>NSStoreModelVersionIdentifiers</key>
                            <array><string></string></array>
                        </dict>
                    </plist>
                </metadata>
            </databaseInfo>
            <object type="XDDEVATTRIBUTEMAPPING" id="z102">
                <attribute name="name" type="string">name</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
            </object>
            <object type="XDDEVRELATIONSHIPMAPPING" id="z103">
                <attribute name="name" type="string">books</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z104"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z104">
                <attribute name="mappingnumber" type="int16">1</attribute>
                <attribute name="sourcename" type="string">Author</attribute>
                <attribute name="destinationname" type="string">Author</attribute>
                <attribute name="name" type="string">AuthorToAuthor</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>
                <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z101"></relationship>
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z102"></relationship>
                <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z103"></relationship>
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z105">
                <attribute name="name" type="string">title</attribute>
                \(written(titleExpression))
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z108"></relationship>
            </object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z106">
                <attribute name="name" type="string">pages</attribute>
                \(written(pagesExpression))
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z108"></relationship>
            </object>
            <object type="XDDEVRELATIONSHIPMAPPING" id="z107">
                <attribute name="name" type="string">author</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>
                <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING" idrefs="z108"></relationship>
            </object>
            <object type="XDDEVENTITYMAPPING" id="z108">
                <attribute name="mappingnumber" type="int16">2</attribute>
                <attribute name="sourcename" type="string">\(bookSource)</attribute>
                <attribute name="destinationname" type="string">Book</attribute>
                <attribute name="name" type="string">BookToBook</attribute>
                <attribute name="autogenerateexpression" type="bool">1</attribute>\(policy)
                <relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL" idrefs="z101"></relationship>
                <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z105 z106"></relationship>
                <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z107"></relationship>
            </object>
            <object type="XDDEVMAPPINGMODEL" id="z101">
                <attribute name="sourcemodelpath" type="string">Library.xcdatamodeld/Library.xcdatamodel</attribute>
                <attribute name="destinationmodelpath" type="string">Library.xcdatamodeld/Library 2.xcdatamodel</attribute>
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z108 z104"></relationship>
            </object>
        </database>
        """
}

@Suite struct MappingModelFileTests {
    let folder: TemporaryDirectory
    let v1: NSManagedObjectModel
    let v2: NSManagedObjectModel
    let store: URL

    init() throws {
        folder = try TemporaryDirectory()
        (v1, v2) = try MigrationFixtures.bundle("Library", in: folder, v1: MigrationFixtures.libraryV1,
                                                v2: MigrationFixtures.libraryV2)
        store = folder.file("Library.sqlite")
        try MigrationFixtures.makeStore(at: store, model: v1, MigrationFixtures.fillLibrary)
    }

    /// Writes `Library.xcmappingmodel/xcmapping.xml` beside the model bundle.
    @discardableResult
    func writeMappingModel(_ xml: String) throws -> URL {
        let url = folder.file("Library.xcmappingmodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try xml.write(to: url.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
        return url
    }

    /// A container on the v2 model (inference off unless `infer`), loading the v1 store.
    func loadContainer(infer: Bool = false) -> (NSPersistentContainer, NSError?) {
        let container = NSPersistentContainer(name: "Library", managedObjectModel: v2)
        let description = NSPersistentStoreDescription(url: store)
        description.shouldInferMappingModelAutomatically = infer
        container.persistentStoreDescriptions = [description]
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        return (container, loadError)
    }

    @Test("NSMappingModel(contentsOf:) reads an .xcmappingmodel: mappings in Xcode's order, policy names, Xcode's expressions")
    func loadsFile() throws {
        let url = try writeMappingModel(xcmappingXML(bookPolicy: "CoreDataTests.MigrationUppercasingPolicy"))
        let mapping = try #require(NSMappingModel(contentsOf: url))
        #expect(mapping.entityMappings.map(\.name) == ["AuthorToAuthor", "BookToBook"])
        let books = try #require(mapping.entityMappingsByName["BookToBook"])
        #expect(books.entityMigrationPolicyClassName == "CoreDataTests.MigrationUppercasingPolicy")
        #expect(books.mappingType == .customEntityMappingType)
        #expect(mapping.entityMappingsByName["AuthorToAuthor"]?.mappingType == .copyEntityMappingType)
        #expect(books.sourceEntityVersionHash == v1.entitiesByName["Book"]?.versionHash)
        #expect(books.destinationEntityVersionHash == v2.entitiesByName["Book"]?.versionHash)
        #expect(books.attributeMappings?.first { $0.name == "title" }?.valueExpression?.description == "$source.title")
        #expect(books.attributeMappings?.first { $0.name == "pages" }?.valueExpression == nil)
        #expect(books.relationshipMappings?.first?.valueExpression?.description.contains(
            "destinationInstancesForSourceRelationshipNamed:sourceInstances:") == true)
        #expect(books.sourceExpression?.description.contains("fetchRequestForSourceEntityNamed:predicateString:") == true)
    }

    @Test("NSMappingModel(from:forSourceModel:destinationModel:) finds a bundle's mapping model for its models only")
    func findsInBundle() throws {
        try writeMappingModel(xcmappingXML(bookPolicy: nil))
        let bundle = try #require(Bundle(url: folder.url))
        #expect(NSMappingModel(from: [bundle], forSourceModel: v1, destinationModel: v2) != nil)
        #expect(NSMappingModel(from: [bundle], forSourceModel: v2, destinationModel: v1) == nil)
    }

    @Test("a container with inference off migrates its store with the bundle's mapping model, keeping the store UUID and the app's metadata")
    func containerUsesMappingModel() throws {
        try writeMappingModel(xcmappingXML(bookPolicy: "CoreDataTests.MigrationUppercasingPolicy"))
        var before = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        let uuid = before[NSStoreUUIDKey] as? String
        before["com.example.lastSync"] = "2026-11-24"
        try NSPersistentStoreCoordinator.setMetadata(before, forPersistentStoreOfType: NSSQLiteStoreType, at: store)
        let (container, error) = loadContainer()
        #expect(error == nil)
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
        let migrated = try MigrationFixtures.contents(of: store, model: v2)
        #expect(migrated == [
            "Author name=Banks books->[EXCESSION]",
            "Author name=Le Guin books->[EARTHSEA,LATHE]",
            "Book pages=nil title=EARTHSEA author->[Le Guin]",
            "Book pages=nil title=EXCESSION author->[Banks]",
            "Book pages=nil title=LATHE author->[Le Guin]",
        ], "\(migrated)")
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(metadata["com.example.lastSync"] as? String == "2026-11-24")
        #expect(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("with inference on, a fitting mapping model file is still used first, as Apple looks for one before inferring")
    func mappingModelBeforeInference() throws {
        try writeMappingModel(xcmappingXML(bookPolicy: "CoreDataTests.MigrationUppercasingPolicy"))
        let (container, error) = loadContainer(infer: true)
        #expect(error == nil)
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
        #expect(try MigrationFixtures.contents(of: store, model: v2).filter { $0.hasPrefix("Book") } == [
            "Book pages=nil title=EARTHSEA author->[Le Guin]",
            "Book pages=nil title=EXCESSION author->[Banks]",
            "Book pages=nil title=LATHE author->[Le Guin]",
        ])
    }

    @Test("an entity mapping's filter predicate narrows the source objects it migrates")
    func filterPredicate() throws {
        let url = try writeMappingModel(xcmappingXML(bookPolicy: nil, bookFilter: "title BEGINSWITH 'E'"))
        let mapping = try #require(NSMappingModel(contentsOf: url))
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: store, type: .sqlite, mapping: mapping, to: folder.file("Out.sqlite"), type: .sqlite)
        #expect(try MigrationFixtures.contents(of: folder.file("Out.sqlite"), model: v2) == [
            "Author name=Banks books->[Excession]",
            "Author name=Le Guin books->[Earthsea]",
            "Book pages=nil title=Earthsea author->[Le Guin]",
            "Book pages=nil title=Excession author->[Banks]",
        ])
    }

    @Test("value expressions Xcode archived (FUNCTION on the policy, key paths, constants) are read and run")
    func archivedExpressions() throws {
        let shout = AppleExpressionArchive.function(
            AppleExpressionArchive.variable("entityPolicy"), "shout:",
            [AppleExpressionArchive.function(AppleExpressionArchive.variable("source"), "valueForKeyPath:",
                                             [AppleExpressionArchive.keyPathSpecifier("title")])])
        let url = try writeMappingModel(xcmappingXML(
            bookPolicy: "CoreDataTests.MigrationShoutingPolicy",
            titleExpression: AppleExpressionArchive.data(shout),
            pagesExpression: AppleExpressionArchive.data(AppleExpressionArchive.constant(NSNumber(value: 100)))))
        let mapping = try #require(NSMappingModel(contentsOf: url))
        let books = try #require(mapping.entityMappingsByName["BookToBook"])
        #expect(books.attributeMappings?.first { $0.name == "title" }?.valueExpression?.description
            == "FUNCTION($entityPolicy, shout: , $source.title)")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: store, type: .sqlite, mapping: mapping, to: folder.file("Out.sqlite"), type: .sqlite)
        #expect(try MigrationFixtures.contents(of: folder.file("Out.sqlite"), model: v2).filter { $0.hasPrefix("Book") } == [
            "Book pages=100 title=EARTHSEA! author->[Le Guin]",
            "Book pages=100 title=EXCESSION! author->[Banks]",
            "Book pages=100 title=LATHE! author->[Le Guin]",
        ])
        // An archive this reader doesn't know, written by hand: the file is refused.
        let unknown = try writeMappingModel(xcmappingXML(bookPolicy: nil, titleExpression: Data("junk".utf8)))
        #expect(NSMappingModel(contentsOf: unknown) == nil)
    }

    @Test("inference off and no mapping model: 134140, the store byte for byte as it was")
    func noMappingModel() throws {
        let bytes = fileBytes(store)
        let (_, error) = loadContainer()
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(fileBytes(store) == bytes)
    }

    @Test("a policy that throws fails the load with 134110 over the policy's error; the store stays byte for byte")
    func policyThrows() throws {
        try writeMappingModel(xcmappingXML(bookPolicy: "CoreDataTests.MigrationFailingPolicy"))
        let bytes = fileBytes(store)
        let (_, error) = loadContainer()
        #expect(error?.code == NSMigrationError)
        #expect((error?.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == 13)
        #expect(fileBytes(store) == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("migration") }
        #expect(leftovers.isEmpty)
    }

    @Test("a policy class that does not exist fails the load with 134170; the store stays byte for byte")
    func missingPolicy() throws {
        try writeMappingModel(xcmappingXML(bookPolicy: "CoreDataTests.NoSuchPolicy"))
        let bytes = fileBytes(store)
        let (_, error) = loadContainer()
        #expect(error?.code == NSEntityMigrationPolicyError)
        #expect(fileBytes(store) == bytes)
    }

    @Test("files that are not mapping models, or map entities the models lack, are refused")
    func badFiles() throws {
        let garbage = folder.file("Garbage.xcmappingmodel")
        try FileManager.default.createDirectory(at: garbage, withIntermediateDirectories: true)
        try Data("not xml <<<".utf8).write(to: garbage.appendingPathComponent("xcmapping.xml"))
        #expect(NSMappingModel(contentsOf: garbage) == nil)
        #expect(NSMappingModel(contentsOf: folder.file("Missing.xcmappingmodel")) == nil)
        #expect(NSMappingModel(contentsOf: nil) == nil)
        let wrong = try writeMappingModel(xcmappingXML(bookPolicy: nil, bookSource: "Magazine"))
        #expect(NSMappingModel(contentsOf: wrong) == nil)
        // A container skips it: inference off, nothing fits, 134140.
        let bytes = fileBytes(store)
        #expect(loadContainer().1?.code == NSMigrationMissingMappingModelError)
        #expect(fileBytes(store) == bytes)
    }
}

/// NSExpressions archived the way Apple's Foundation archives them (class names and keys
/// of Apple's archives), to write `valueexpressiondata` as Xcode does. (Top-level classes:
/// Foundation's archiver names classes by their top-level name.)
class AppleArchivedExpression: NSObject, NSCoding {
    override init() { super.init() }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {}
}

final class AppleArchivedConstant: AppleArchivedExpression {
    let value: Any
    init(_ value: Any) { self.value = value; super.init() }
    required init?(coder: NSCoder) { nil }
    override func encode(with coder: NSCoder) {
        coder.encode(0, forKey: "NSExpressionType")
        coder.encode(value, forKey: "NSConstantValue")
    }
}

final class AppleArchivedVariable: AppleArchivedExpression {
    let name: String
    init(_ name: String) { self.name = name; super.init() }
    required init?(coder: NSCoder) { nil }
    override func encode(with coder: NSCoder) {
        coder.encode(2, forKey: "NSExpressionType")
        coder.encode(name as NSString, forKey: "NSVariable")
    }
}

final class AppleArchivedKeyPathSpecifier: AppleArchivedExpression {
    let path: String
    init(_ path: String) { self.path = path; super.init() }
    required init?(coder: NSCoder) { nil }
    override func encode(with coder: NSCoder) {
        coder.encode(10, forKey: "NSExpressionType")
        coder.encode(path as NSString, forKey: "NSKeyPath")
    }
}

final class AppleArchivedFunction: AppleArchivedExpression {
    let operand: AppleArchivedExpression
    let selector: String
    let arguments: [AppleArchivedExpression]
    init(_ operand: AppleArchivedExpression, _ selector: String, _ arguments: [AppleArchivedExpression]) {
        self.operand = operand; self.selector = selector; self.arguments = arguments; super.init()
    }
    required init?(coder: NSCoder) { nil }
    override func encode(with coder: NSCoder) {
        coder.encode(4, forKey: "NSExpressionType")
        coder.encode(operand, forKey: "NSOperand")
        coder.encode(selector as NSString, forKey: "NSSelectorName")
        coder.encode(NSArray(array: arguments), forKey: "NSArguments")
    }
}

enum AppleExpressionArchive {
    static func constant(_ value: Any) -> AppleArchivedExpression { AppleArchivedConstant(value) }
    static func variable(_ name: String) -> AppleArchivedExpression { AppleArchivedVariable(name) }
    static func keyPathSpecifier(_ path: String) -> AppleArchivedExpression { AppleArchivedKeyPathSpecifier(path) }
    static func function(_ operand: AppleArchivedExpression, _ selector: String,
                         _ arguments: [AppleArchivedExpression]) -> AppleArchivedExpression {
        AppleArchivedFunction(operand, selector, arguments)
    }

    /// The keyed archive of `root`, with Apple's class names. (Foundation on Linux archives
    /// a class under its own name only, so the names are put in afterwards, in an XML
    /// archive; the unarchiver reads XML and binary archives alike.)
    static func data(_ root: AppleArchivedExpression) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        var text = String(decoding: archiver.encodedData, as: UTF8.self)
        for (ours, apple) in [("AppleArchivedConstant", "NSConstantValueExpression"),
                              ("AppleArchivedVariable", "NSVariableExpression"),
                              ("AppleArchivedKeyPathSpecifier", "NSKeyPathSpecifierExpression"),
                              ("AppleArchivedFunction", "NSFunctionExpression")] {
            text = text.replacingOccurrences(of: "CoreDataTests.\(ours)", with: apple)
        }
        return Data(text.utf8)
    }
}
