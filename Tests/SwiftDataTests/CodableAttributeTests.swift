import CoreData
import CoreDataTestSupport
import Foundation
@testable import SwiftData
import Testing

// `Codable` value types and enums as attributes, as SwiftData users declare them.

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var postcode: Int?
}

enum Transport: Codable, Equatable {
    case car(seats: Int)
    case train(line: String)
    case walk
}

enum Priority: Int, Codable {
    case low = 1
    case high = 3
}

@Model
final class Venue {
    var name: String
    var address: Address
    var alternate: Address?
    var transport: Transport = Transport.walk
    var priority: Priority = Priority.low
    var tags: [String] = []
    var opening: Set<Int> = []

    init(name: String, address: Address) {
        self.name = name
        self.address = address
    }
}

@Suite struct CodableAttributeTests {
    private let lyon = Address(street: "1 quai Claude Bernard", city: "Lyon", postcode: 69007)
    private let porto = Address(street: "Rua das Flores 12", city: "Porto", postcode: nil)

    /// Venues saved in a store file; returns the file.
    private func savedVenues(_ folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("Venues.store")
        let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
        let hall = Venue(name: "Hall", address: lyon)
        hall.transport = .train(line: "T1")
        hall.priority = .high
        hall.tags = ["music", "large"]
        hall.opening = [18, 19, 20]
        let cafe = Venue(name: "Café", address: porto)
        cafe.alternate = lyon
        cafe.transport = .car(seats: 4)
        context.insert(hall)
        context.insert(cafe)
        context.insert(Venue(name: "Park", address: Address(street: "", city: "Lyon")))
        try context.save()
        return url
    }

    @Test("Codable structs, enums with associated values, arrays and sets round-trip through the store equal")
    func roundTrip() throws {
        let folder = try TemporaryDirectory()
        let url = try savedVenues(folder)
        let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
        let venues = try context.fetch(FetchDescriptor<Venue>(sortBy: [SortDescriptor(\.name)]))
        #expect(venues.map(\.name) == ["Café", "Hall", "Park"])
        let (cafe, hall, park) = (venues[0], venues[1], venues[2])
        #expect(hall.address == lyon)
        #expect(hall.alternate == nil)
        #expect(hall.transport == .train(line: "T1"))
        #expect(hall.priority == .high)
        #expect(hall.tags == ["music", "large"])
        #expect(hall.opening == [18, 19, 20])
        #expect(cafe.address == porto)
        #expect(cafe.alternate == lyon)
        #expect(cafe.transport == .car(seats: 4))
        #expect(park.transport == .walk)
        #expect(park.priority == .low)
        #expect(park.tags.isEmpty)

        // A change to a Codable value is a change like any other.
        park.address.postcode = 69001
        #expect(context.hasChanges)
        try context.save()
        let again = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
        let fetched = try again.fetch(FetchDescriptor<Venue>(predicate: #Predicate { $0.name == "Park" }))
        #expect(fetched.first?.address.postcode == 69001)
    }

    @Test("A Codable value is one binary column holding its JSON; an enum with a raw value stores the raw value")
    func storedForm() throws {
        let folder = try TemporaryDirectory()
        let url = try savedVenues(folder)
        let container = try ModelContainer(for: Venue.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let entity = try #require(container.persistentContainer.managedObjectModel.entitiesByName["Venue"])
        #expect(entity.attributesByName["address"]?.attributeType == .binaryDataAttributeType)
        #expect(entity.attributesByName["alternate"]?.isOptional == true)
        #expect(entity.attributesByName["transport"]?.attributeType == .binaryDataAttributeType)
        #expect(entity.attributesByName["priority"]?.attributeType == .integer64AttributeType)

        let raw = try RawDatabase(url)
        let row = try #require(try raw.rows("SELECT ZADDRESS, ZPRIORITY, ZTAGS FROM ZVENUE WHERE ZNAME = 'Hall'").first)
        let address = try #require(row[0] as? Data)
        #expect(try JSONDecoder().decode(Address.self, from: address) == lyon)
        #expect(String(decoding: address, as: UTF8.self).hasPrefix("{\"city\":\"Lyon\""))
        #expect(row[1] as? Int64 == 3)
        #expect(try JSONDecoder().decode([String].self, from: try #require(row[2] as? Data)) == ["music", "large"])
    }

    @Test("#Predicate over Codable values is answered in memory, with the right models")
    func predicates() throws {
        let folder = try TemporaryDirectory()
        let url = try savedVenues(folder)
        let context = ModelContext(try ModelContainer(for: Venue.self, configurations: ModelConfiguration(url: url)))
        func names(_ predicate: Predicate<Venue>) throws -> [String] {
            try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        let lyon = self.lyon
        let highest = Priority.high
        let inLyon = #Predicate<Venue> { $0.address.city == "Lyon" }
        let whole = #Predicate<Venue> { $0.address == lyon }
        let tagged = #Predicate<Venue> { $0.tags.contains("music") }
        let high = #Predicate<Venue> { $0.priority == highest }
        #expect(try names(inLyon) == ["Hall", "Park"])
        #expect(try names(whole) == ["Hall"])
        #expect(try names(tagged) == ["Hall"])
        #expect(try names(high) == ["Hall"])
        #expect(FetchPlan(FetchDescriptor(predicate: inLyon), in: context).inMemory)
        #expect(FetchPlan(FetchDescriptor(predicate: whole), in: context).inMemory)
        // An enum with a raw value compares its raw value in SQL.
        #expect(!FetchPlan(FetchDescriptor(predicate: high), in: context).inMemory)
        #expect(try context.fetchCount(FetchDescriptor(predicate: inLyon)) == 2)
    }
}
