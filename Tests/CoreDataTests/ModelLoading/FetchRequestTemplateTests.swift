import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite struct FetchRequestTemplateTests {
    /// The test's model files.
    let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory() }

    func write(_ body: String) throws -> URL {
        let folder = temporary.file("template-\(UUID().uuidString)/T.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="quantity" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <fetchedProperty name="same" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="name == $FETCH_SOURCE.name"/>
                </fetchedProperty>
            </entity>
            \(body)
        </model>
        """
        try xml.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test("a template's predicateString is parsed and its variables are substituted")
    func substitution() throws {
        let url = try write(#"<fetchRequest name="ByName" entity="Item" predicateString="name == $NAME AND quantity &gt; 1"/>"#)
        let model = try NSManagedObjectModel.load(contentsOf: url)
        let template = try #require(model.fetchRequestTemplate(forName: "ByName"))
        #expect(template.predicate != nil)
        let request = try #require(model.fetchRequestFromTemplate(withName: "ByName", substitutionVariables: ["NAME": "Milk"]))
        let predicate = try #require(request.predicate)
        #expect(predicate.evaluate(with: ["name": "Milk", "quantity": 2]))
        #expect(!predicate.evaluate(with: ["name": "Tea", "quantity": 2]))
        let fetched = try #require(model.entitiesByName["Item"]?.propertiesByName["same"] as? NSFetchedPropertyDescription)
        #expect(fetched.fetchRequest?.predicate != nil)
    }

    @Test("a template whose predicate does not parse fails to load, naming the template")
    func badPredicate() throws {
        let url = try write(#"<fetchRequest name="Broken" entity="Item" predicateString="name == == 1"/>"#)
        let error = try #require(throws: NSError.self) { try NSManagedObjectModel.load(contentsOf: url) }
        #expect(error.localizedDescription.contains("Broken"))
    }
}
