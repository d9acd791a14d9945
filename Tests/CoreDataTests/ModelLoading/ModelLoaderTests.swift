import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite("Model loading from Xcode model files")
struct ModelLoaderTests {
    static let bundleNames: [String] = [
        "ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel",
        "JohnEstropia_CoreStore__Advanced.EvolutionDemo.xcdatamodeld",
        "JohnEstropia_CoreStore__Classic.ColorsDemo.xcdatamodeld",
        "JohnEstropia_CoreStore__CoreStoreTests_Model.xcdatamodeld",
        "RestKit_RestKit__VersionedModel.xcdatamodeld",
        "alemar11_CoreDataPlus__SampleModel.xcdatamodeld",
        "alemar11_CoreDataPlus__SampleModel3.xcdatamodeld",
        "magicalpanda_MagicalRecord__TestModel.xcdatamodeld",
        "objcio_core-data__Migrations_Moody.xcdatamodeld",
        "objcio_core-data__MoodyModel_Moody.xcdatamodeld",
        "objective-audio_CoreDataMigrationSample__Model.xcdatamodeld",
        "phimage_MomXML__Tests_Model.xcdatamodeld",
    ]

    @Test("every fixture bundle is covered here, the legacy one by the error test")
    func everyFixtureListed() throws {
        let names = try Fixtures.allModelBundles().map(\.lastPathComponent)
        #expect(Set(names) == Set(Self.bundleNames + ["magicalpanda_MagicalRecord__Recipes.xcdatamodeld_LEGACY_BINARY"]))
    }

