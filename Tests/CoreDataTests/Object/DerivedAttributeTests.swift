import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

private enum DerivedModel {
    static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, derived: CoreData.NSExpression? = nil) -> NSAttributeDescription {
            let attribute = derived == nil ? NSAttributeDescription() : NSDerivedAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            (attribute as? NSDerivedAttributeDescription)?.derivationExpression = derived
            return attribute
        }
        let list = NSEntityDescription()
        list.name = "List"
        let item = NSEntityDescription()
        item.name = "Item"
        let items = NSRelationshipDescription()
        items.name = "items"; items.destinationEntity = item; items.maxCount = 0
        let owner = NSRelationshipDescription()
        owner.name = "list"; owner.destinationEntity = list; owner.maxCount = 1
        items.inverseRelationship = owner; owner.inverseRelationship = items
        list.properties = [
            attribute("title", .stringAttributeType),
            attribute("titleCopy", .stringAttributeType, derived: NSExpression(format: "title")),
            attribute("lowerTitle", .stringAttributeType, derived: NSExpression(format: "lowercase(title)")),
            attribute("upperTitle", .stringAttributeType, derived: NSExpression(forFunction: "uppercase:", arguments: [NSExpression(forKeyPath: "title")])),
            attribute("searchTitle", .stringAttributeType, derived: NSExpression(forFunction: "canonical:", arguments: [NSExpression(forKeyPath: "title")])),
            attribute("itemCount", .integer64AttributeType, derived: NSExpression(format: "items.@count")),
            attribute("total", .doubleAttributeType, derived: NSExpression(format: "items.@sum.price")),
            attribute("modified", .dateAttributeType, derived: NSExpression(format: "now()")),
            items,
        ]
        item.properties = [attribute("price", .doubleAttributeType), owner]
        let model = NSManagedObjectModel()
        model.entities = [list, item]
        return model
    }
}

@Suite struct DerivedAttributeTests {
    @Test("derived attributes are computed on save and stored", arguments: allStoreTypes)
    func computedOnSave(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: DerivedModel.make())
        let list = stack.insert("List", ["title": "Crème Brûlée"])
        for price in [1.5, 2.5] { stack.insert("Item", ["price": price]).setValue(list, forKey: "list") }
        #expect(list.value(forKey: "itemCount") == nil)
        let before = Date()
        try stack.context.save()
        #expect(list.value(forKey: "titleCopy") as? String == "Crème Brûlée")
        #expect(list.value(forKey: "lowerTitle") as? String == "crème brûlée")
        #expect(list.value(forKey: "upperTitle") as? String == "CRÈME BRÛLÉE")
        #expect(list.value(forKey: "searchTitle") as? String == "creme brulee")
        #expect((list.value(forKey: "itemCount") as? NSNumber)?.intValue == 2)
        #expect((list.value(forKey: "total") as? NSNumber)?.doubleValue == 4.0)
        let modified = try #require(list.value(forKey: "modified") as? Date)
        #expect(modified >= before.addingTimeInterval(-1))
        // A member's change updates the owner's aggregate at the next save.
        stack.insert("Item", ["price": 6.0]).setValue(list, forKey: "list")
        try stack.context.save()
        let other = stack.newContext()
        let copy = try other.existingObject(with: list.objectID)
        #expect((copy.value(forKey: "itemCount") as? NSNumber)?.intValue == 3)
        #expect((copy.value(forKey: "total") as? NSNumber)?.doubleValue == 10.0)
    }
}

@Suite struct DerivedAttributeDescriptionTests {
    @Test("a model file's derived attribute is an NSDerivedAttributeDescription that derives as one built in code")
    func fileAndCodeDeriveAlike() throws {
        let folder = try TemporaryDirectory()
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22A380" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
              <entity name="Person" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="searchName" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
              </entity>
            </model>
            """
        let version = try ModelFiles.writeVersion("People", in: folder.url, contents: xml)
        let fromFile = try #require(NSManagedObjectModel(contentsOf: version))
        let loaded = try #require(fromFile.entitiesByName["Person"]?.attributesByName["searchName"] as? NSDerivedAttributeDescription)
        #expect(loaded.derivationExpression?.function == "canonical:")

        let searchName = NSDerivedAttributeDescription()
        searchName.name = "searchName"
        searchName.attributeType = .stringAttributeType
        searchName.derivationExpression = NSExpression(forFunction: "canonical:", arguments: [NSExpression(forKeyPath: "name")])
        let inCode = NSManagedObjectModel()
        inCode.entities = [entity("Person", [attribute("name", .stringAttributeType), searchName])]
        #expect(inCode.entityVersionHashesByName == fromFile.entityVersionHashesByName)

        for model in [fromFile, inCode] {
            let stack = try TestStack(storeType: NSSQLiteStoreType, model: model)
            let person = stack.insert("Person", ["name": "Zoë Ünal"])
            try stack.context.save()
            #expect(person.value(forKey: "searchName") as? String == "zoe unal")
        }
    }
}
