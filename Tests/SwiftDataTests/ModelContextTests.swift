import CoreDataTestSupport
import Foundation
import SwiftData
import Testing

@Suite struct ModelContextTests {
    private func inMemory() throws -> ModelContainer {
        try ModelContainer(for: Trip.self, Photo.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    @Test("Inserted models save to a store file and come back in a new container with every value")
    func roundTripOnDisk() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let photoID = UUID()
        do {
            let container = try ModelContainer(for: Trip.self, Photo.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            let trip = Trip(name: "Alps", destination: "Chamonix", startDate: start)
            trip.budget = 1250.5
            trip.isFavorite = true
            trip.rating = 4
            trip.kind = .family
            trip.viewCount = 9
            context.insert(trip)
            let photo = Photo(identifier: photoID)
            photo.data = Data([1, 2, 3])
            photo.link = URL(string: "https://example.com/a.jpg")
            photo.size = 300
            photo.ratio = 1.5
            context.insert(photo)
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
        }
        let container = try ModelContainer(for: Trip.self, Photo.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        let trip = try #require(trips.first)
        #expect(trips.count == 1)
        #expect(trip.name == "Alps")
        #expect(trip.destination == "Chamonix")
        #expect(trip.startDate == start)
        #expect(trip.budget == 1250.5)
        #expect(trip.isFavorite)
        #expect(trip.notes == nil)
        #expect(trip.rating == 4)
        #expect(trip.kind == .family)
        #expect(trip.viewCount == 0)
        let photo = try #require(try context.fetch(FetchDescriptor<Photo>()).first)
        #expect(photo.identifier == photoID)
        #expect(photo.data == Data([1, 2, 3]))
        #expect(photo.link == URL(string: "https://example.com/a.jpg"))
        #expect(photo.size == 300)
        #expect(photo.ratio == 1.5)
        #expect(photo.title == "")
    }

    @Test("A fetch returns the same instance the context already holds")
    func uniquing() throws {
        let context = ModelContext(try inMemory())
        let trip = Trip(name: "Rome", destination: "Rome")
        context.insert(trip)
        try context.save()
        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(fetched.count == 1)
        #expect(fetched[0] === trip)
        #expect(trip.modelContext === context)
    }

    @Test("Relationships: setting one side sets the inverse; related models are inserted with the model")
    func relationships() throws {
        let context = ModelContext(try inMemory())
        let trip = Trip(name: "Coast", destination: "Porto")
        let first = Stop(title: "Harbour", position: 1)
        trip.stops = [first]
        trip.city = City(code: "OPO", name: "Porto")
        context.insert(trip)
        #expect(first.trip === trip)
        #expect(first.modelContext === context)
        #expect(trip.city?.trips.map(\.name) == ["Coast"])
        let second = Stop(title: "Bridge", position: 2)
        second.trip = trip
        #expect(Set(trip.stops.map(\.title)) == ["Harbour", "Bridge"])
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Stop>()) == 2)
    }

    @Test("Deleting a model applies its delete rules: stops cascade, the city stays")
    func deleteRules() throws {
        let context = ModelContext(try inMemory())
        let trip = Trip(name: "Coast", destination: "Porto")
        trip.stops = [Stop(title: "A", position: 1), Stop(title: "B", position: 2)]
        let city = City(code: "OPO", name: "Porto")
        trip.city = city
        context.insert(trip)
        try context.save()
        context.delete(trip)
        #expect(trip.isDeleted)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<Stop>()) == 0)
        #expect(try context.fetchCount(FetchDescriptor<City>()) == 1)
        #expect(city.trips.isEmpty)
    }

    @Test("delete(model:where:) deletes the matching models only")
    func deleteWhere() throws {
        let context = ModelContext(try inMemory())
        for (index, name) in ["A", "B", "C", "D"].enumerated() {
            let trip = Trip(name: name, destination: "X")
            trip.rating = index
            context.insert(trip)
        }
        try context.save()
        try context.delete(model: Trip.self, where: #Predicate { $0.rating >= 2 })
        try context.save()
        let names = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["A", "B"])
    }

    @Test("rollback() discards unsaved changes; hasChanges follows")
    func rollback() throws {
        let context = ModelContext(try inMemory())
        let trip = Trip(name: "Before", destination: "X")
        context.insert(trip)
        try context.save()
        trip.name = "After"
        #expect(context.hasChanges)
        #expect(trip.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(trip.name == "Before")
        context.insert(Trip(name: "Unsaved", destination: "Y"))
        context.rollback()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test("transaction saves what its block changed, and rolls back when the block throws")
    func transaction() throws {
        struct Abort: Error {}
        let context = ModelContext(try inMemory())
        try context.transaction {
            context.insert(Trip(name: "Kept", destination: "X"))
        }
        #expect(!context.hasChanges)
        #expect(throws: Abort.self) {
            try context.transaction {
                context.insert(Trip(name: "Dropped", destination: "X"))
                throw Abort()
            }
        }
        let other = ModelContext(context.container)
        #expect(try other.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kept"])
    }

    @Test("Sort descriptors, fetchLimit and fetchOffset; fetchCount and fetchIdentifiers agree")
    func sortingAndWindows() throws {
        let context = ModelContext(try inMemory())
        for (name, rating) in [("D", 2), ("A", 5), ("C", 2), ("B", 1)] {
            let trip = Trip(name: name, destination: "X")
            trip.rating = rating
            context.insert(trip)
        }
        try context.save()
        let byRating = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.name)])
        #expect(try context.fetch(byRating).map(\.name) == ["A", "C", "D", "B"])
        var window = byRating
        window.fetchOffset = 1
        window.fetchLimit = 2
        #expect(try context.fetch(window).map(\.name) == ["C", "D"])
        #expect(try context.fetchCount(window) == 2)
        let ids = try context.fetchIdentifiers(window)
        #expect(ids == (try context.fetch(window)).map(\.persistentModelID))
        #expect(ids.allSatisfy { $0.entityName == "Trip" && $0.storeIdentifier != nil })
        var visited: [String] = []
        try context.enumerate(byRating) { visited.append($0.name) }
        #expect(visited == ["A", "C", "D", "B"])
    }

    @Test("model(for:) and registeredModel(for:) find a model by its identifier")
    func modelsByIdentifier() throws {
        let container = try inMemory()
        let context = ModelContext(container)
        let trip = Trip(name: "Oslo", destination: "Oslo")
        context.insert(trip)
        try context.save()
        let id = trip.persistentModelID
        #expect((context.registeredModel(for: id) as Trip?) === trip)
        let other = ModelContext(container)
        #expect((other.registeredModel(for: id) as Trip?) == nil)
        let found = try #require(other.model(for: id) as? Trip)
        #expect(found.name == "Oslo")
        #expect(found !== trip)
    }

    @Test("Inserting a duplicate of a unique attribute updates the existing record")
    func uniqueUpsert() throws {
        let context = ModelContext(try inMemory())
        context.insert(City(code: "LIS", name: "Lisboa"))
        try context.save()
        context.insert(City(code: "LIS", name: "Lisbon"))
        try context.save()
        let other = ModelContext(context.container)
        let cities = try other.fetch(FetchDescriptor<City>())
        #expect(cities.map(\.name) == ["Lisbon"])
    }

    @Test("A configuration that does not allow saving opens the store read-only")
    func readOnly() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            context.insert(Trip(name: "Saved", destination: "X"))
            try context.save()
        }
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])
        context.insert(Trip(name: "Refused", destination: "X"))
        #expect(throws: (any Error).self) { try context.save() }
    }

    @Test("The main context lives on the main actor and autosaves")
    @MainActor
    func mainContext() throws {
        let container = try inMemory()
        let context = container.mainContext
        #expect(context === container.mainContext)
        #expect(context.autosaveEnabled)
        context.insert(Trip(name: "Main", destination: "X"))
        context.processPendingChanges()
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1)
    }
}
