import Foundation
import Testing
@_spi(CAPI) import CoreData
import CoreDataTestSupport

@Suite struct UnacceptableValueTests {
    @Test("setValue(_:forKey:) with a number for a string attribute stops at once, in Apple's words")
    func numberIntoString() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try MembersContainer.make()
            let item = ShoppingItem(context: container.viewContext)
            item.setValue(NSNumber(value: 5), forKey: "name")
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Unacceptable type of value for attribute: property = \"name\"; desired type = NSString; given type = "), "\(output)")
        #expect(output.contains("value = 5."), "\(output)")
    }

    @Test("setValue(_:forKey:) with a string for a number attribute stops at once, never later in a typed read")
    func stringIntoNumber() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try MembersContainer.make()
            let item = ShoppingItem(context: container.viewContext)
            item.setValue("many", forKey: "quantity")
            _ = item.quantity
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("property = \"quantity\"; desired type = NSNumber; given type = String; value = many."), "\(output)")
    }

    @Test("numbers of any kind fit number attributes; dates, UUIDs, URLs and data fit their own")
    func acceptedValues() throws {
        let container = try MembersContainer.make()
        let item = ShoppingItem(context: container.viewContext)
        item.setValue("Milk", forKey: "name")
        item.setValue(Int16(3), forKey: "quantity")
        #expect(item.quantity == 3)
        item.setValue(NSNumber(value: 4), forKey: "quantity")
        #expect(item.quantity == 4)
        item.setValue(2.5, forKey: "quantity")
        #expect(item.quantity == 2)
        item.setValue(1, forKey: "price")
        #expect(item.price == 1)
        item.setValue(NSNumber(value: true), forKey: "purchased")
        #expect(item.purchased)
        item.setValue(Decimal(string: "9.95"), forKey: "cost")
        item.setValue(NSNumber(value: 3), forKey: "cost")
        item.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "addedAt")
        item.setValue(UUID(), forKey: "identifier")
        item.setValue(URL(string: "https://example.com")!, forKey: "link")
        item.setValue(Data([1, 2]), forKey: "photo")
        item.setValue(NSNull(), forKey: "addedAt")
        #expect(item.value(forKey: "addedAt") == nil)
        try container.viewContext.save()
    }

    @Test("the throwing twin throws the same words and leaves the object as it was")
    func throwingTwin() throws {
        let container = try MembersContainer.make()
        let item = ShoppingItem(context: container.viewContext)
        item.name = "Milk"
        let error = try #require(throws: NSError.self) { try item.throwingSetValue(Date(), forKey: "name") }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.localizedDescription.hasPrefix("Unacceptable type of value for attribute: property = \"name\"; desired type = NSString; given type = Date"))
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
        #expect(item.name == "Milk")
    }
}
