import CoreData
import CoreDataTestSupport
import Foundation
@testable import SwiftData
import Testing

/// One store file, two APIs: SwiftData's models and Core Data's managed objects.
@Suite struct CrossAPITests {
    /// The Core Data model a Core Data user writes for the same schema as `Trip`, `Stop`
    /// and `City` (entity and property names as SwiftData names them).
    private func coreDataModel() -> NSManagedObjectModel {
        let trip = entity("Trip", [
            attribute("name", .stringAttributeType, optional: false),
            attribute("destination", .stringAttributeType, optional: false),
            attribute("startDate", .dateAttributeType, optional: false),
            attribute("budget", .doubleAttributeType, optional: false),
            attribute("isFavorite", .booleanAttributeType, optional: false),
            attribute("notes", .stringAttributeType),
            attribute("rating", .integer64AttributeType, optional: false),
            attribute("kind", .stringAttributeType, optional: false),
        ])
        let stop = entity("Stop", [
            attribute("title", .stringAttributeType, optional: false),
            attribute("position", .integer64AttributeType, optional: false),
        ])
        let city = entity("City", [
            attribute("code", .stringAttributeType, optional: false),
            attribute("name", .stringAttributeType, optional: false),
        ])
        city.uniquenessConstraints = [["code"]]
        let stops = relationship("stops", to: stop, toMany: true)
        stops.deleteRule = .cascadeDeleteRule
        let stopTrip = relationship("trip", to: trip)
        connect(stops, stopTrip)
        let tripCity = relationship("city", to: city)
        let cityTrips = relationship("trips", to: trip, toMany: true)
        connect(tripCity, cityTrips)
        trip.properties += [stops, tripCity]
        stop.properties += [stopTrip]
        city.properties += [cityTrips]
        let model = NSManagedObjectModel()
        model.entities = [trip, stop, city]
        return model
    }

    @Test("A SwiftData schema and the same Core Data model have equal entity version hashes")
    func versionHashes() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let swiftData = container.persistentContainer.managedObjectModel.entityVersionHashesByName
        #expect(swiftData == coreDataModel().entityVersionHashesByName)
    }

    @Test("A store written through SwiftData opens through NSPersistentContainer")
    func swiftDataToCoreData() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shared.store")
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            let trip = Trip(name: "Alps", destination: "Chamonix", startDate: Date(timeIntervalSinceReferenceDate: 86_400))
            trip.rating = 5
            trip.kind = .business
            trip.stops = [Stop(title: "Col", position: 1), Stop(title: "Lac", position: 2)]
            trip.city = City(code: "CMX", name: "Chamonix")
            context.insert(trip)
            try context.save()
        }
        let container = NSPersistentContainer(name: "Shared", managedObjectModel: coreDataModel())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.viewContext
        let trips = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Trip"))
        let trip = try #require(trips.first)
        #expect(trips.count == 1)
        #expect(trip.value(forKey: "name") as? String == "Alps")
        #expect(trip.value(forKey: "rating") as? Int == 5)
        #expect(trip.value(forKey: "kind") as? String == "business")
        #expect(trip.value(forKey: "startDate") as? Date == Date(timeIntervalSinceReferenceDate: 86_400))
        let stops = try #require(trip.value(forKey: "stops") as? Set<NSManagedObject>)
        #expect(Set(stops.compactMap { $0.value(forKey: "title") as? String }) == ["Col", "Lac"])
        #expect((trip.value(forKey: "city") as? NSManagedObject)?.value(forKey: "code") as? String == "CMX")
    }

    @Test("Core Data writes a SwiftData store when it tracks history too, as on Apple; without, the store is read-only")
    func coreDataWritesWithHistoryTracking() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shared.store")
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
            context.insert(Trip(name: "Alps", destination: "Chamonix"))
            try context.save()
        }
        func open(tracking: Bool) throws -> NSPersistentContainer {
            let container = NSPersistentContainer(name: "Shared", managedObjectModel: coreDataModel())
            let description = NSPersistentStoreDescription(url: url)
            if tracking { description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey) }
            container.persistentStoreDescriptions = [description]
            var loadError: Error?
            container.loadPersistentStores { _, error in loadError = error }
            if let loadError { throw loadError }
            return container
        }
        func insertTrip(_ container: NSPersistentContainer, _ name: String) throws {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let trip = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
                for (key, value) in ["name": name, "destination": "Porto", "kind": "leisure"] { trip.setValue(value, forKey: key) }
                trip.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "startDate")
                for key in ["budget", "isFavorite", "rating"] { trip.setValue(0 as NSNumber, forKey: key) }
                try context.save()
            }
        }
        #expect(throws: (any Error).self) { try insertTrip(try open(tracking: false), "Untracked") }
        try insertTrip(try open(tracking: true), "Coast")
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Alps", "Coast"])
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 2)
    }

    @Test("A store written through NSPersistentContainer opens through ModelContainer")
    func coreDataToSwiftData() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shared.store")
        do {
            let container = NSPersistentContainer(name: "Shared", managedObjectModel: coreDataModel())
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
            var loadError: Error?
            container.loadPersistentStores { _, error in loadError = error }
            #expect(loadError == nil)
            let context = container.viewContext
            let trip = NSEntityDescription.insertNewObject(forEntityName: "Trip", into: context)
            trip.setValue("Fjords", forKey: "name")
            trip.setValue("Bergen", forKey: "destination")
            trip.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "startDate")
            trip.setValue(800.0, forKey: "budget")
            trip.setValue(false, forKey: "isFavorite")
            trip.setValue(3, forKey: "rating")
            trip.setValue("family", forKey: "kind")
            let stop = NSEntityDescription.insertNewObject(forEntityName: "Stop", into: context)
            stop.setValue("Bryggen", forKey: "title")
            stop.setValue(1, forKey: "position")
            stop.setValue(trip, forKey: "trip")
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        let trips = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating == 3 }))
        let trip = try #require(trips.first)
        #expect(trip.name == "Fjords")
        #expect(trip.budget == 800)
        #expect(trip.kind == .family)
        #expect(trip.stops.map(\.title) == ["Bryggen"])
        #expect(trip.stops.first?.trip === trip)
    }
}