    @Test("every version of every fixture bundle loads and matches the XML's entities, attributes and relationships",
          arguments: bundleNames)
    func loadsAndMatchesXML(_ name: String) throws {
        let url = try Fixtures.model(name)
        #expect(NSManagedObjectModel(contentsOf: url) != nil)
        let bundle = try ModelBundle.open(url)
        for (version, model) in try bundle.allModels() {
            let contents = try #require(bundle.url(forVersion: version)).appendingPathComponent("contents")
            let scanned = try ModelFiles.scan(contents: contents)
            #expect(Set(model.entitiesByName.keys) == Set(scanned.keys), "\(name)/\(version) entity names")
            #expect(model.entities.count == scanned.count)
            for (entityName, expected) in scanned {
                let entity = try #require(model.entitiesByName[entityName])
                let own = entity.properties.filter { $0.entity === entity }
                let attributes = own.filter { $0 is NSAttributeDescription }.map(\.name)
                let relationships = own.filter { $0 is NSRelationshipDescription }.map(\.name)
                let fetched = own.filter { $0 is NSFetchedPropertyDescription }.map(\.name)
                #expect(attributes == expected.attributes, "\(name)/\(version) \(entityName) attributes")
                #expect(relationships == expected.relationships, "\(name)/\(version) \(entityName) relationships")
                #expect(fetched == expected.fetchedProperties, "\(name)/\(version) \(entityName) fetched properties")
                for case let relationship as NSRelationshipDescription in own {
                    #expect(relationship.destinationEntity != nil, "\(entityName).\(relationship.name) destination")
                    if relationship.inverseRelationshipName != nil {
                        #expect(relationship.inverseRelationship?.name == relationship.inverseRelationshipName,
                                "\(entityName).\(relationship.name) inverse")
                    }
                }
            }
        }
    }

    @Test("the loaded model freezes, so a coordinator can use it", arguments: bundleNames)
    func freezes(_ name: String) throws {
        let model = try NSManagedObjectModel.load(contentsOf: Fixtures.model(name))
        try model.freeze()
        #expect(!model.isEditable)
    }

    @Test("entities: class names as written, abstract, parents, renaming identifiers, user info")
    func entityAttributes() throws {
        let plus = try NSManagedObjectModel.load(contentsOf: Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        #expect(plus.versionIdentifiers == ["1"])
        let expensive = try #require(plus.entitiesByName["ExpensiveSportCar"])
        #expect(expensive.superentity?.name == "SportCar")
        #expect(expensive.superentity?.superentity?.name == "Car")
        #expect(expensive.propertiesByName["numberPlate"] != nil)

        let v2 = try ModelBundle.open(Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld")).model(forVersion: "SampleModel2")
        #expect(v2.entitiesByName["LuxuryCar"]?.renamingIdentifier == "ExpensiveSportCar")
        let car = try #require(v2.entitiesByName["Car"])
        #expect(car.indexes.map(\.name) == ["byMakerAndNumberPlate"])
        #expect(car.indexes.first?.elements.compactMap(\.propertyName) == ["numberPlate", "maker"]
                    || car.indexes.first?.elements.compactMap(\.propertyName) == ["maker", "numberPlate"])
        #expect(car.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["numberPlate"]])

        let store = try NSManagedObjectModel.load(contentsOf: Fixtures.model("JohnEstropia_CoreStore__CoreStoreTests_Model.xcdatamodeld"))
        #expect(store.entitiesByName["TestEntity1AAA"]?.managedObjectClassName == ".TestEntity1")
        #expect(store.configurations == ["Config1", "Config2"])
        #expect(store.entities(forConfigurationName: "Config1")?.compactMap(\.name) == ["TestEntity1AAA"])
        #expect(store.entities(forConfigurationName: nil)?.count == store.entities.count)

        let moody = try NSManagedObjectModel.load(contentsOf: Fixtures.model("objcio_core-data__MoodyModel_Moody.xcdatamodeld"))
        #expect(moody.entities.contains { $0.managedObjectClassName.hasPrefix("MoodyModel.") })
        #expect(moody.entities.contains { $0.isAbstract })

        let magical = try NSManagedObjectModel.load(contentsOf: Fixtures.model("magicalpanda_MagicalRecord__TestModel.xcdatamodeld"))
        let withInfo = magical.entities.flatMap { [$0.userInfo] + $0.properties.map(\.userInfo) }.compactMap { $0 }
        #expect(withInfo.contains { $0["mappedKeyName"] != nil || $0["relatedByAttribute"] != nil })

        let moodyMigrations = try NSManagedObjectModel.load(contentsOf: Fixtures.model("objcio_core-data__Migrations_Moody.xcdatamodeld"))
        #expect(moodyMigrations.entities.contains { !$0.compoundIndexes.isEmpty })
    }

    @Test("attributes: types, optionality, typed default values, transformers, scalar flag")
    func attributes() throws {
        let editor = try NSManagedObjectModel.load(contentsOf: Fixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel"))
        let detail = try #require(editor.entitiesByName["PersonDetail"]?.attributesByName)
        #expect(detail["integer16Attribute"]?.attributeType == .integer16AttributeType)
        #expect(detail["integer16Attribute"]?.defaultValue as? Int16 == 0)
        #expect(detail["integer32Attribute"]?.defaultValue as? Int32 == 0)
        #expect(detail["integer64Attribute"]?.defaultValue as? Int64 == 0)
        #expect(detail["doubleAttribute"]?.defaultValue as? Double == 0)
        #expect(detail["floatAttribute"]?.defaultValue as? Float == 0)
        #expect(detail["decimalAttribute"]?.defaultValue as? Decimal == Decimal(0))
        #expect(detail["transformableAttribute"]?.attributeType == .transformableAttributeType)
        #expect(detail["binaryDataAttribute"]?.attributeType == .binaryDataAttributeType)
        #expect(detail["stringAttribute"]?.isOptional == true)
        #expect(editor.entitiesByName["Pet"]?.attributesByName["name"]?.isOptional == false)
        #expect(editor.entitiesByName["Strange"]?.attributesByName["transientAttribute"]?.isTransient == true)
        #expect(editor.entitiesByName["Strange"]?.attributesByName["customTransformableAttribute"]?.valueTransformerName == "FuckYouInTheAss")
        #expect(editor.entitiesByName["Person"]?.renamingIdentifier == "Journal")
        #expect(editor.entitiesByName["Person"]?.managedObjectClassName == "Journal_OLD")

        let plus = try NSManagedObjectModel.load(contentsOf: Fixtures.model("alemar11_CoreDataPlus__SampleModel.xcdatamodeld"))
        let car = try #require(plus.entitiesByName["Car"]?.attributesByName)
        #expect(car["color"]?.valueTransformerName == "ColorTransformer")
        #expect(car["color"]?.attributeValueClassName == "Color")
        #expect(car["currentDrivingSpeed"]?.usesScalarValueType == true)
        #expect(car["currentDrivingSpeed"]?.defaultValue as? Int64 == 0)
        let person = try #require(plus.entitiesByName["Person"]?.attributesByName)
        #expect(person["id"]?.attributeType == .UUIDAttributeType)
        #expect(person["id"]?.preservesValueInHistoryOnDeletion == true)
        #expect(person["isDriving"]?.defaultValue as? Bool == false)
        #expect((person["isDriving"]?.defaultValue as? NSNumber)?.boolValue == false)
    }

    @Test("validation limits land in the attribute's internal fields")
    func validationLimits() throws {
        let editor = try NSManagedObjectModel.load(contentsOf: Fixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel"))
        let test = try #require(editor.entitiesByName["ValidationTest"]?.attributesByName)
        #expect(test["integer16Attribute"]?.minimumValue as? Int64 == 10)
        #expect(test["integer16Attribute"]?.maximumValue as? Int64 == 1000)
        #expect(test["doubleAttribute"]?.maximumValue as? Double == 1000)
        #expect(test["decimalAttribute"]?.maximumValue as? Decimal == Decimal(100))
        #expect(test["email"]?.minimumValue as? Int == 3)
        #expect(test["email"]?.maximumValue as? Int == 1000)
        #expect(test["email"]?.regularExpression == #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"#)
        #expect(test["dateAttribute"]?.minimumValue as? Date == Date(timeIntervalSinceReferenceDate: 407847600))
        #expect(test["dateAttribute"]?.maximumValue as? Date == Date(timeIntervalSinceReferenceDate: 439470000))
    }

    @Test("relationships: to-one max 1, to-many max 0 unless given, min/max, ordered, delete rules, inverses")
    func relationships() throws {
        let editor = try NSManagedObjectModel.load(contentsOf: Fixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel"))
        let persons = try #require(editor.entitiesByName["ChildBOfAbstract"]?.relationshipsByName["persons"])
        #expect(persons.isToMany && persons.isOrdered)
        #expect(persons.minCount == 3 && persons.maxCount == 10)
        #expect(persons.deleteRule == .cascadeDeleteRule)
        #expect(persons.inverseRelationship?.name == "childB")
        #expect(persons.inverseRelationship?.inverseRelationship === persons)
        let members = try #require(editor.entitiesByName["Committee"]?.relationshipsByName["members"])
        #expect(members.isToMany && members.maxCount == 0 && !members.isOrdered)
        #expect(members.deleteRule == .nullifyDeleteRule)
        let owner = try #require(editor.entitiesByName["Pet"]?.relationshipsByName["owner"])
        #expect(!owner.isToMany && owner.maxCount == 1 && owner.minCount == 1)
        #expect(owner.destinationEntity?.name == "Person")
        #expect(editor.entitiesByName["UsedForAutoRepair"]?.relationshipsByName["childA"]?.isOptional == false)
    }

    @Test("fetched properties and model-level fetch request templates")
    func fetchRequests() throws {
        let colors = try NSManagedObjectModel.load(contentsOf: Fixtures.model("JohnEstropia_CoreStore__Classic.ColorsDemo.xcdatamodeld"))
        let palette = try #require(colors.entitiesByName["Palette"])
        let fetched = try #require(palette.propertiesByName["testFetchProperty"] as? NSFetchedPropertyDescription)
        #expect(fetched.fetchRequest?.entityName == "Palette")
        #expect(fetched.fetchRequest?.entity === palette)
        #expect(fetched.isOptional)

        let editor = try NSManagedObjectModel.load(contentsOf: Fixtures.model("ChristianKienle_Core-Data-Editor__iOS_Example.xcdatamodel"))
        let template = try #require(editor.fetchRequestTemplate(forName: "FetchRequest"))
        #expect(template.entityName == "Member")
        let copy = try #require(editor.fetchRequestFromTemplate(withName: "FetchRequest", substitutionVariables: [:]))
        #expect(copy !== template && copy.entityName == "Member")
        #expect(editor.fetchRequestFromTemplate(withName: "Nope", substitutionVariables: [:]) == nil)
    }

    @Test("composite attributes stay nested; their elements come from <composite>")
    func composites() throws {
        let model = try NSManagedObjectModel.load(contentsOf: Fixtures.model("phimage_MomXML__Tests_Model.xcdatamodeld"))
        let composite = try #require(model.entitiesByName["Produit"]?.attributesByName["attribute1"] as? NSCompositeAttributeDescription)
        #expect(composite.attributeType == .compositeAttributeType)
        #expect(composite.elements.map(\.name) == ["one", "two", "three"])
        let nested = try #require(composite.elements.last as? NSCompositeAttributeDescription)
        #expect(nested.elements.isEmpty)
        #expect(composite.versionHash.count == 32)
        #expect(model.entitiesByName["Produit"]?.attributesByName["attribute"]?.attributeValueClassName == "CustomClass")
        #expect(model.entitiesByName["Client"]?.userInfo?["key1"] as? String == "value")
    }

    @Test("a hand-written file with every attribute type, default values and a derived attribute")
    func everyType() throws {
        let temporary = try TemporaryDirectory()
        let folder = temporary.url
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
              <entity name="All" representedClassName=".All" versionHashModifier="v2">
                <attribute name="i16" attributeType="Integer 16" defaultValueString="-7"/>
                <attribute name="i32" attributeType="Integer 32" defaultValueString="70000"/>
                <attribute name="i64" attributeType="Integer 64" defaultValueString="9000000000"/>
                <attribute name="dec" attributeType="Decimal" defaultValueString="1.25"/>
                <attribute name="dbl" attributeType="Double" defaultValueString="2.5"/>
                <attribute name="flt" attributeType="Float" defaultValueString="0.5"/>
                <attribute name="str" attributeType="String" defaultValueString="hello"/>
                <attribute name="yes" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="date" attributeType="Date" defaultDateTimeInterval="631123200"/>
                <attribute name="bin" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="uuid" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
                <attribute name="uri" attributeType="URI" defaultValueString="https://example.com/a"/>
                <attribute name="tr" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                <attribute name="oid" optional="YES" attributeType="ObjectID"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                <attribute name="count" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="children.@count"/>
                <relationship name="children" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="All" inverseName="parent" inverseEntity="All"/>
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="All" inverseName="children" inverseEntity="All"/>
                <relationship name="twin" optional="YES" maxCount="1" destinationEntity="All" inverseName="twin" inverseEntity="All"/>
              </entity>
              <elements><element name="All" positionX="1" positionY="2" width="3" height="4"/></elements>
            </model>
            """
        let version = try ModelFiles.writeVersion("Types", in: folder, contents: xml)
        let model = try NSManagedObjectModel.load(contentsOf: version)
        #expect(model.versionIdentifiers.isEmpty)
        let all = try #require(model.entitiesByName["All"])
        #expect(all.managedObjectClassName == ".All")
        #expect(all.versionHashModifier == "v2")
        let a = all.attributesByName
        #expect(a["i16"]?.defaultValue as? Int16 == -7)
        #expect(a["i32"]?.defaultValue as? Int32 == 70000)
        #expect(a["i64"]?.defaultValue as? Int64 == 9_000_000_000)
        #expect(a["dec"]?.defaultValue as? Decimal == Decimal(string: "1.25"))
        #expect(a["dbl"]?.defaultValue as? Double == 2.5)
        #expect(a["flt"]?.defaultValue as? Float == 0.5)
        #expect(a["str"]?.defaultValue as? String == "hello")
        #expect(a["yes"]?.defaultValue as? Bool == true)
        #expect(a["date"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 631_123_200))
        #expect(a["bin"]?.allowsExternalBinaryDataStorage == true)
        #expect(a["uuid"]?.defaultValue as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(a["uri"]?.defaultValue as? URL == URL(string: "https://example.com/a"))
        #expect(a["uri"]?.attributeType == .URIAttributeType)
        #expect(a["oid"]?.attributeType == .objectIDAttributeType)
        #expect(a["scratch"]?.attributeType == .undefinedAttributeType)
        #expect(a["count"]?.derivationExpressionString == "children.@count")
        let r = all.relationshipsByName
        #expect(r["children"]?.deleteRule == .denyDeleteRule)
        #expect(r["parent"]?.deleteRule == .noActionDeleteRule)
        #expect(r["twin"]?.deleteRule == .nullifyDeleteRule)
        #expect(r["twin"]?.inverseRelationship === r["twin"])
        #expect(all.versionHash.count == 32)
    }
}

extension ModelLoaderTests {
    @Test("boolean words as numeric defaults load as 1 and 0, as the model compiler accepts them")
    func booleanWordsAsNumbers() throws {
        let folder = try TemporaryDirectory()
        let version = folder.url.appendingPathComponent("Words.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Flags" representedClassName="Flags" syncable="YES">
                <attribute name="archived" attributeType="Integer 32" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="pinned" attributeType="Integer 16" defaultValueString="YES" usesScalarValueType="YES"/>
                <attribute name="weight" attributeType="Double" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="big" attributeType="Integer 64" defaultValueString="YES" usesScalarValueType="YES"/>
            </entity>
        </model>
        """.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try NSManagedObjectModel.load(contentsOf: version)
        let attributes = try #require(model.entitiesByName["Flags"]?.attributesByName)
        #expect(attributes["archived"]?.defaultValue as? Int32 == 0)
        #expect(attributes["pinned"]?.defaultValue as? Int16 == 1)
        #expect(attributes["weight"]?.defaultValue as? Double == 0)
        #expect(attributes["big"]?.defaultValue as? Int64 == 1)
    }
}
