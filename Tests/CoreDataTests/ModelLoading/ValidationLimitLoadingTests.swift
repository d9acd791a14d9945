import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

@Suite struct ValidationLimitLoadingTests {
    /// The test's model files.
    let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory() }

    func load(_ attribute: String) throws -> NSAttributeDescription {
        let folder = temporary.file("limits-\(UUID().uuidString)/L.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" userDefinedModelVersionIdentifier="">
            <entity name="E">\(attribute)</entity>
        </model>
        """
        try xml.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try NSManagedObjectModel.load(contentsOf: folder)
        return try #require(model.entitiesByName["E"]?.attributesByName["d"])
    }

    @Test("date limits come from the seconds Xcode writes, else from the editor's M/d/yyyy string")
    func dateLimits() throws {
        let both = try load(#"<attribute name="d" attributeType="Date" minDateTimeInterval="407847600" minValueString="12/4/2013"/>"#)
        #expect(both.minimumValue as? Date == Date(timeIntervalSinceReferenceDate: 407847600))
        let text = try load(#"<attribute name="d" attributeType="Date" maxValueString="12/5/2014"/>"#)
        let expected = Date(timeIntervalSince1970: 1_417_737_600) // 2014-12-05 00:00 UTC
        #expect(text.maximumValue as? Date == expected)
        #expect(throws: NSError.self) {
            _ = try load(#"<attribute name="d" attributeType="Date" maxValueString="soon"/>"#)
        }
    }
}
