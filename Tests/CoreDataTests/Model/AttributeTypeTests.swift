import CoreData
import CoreDataTestSupport
import Testing

/// `NSAttributeType` carries Apple's raw values, and `NSAttributeDescription.AttributeType`
/// (the struct spelling of iOS 15) wraps it, as on Apple.
@Suite struct AttributeTypeTests {

    static let spellings: [(NSAttributeDescription.AttributeType, NSAttributeType, UInt)] = [
        (.undefined, .undefinedAttributeType, 0), (.integer16, .integer16AttributeType, 100),
        (.integer32, .integer32AttributeType, 200), (.integer64, .integer64AttributeType, 300),
        (.decimal, .decimalAttributeType, 400), (.double, .doubleAttributeType, 500),
        (.float, .floatAttributeType, 600), (.string, .stringAttributeType, 700),
        (.boolean, .booleanAttributeType, 800), (.date, .dateAttributeType, 900),
        (.binaryData, .binaryDataAttributeType, 1000), (.uuid, .UUIDAttributeType, 1100),
        (.uri, .URIAttributeType, 1200), (.transformable, .transformableAttributeType, 1800),
        (.objectID, .objectIDAttributeType, 2000), (.composite, .compositeAttributeType, 2100),
    ]

    @Test("each AttributeType wraps the NSAttributeType of Apple's raw value")
    func rawValues() {
        for (type, attributeType, number) in Self.spellings {
            #expect(type.rawValue == attributeType)
            #expect(type.rawValue.rawValue == number)
            #expect(NSAttributeType(rawValue: number) == attributeType)
            #expect(NSAttributeDescription.AttributeType(rawValue: attributeType) == type)
        }
        #expect(NSAttributeType(rawValue: 150) == nil)
        #expect(Set(Self.spellings.map(\.0)).count == Self.spellings.count)
    }

    @Test("setting type sets attributeType, and the other way round")
    func typeAndAttributeTypeAgree() {
        let attribute = NSAttributeDescription()
        for (type, attributeType, _) in Self.spellings {
            attribute.type = type
            #expect(attribute.attributeType == attributeType)
            attribute.attributeType = attributeType
            #expect(attribute.type == type)
        }
    }

    @Test("a model written with the struct spelling saves and fetches its values")
    func modelInStructSpelling() throws {
        func attribute(_ name: String, _ type: NSAttributeDescription.AttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.type = type
            return attribute
        }
        let note = NSEntityDescription()
        note.name = "Note"
        note.properties = [attribute("title", .string), attribute("stars", .integer16),
                           attribute("written", .date), attribute("id", .uuid)]
        let model = NSManagedObjectModel()
        model.entities = [note]
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: model)
        let id = UUID()
        stack.insert("Note", ["title": "Hello", "stars": 3, "written": Date(timeIntervalSinceReferenceDate: 0), "id": id])
        try stack.context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.predicate = NSPredicate(format: "id == %@ AND stars == 3", id as CVarArg)
        let reader = stack.newContext()
        let fetched = try reader.fetch(request)
        #expect(fetched.first?.value(forKey: "title") as? String == "Hello")
        let stars = try #require(model.entitiesByName["Note"]?.attributesByName["stars"])
        #expect(stars.type == .integer16 && stars.attributeType.rawValue == 100)
    }
}
