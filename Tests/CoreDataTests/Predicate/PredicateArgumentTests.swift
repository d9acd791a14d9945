import CoreData
import CoreDataTestSupport
import Testing

/// `NSPredicate(format:)` with every kind of argument Apple code passes — managed objects,
/// object IDs, collections of them, strings, dates, data, UUIDs, URLs, numbers,
/// expressions and nil — as `CVarArg...` (with the casts Apple code writes) and through
/// `argumentArray:`, fetched from SQLite and in-memory stores alike.
@Suite struct PredicateArgumentTests {

    /// Three saved items on two lists, two tags, and a fresh context to fetch them in.
    struct Shop {
        let stack: TestStack
        let context: NSManagedObjectContext
        let soap, milk, bread: NSManagedObject
        let home, work: NSManagedObject
        let red, blue: NSManagedObject

        static let soapID = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
        static let milkID = UUID(uuidString: "00000000-0000-0000-0000-00000000000B")!
        static let start = Date(timeIntervalSinceReferenceDate: 700_000_000)

        init(storeType: String) throws {
            stack = try TestStack(storeType: storeType)
            let writer = stack.context
            let home = stack.insert("ShoppingList", ["title": "Home"])
            let work = stack.insert("ShoppingList", ["title": "Work"])
            let red = stack.insert("Tag", ["label": "red"])
            let blue = stack.insert("Tag", ["label": "blue"])
            let soap = stack.insert("ShoppingItem", [
                "name": "Soap", "quantity": 3, "purchased": true, "list": home,
                "identifier": Self.soapID, "addedAt": Self.start, "photo": Data([1, 2, 3]),
                "link": URL(string: "https://example.com/soap")!,
            ])
            soap.setValue(Set([red, blue]), forKey: "tags")
            let milk = stack.insert("ShoppingItem", [
                "name": "Milk", "quantity": 1, "purchased": false, "list": home,
                "identifier": Self.milkID, "addedAt": Self.start.addingTimeInterval(86_400),
                "photo": Data([9]), "link": URL(string: "https://example.com/milk")!,
            ])
            milk.setValue(Set([red]), forKey: "tags")
            _ = stack.insert("ShoppingItem", ["name": "Bread", "quantity": 2, "list": work])
            try writer.save()
            let reader = stack.newContext()
            context = reader
            self.home = try reader.existingObject(with: home.objectID)
            self.work = try reader.existingObject(with: work.objectID)
            self.red = try reader.existingObject(with: red.objectID)
            self.blue = try reader.existingObject(with: blue.objectID)
            self.soap = try reader.existingObject(with: soap.objectID)
            self.milk = try reader.existingObject(with: milk.objectID)
            bread = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
                .first { $0.value(forKey: "name") as? String == "Bread" }!
        }

