import CoreData
import CoreDataTestSupport
import Foundation
@testable import SwiftData
import Testing

/// Fetching and enumerating a batch at a time.
@Suite struct BatchFetchTests {
    /// A store on disk holding `count` trips named T000, T001, …
    private func context(_ folder: TemporaryDirectory, count: Int) throws -> ModelContext {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: folder.file("Trips.store")))
        let writer = ModelContext(container)
        for index in 0..<count {
            let trip = Trip(name: String(format: "T%03d", index), destination: index % 2 == 0 ? "Even" : "Odd")
            trip.rating = index
            writer.insert(trip)
        }
        try writer.save()
        return ModelContext(container)
    }

    /// The context's objects whose values are loaded.
    private func realized(_ context: ModelContext) -> Int {
        context.managedObjectContext.registeredObjects.filter { !$0.isFault }.count
    }

    @Test("enumerate visits every match in order while holding about one batch of values")
    func enumerateInBatches() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder, count: 45)
        var names: [String] = []
        var mostRealized = 0
        try context.enumerate(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating >= 5 },
                                                    sortBy: [SortDescriptor(\.name)]), batchSize: 10) { trip in
            names.append(trip.name)
            mostRealized = max(mostRealized, realized(context))
        }
        #expect(names == (5..<45).map { String(format: "T%03d", $0) })
        #expect(mostRealized <= 10)
        #expect(realized(context) == 0)
    }

    @Test("enumerate keeps the block's changes, and with allowEscapingMutations every model's values")
    func enumerateChanges() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder, count: 12)
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5) { trip in
            if trip.rating % 3 == 0 { trip.isFavorite = true }
        }
        #expect(context.changedModelsArray.count == 4)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.isFavorite })) == 4)

        var seen = 0
        var mostRealized = 0
        try context.enumerate(FetchDescriptor<Trip>(), batchSize: 5, allowEscapingMutations: true) { trip in
            _ = trip.name
            seen += 1
            mostRealized = max(mostRealized, realized(context))
        }
        #expect(seen == 12)
        #expect(mostRealized == 12)
    }

    @Test("enumerate with a predicate memory must answer gives the same models")
    func enumerateInMemory() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder, count: 20)
        var names: [String] = []
        try context.enumerate(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating % 7 == 0 },
                                                    sortBy: [SortDescriptor(\.name)]), batchSize: 3) { names.append($0.name) }
        #expect(names == ["T000", "T007", "T014"])
    }

    @Test("fetch(_:batchSize:) returns a collection that reads its models a batch at a time")
    func batchedCollection() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder, count: 25)
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.rating, order: .reverse)])
        let trips = try context.fetch(descriptor, batchSize: 10)
        #expect(trips.count == 25)
        #expect(realized(context) == 0)
        #expect(trips[0].name == "T024")
        #expect(realized(context) <= 10)
        #expect(trips.map(\.rating) == (0..<25).reversed().map { $0 })
        #expect(trips.last?.name == "T000")
        let identifiers = try context.fetchIdentifiers(descriptor, batchSize: 4)
        #expect(Array(identifiers) == trips.map(\.persistentModelID))
    }
}
