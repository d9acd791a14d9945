import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// `value(forKey:)` finds a property whatever the key string is made of: a literal, a string
/// built at run time, one bridged from `NSString`, a substring's copy, a long name.
@Suite struct KeyValueKeyTests {
    private static func model() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Gauge"
        var properties: [NSPropertyDescription] = []
        for (name, type) in [("a", NSAttributeType.integer64AttributeType), ("ab", .integer64AttributeType),
                             ("reading", .doubleAttributeType), ("label", .stringAttributeType),
                             ("measurementTakenAtTheNorthStation", .integer64AttributeType),
                             ("é", .integer64AttributeType)] {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            properties.append(attribute)
        }
        entity.properties = properties
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    @Test("keys of every make find their property; near misses do not", arguments: bothStoreTypes)
    func keys(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: Self.model())
        let context = stack.context
        try context.performAndWait {
            let gauge = stack.insert("Gauge", ["a": 1, "ab": 2, "reading": 0.5, "label": "north",
                                               "measurementTakenAtTheNorthStation": 42, "é": 9])
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Gauge")).first)
            #expect(fetched !== gauge)
            #expect(fetched.value(forKey: "a") as? Int == 1)
            #expect(fetched.value(forKey: String(repeating: "a", count: 1) + "b") as? Int == 2)
            #expect(fetched.value(forKey: String("xreadingx".dropFirst().dropLast())) as? Double == 0.5)
            #expect(fetched.value(forKey: NSString(string: "label") as String) as? String == "north")
            let long = ["measurement", "Taken", "At", "The", "North", "Station"].joined()
            #expect(fetched.value(forKey: long) as? Int == 42)
            #expect(fetched.value(forKey: "e\u{301}") as? Int == 9) // canonically equal to "é"
            #expect(fetched["é"] as? Int == 9)
            for miss in ["", "b", "abc", "A", "readin", "measurementTakenAtTheNorthStatio"] {
                #expect(throws: NSError.self) { try fetched.checkedValue(forKey: miss) }
            }
        }
    }
}