        /// The names of the items `predicate` selects, sorted.
        func names(_ predicate: NSPredicate) throws -> [String] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
            request.predicate = predicate
            let fetched = try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
            // The same predicate evaluated in memory selects the same objects.
            let everything = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
            let evaluated = everything.filter { predicate.evaluate(with: $0) }
                .compactMap { $0.value(forKey: "name") as? String }
            #expect(fetched.sorted() == evaluated.sorted(), "\(predicate)")
            return fetched.sorted()
        }
    }

    @Test("managed objects and object IDs, alone and in arrays and sets", arguments: allStoreTypes)
    func objectsAndObjectIDs(storeType: String) throws {
        let shop = try Shop(storeType: storeType)
        #expect(try shop.names(NSPredicate(format: "list == %@", shop.home)) == ["Milk", "Soap"])
        #expect(try shop.names(NSPredicate(format: "list == %@", shop.home.objectID)) == ["Milk", "Soap"])
        #expect(try shop.names(NSPredicate(format: "list != %@", shop.home.objectID)) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "SELF == %@", shop.bread.objectID)) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "SELF IN %@", [shop.soap.objectID, shop.bread.objectID]))
            == ["Bread", "Soap"])
        #expect(try shop.names(NSPredicate(format: "SELF IN %@", Set([shop.milk.objectID]))) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "SELF IN %@", [shop.milk, shop.bread])) == ["Bread", "Milk"])
        #expect(try shop.names(NSPredicate(format: "list IN %@", NSSet(array: [shop.work]))) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "tags CONTAINS %@", shop.blue.objectID)) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "%@ IN tags", shop.red.objectID)) == ["Milk", "Soap"])
        #expect(try shop.names(NSPredicate(format: "ANY tags == %@", shop.red)) == ["Milk", "Soap"])
        #expect(try shop.names(NSPredicate(format: "list == %@", argumentArray: [shop.work.objectID])) == ["Bread"])
        // An object ID names its object in memory too.
        #expect(NSPredicate(format: "SELF == %@", shop.soap.objectID).evaluate(with: shop.soap))
        #expect(!NSPredicate(format: "SELF == %@", shop.soap.objectID).evaluate(with: shop.milk))
    }

    @Test("strings, string arrays and sets, numbers and NSNumbers", arguments: allStoreTypes)
    func valuesOfFoundationTypes(storeType: String) throws {
        let shop = try Shop(storeType: storeType)
        #expect(try shop.names(NSPredicate(format: "name IN %@", ["Soap", "Bread", "Cheese"])) == ["Bread", "Soap"])
        #expect(try shop.names(NSPredicate(format: "name IN %@", Set(["Milk"]))) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "NOT (name IN %@)", ["Soap"] as NSArray)) == ["Bread", "Milk"])
        #expect(try shop.names(NSPredicate(format: "%K == %@", "name", "Milk")) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "quantity > %@", NSNumber(value: 1))) == ["Bread", "Soap"])
        #expect(try shop.names(NSPredicate(format: "quantity BETWEEN %@", [2, 3])) == ["Bread", "Soap"])
        #expect(try shop.names(NSPredicate(format: "quantity == %d", 2)) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "purchased == %@", NSNumber(value: true))) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "purchased == %@", argumentArray: [false])) == ["Bread", "Milk"])
    }

    @Test("dates, data, UUIDs and URLs, passed as Apple code passes them", arguments: allStoreTypes)
    func valueTypes(storeType: String) throws {
        let shop = try Shop(storeType: storeType)
        let day = Shop.start.addingTimeInterval(3_600)
        #expect(try shop.names(NSPredicate(format: "addedAt > %@", day as NSDate)) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "addedAt < %@", day as CVarArg)) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "addedAt == %@", Shop.start)) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "photo == %@", Data([1, 2, 3]))) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "photo == %@", Data([9]) as NSData)) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "identifier == %@", Shop.milkID as CVarArg)) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "identifier == %@", Shop.soapID as NSUUID)) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "identifier IN %@", [Shop.soapID, Shop.milkID])) == ["Milk", "Soap"])
        let milkLink = URL(string: "https://example.com/milk")!
        #expect(try shop.names(NSPredicate(format: "link == %@", milkLink as CVarArg)) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "link == %@", milkLink as NSURL)) == ["Milk"])
        #expect(try shop.names(NSPredicate(format: "link != %@", argumentArray: [milkLink])) == ["Bread", "Soap"])
    }

    @Test("nil, NSNull, an empty Optional, and the TRUE/YES/FALSE/NO constants", arguments: allStoreTypes)
    func nilAndBooleans(storeType: String) throws {
        let shop = try Shop(storeType: storeType)
        let missing: Date? = nil
        #expect(try shop.names(NSPredicate(format: "addedAt == %@", argumentArray: [NSNull()])) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "addedAt == %@", argumentArray: [missing as Any])) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "addedAt != nil")) == ["Milk", "Soap"])
        #expect(try shop.names(NSPredicate(format: "purchased == YES")) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "purchased == TRUE")) == ["Soap"])
        #expect(try shop.names(NSPredicate(format: "purchased == NO")) == ["Bread", "Milk"])
        #expect(try shop.names(NSPredicate(format: "purchased == FALSE")) == ["Bread", "Milk"])
    }

    @Test("TRUE, YES, FALSE and NO are NSNumbers, as Apple's parser makes them")
    func booleanConstantsAreNumbers() throws {
        for (format, value) in [("a == TRUE", true), ("a == YES", true), ("a == FALSE", false), ("a == NO", false)] {
            let comparison = try #require(NSPredicate(format: format) as? CoreData.NSComparisonPredicate)
            let constant = try #require(comparison.rightExpression.constantValue as? NSNumber)
            #expect(constant == NSNumber(value: value))
            #expect(constant.boolValue == value)
            #expect(comparison.description == (value ? "a == 1" : "a == 0"))
        }
    }

    @Test("an NSExpression argument is used as the expression itself")
    func expressionArgument() throws {
        let shop = try Shop(storeType: NSSQLiteStoreType)
        let quantity = CoreData.NSExpression(forKeyPath: "quantity")
        #expect(try shop.names(NSPredicate(format: "%@ >= 2", quantity)) == ["Bread", "Soap"])
        #expect(try shop.names(NSPredicate(format: "%@ == %@", argumentArray: [quantity, 1])) == ["Milk"])
    }

    @Test("CVarArg... and argumentArray: build equal predicates")
    func bothSpellingsAgree() throws {
        let shop = try Shop(storeType: NSInMemoryStoreType)
        let day = Shop.start
        let pairs: [(NSPredicate, NSPredicate)] = [
            (NSPredicate(format: "list == %@ AND addedAt >= %@", shop.home, day as NSDate),
             NSPredicate(format: "list == %@ AND addedAt >= %@", argumentArray: [shop.home, day])),
            (NSPredicate(format: "identifier IN %@", [Shop.soapID]),
             NSPredicate(format: "identifier IN %@", argumentArray: [[Shop.soapID]])),
            (NSPredicate(format: "name == %@ OR quantity > %d", "Soap", 1),
             NSPredicate(format: "name == %@ OR quantity > %d", argumentArray: ["Soap", 1])),
        ]
        for (variadic, array) in pairs {
            #expect(variadic == array)
            #expect(try shop.names(variadic) == shop.names(array))
        }
    }

    @Test("plain Swift numbers and strings of each width bind as their values, through every conversion")
    func plainArguments() throws {
        func constant(_ predicate: NSPredicate) throws -> Any? {
            try #require(predicate as? NSComparisonPredicate).rightExpression.constantValue
        }
        // Numeric conversions make an Int or a Double, whatever the argument's width.
        #expect(try constant(NSPredicate(format: "a == %lld", Int64(-7))) as? Int == -7)
        #expect(try constant(NSPredicate(format: "a == %d", Int32(7))) as? Int == 7)
        #expect(try constant(NSPredicate(format: "a == %hd", Int16(-3))) as? Int == -3)
        #expect(try constant(NSPredicate(format: "a == %ld", 9)) as? Int == 9)
        #expect(try constant(NSPredicate(format: "a == %f", 2.5)) as? Double == 2.5)
        #expect(try constant(NSPredicate(format: "a == %d", argumentArray: [2.0])) as? Double == 2.0)
        // `%@` keeps the value as given; `%K` makes a key path of a string.
        #expect(try constant(NSPredicate(format: "a == %@", argumentArray: [Int64(5)])) as? Int64 == 5)
        #expect(try constant(NSPredicate(format: "a == %@", argumentArray: [Int16(5)])) as? Int16 == 5)
        #expect(try constant(NSPredicate(format: "a == %@", "x")) as? String == "x")
        #expect(try constant(NSPredicate(format: "a == %s", argumentArray: ["y"])) as? String == "y")
        let keyed = try #require(NSPredicate(format: "%K == %lld", "ident", Int64(3)) as? NSComparisonPredicate)
        #expect(keyed.leftExpression.keyPath == "ident")
        #expect(keyed.description == "ident == 3")
        // A string where a number is needed is still an error.
        #expect(throws: (any Error).self) { try NSPredicate(validatingFormat: "a == %d", argumentArray: ["x"]) }
        // And the values fetch what they name.
        let shop = try Shop(storeType: NSSQLiteStoreType)
        #expect(try shop.names(NSPredicate(format: "quantity == %lld", Int64(2))) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "quantity == %@", argumentArray: [Int32(2)])) == ["Bread"])
        #expect(try shop.names(NSPredicate(format: "name == %@", "Soap")) == ["Soap"])
    }
}
