import CoreDataTestSupport
import Foundation
import SwiftData
import Testing

/// A background importer, as Apple's sample code writes one.
@ModelActor
actor TripImporter {
    func importTrips(_ names: [String]) throws -> [PersistentIdentifier] {
        var trips: [Trip] = []
        for name in names {
            let trip = Trip(name: name, destination: "Somewhere")
            modelContext.insert(trip)
            trips.append(trip)
        }
        try modelContext.save()
        return trips.map(\.persistentModelID)
    }

    func rename(_ id: PersistentIdentifier, to name: String) throws -> Bool {
        guard let trip = self[id, as: Trip.self] else { return false }
        trip.name = name
        try modelContext.save()
        return true
    }

    func count() throws -> Int {
        try modelContext.fetchCount(FetchDescriptor<Trip>())
    }
}

@Suite struct ModelActorTests {
    private func onDisk(_ folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: folder.file("Trips.store")))
    }

    @Test("A @ModelActor inserts and saves on its own context; another context sees the rows")
    func importOnActor() async throws {
        let folder = try TemporaryDirectory()
        let container = try onDisk(folder)
        let importer = TripImporter(modelContainer: container)
        let ids = try await importer.importTrips(["Alps", "Coast", "Lakes"])
        #expect(ids.count == 3)
        #expect(ids.allSatisfy { $0.storeIdentifier != nil })
        let context = ModelContext(container)
        let names = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Alps", "Coast", "Lakes"])
        #expect(importer.modelContainer === container)
    }

    @Test("Identifiers cross actors; the subscript finds the model in the actor's context")
    func identifiersCrossActors() async throws {
        let folder = try TemporaryDirectory()
        let container = try onDisk(folder)
        let context = ModelContext(container)
        let trip = Trip(name: "Rome", destination: "Rome")
        context.insert(trip)
        try context.save()
        let importer = TripImporter(modelContainer: container)
        #expect(try await importer.rename(trip.persistentModelID, to: "Roma"))
        let reread = ModelContext(container)
        #expect(try reread.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Roma"])
    }

    @Test("Two model actors insert at the same time without losing rows")
    func concurrentActors() async throws {
        let folder = try TemporaryDirectory()
        let container = try onDisk(folder)
        let first = TripImporter(modelContainer: container)
        let second = TripImporter(modelContainer: container)
        async let a = first.importTrips((0..<50).map { "a\($0)" })
        async let b = second.importTrips((0..<50).map { "b\($0)" })
        let (ids1, ids2) = try await (a, b)
        #expect(Set(ids1 + ids2).count == 100)
        #expect(try await first.count() == 100)
    }

    @Test("A model of one context used in another traps with a message naming the mistake")
    func crossContextMisuse() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            let first = ModelContext(container)
            let second = ModelContext(container)
            let trip = Trip(name: "Oslo", destination: "Oslo")
            first.insert(trip)
            second.insert(trip)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("another ModelContext"))
    }
}

@Suite struct SaveNotificationTests {
    /// Collects the notifications a context posts.
    final class Recorder: @unchecked Sendable {
        // @unchecked Sendable: the observers run synchronously on the saving thread.
        var events: [(name: Notification.Name, hadChanges: Bool, info: [String: [PersistentIdentifier]])] = []
        var tokens: [NSObjectProtocol] = []

        init(_ context: ModelContext) {
            for name in [ModelContext.willSave, ModelContext.didSave] {
                let box = UncheckedBox(context)
                tokens.append(NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) {
                    [unowned self] note in
                    var info: [String: [PersistentIdentifier]] = [:]
                    for (key, value) in note.userInfo ?? [:] {
                        info["\(key)"] = value as? [PersistentIdentifier]
                    }
                    self.events.append((note.name, box.value.hasChanges, info))
                })
            }
        }

        deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
    }

    struct UncheckedBox<T>: @unchecked Sendable {
        // @unchecked Sendable: read only by observers on the thread that saves.
        let value: T
        init(_ value: T) { self.value = value }
    }

    @Test("save() posts willSave with the changes pending, then didSave with the identifiers of what it wrote")
    func willAndDidSave() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let recorder = Recorder(context)
        let alps = Trip(name: "Alps", destination: "Chamonix")
        let coast = Trip(name: "Coast", destination: "Porto")
        context.insert(alps)
        context.insert(coast)
        try context.save()
        #expect(recorder.events.map(\.name) == [ModelContext.willSave, ModelContext.didSave])
        #expect(recorder.events[0].hadChanges)
        let inserted = recorder.events[1].info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] ?? []
        #expect(Set(inserted) == [alps.persistentModelID, coast.persistentModelID])
        #expect(inserted.allSatisfy { $0.storeIdentifier != nil })

        recorder.events = []
        alps.notes = "snow"
        context.delete(coast)
        let coastID = coast.persistentModelID
        try context.save()
        let info = recorder.events.last?.info ?? [:]
        #expect(info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] == [alps.persistentModelID])
        #expect(info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] == [coastID])
        #expect(info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] == [])

        recorder.events = []
        try context.save()
        #expect(recorder.events.isEmpty)
    }
}
