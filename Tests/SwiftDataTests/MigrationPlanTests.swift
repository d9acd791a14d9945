import CoreDataTestSupport
import Foundation
import SwiftData
import Testing

// Three versions of a trip planner's schema, as Apple's WWDC23 sample writes them: version 2
// makes the name unique (a custom stage removes duplicates first and fills a new property
// afterwards), version 3 renames a property and adds one (a lightweight stage).

enum TripsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model
    final class Trip {
        var name: String
        var destination: String

        init(name: String, destination: String) {
            self.name = name
            self.destination = destination
        }
    }
}

enum TripsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        var destination: String
        var notes: String?

        init(name: String, destination: String) {
            self.name = name
            self.destination = destination
        }
    }
}

enum TripsV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model
    final class Trip {
        @Attribute(.unique) var name: String
        @Attribute(originalName: "destination") var place: String
        var notes: String?
        var rating: Int = 3

        init(name: String, place: String) {
            self.name = name
            self.place = place
        }
    }
}

/// What the custom stage's closures saw, per test (the plan's closures are static).
final class MigrationLog: @unchecked Sendable {
    // @unchecked Sendable: guarded by `lock`.
    private let lock = NSLock()
    private var entries: [String] = []
    static let shared = MigrationLog()

    func add(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    func take() -> [String] {
        lock.lock()
        defer { entries = []; lock.unlock() }
        return entries
    }
}

/// When set, `willMigrate` throws this error (to test a failing stage).
nonisolated(unsafe) var failWillMigrate = false

enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: TripsV1.self, toVersion: TripsV2.self,
        willMigrate: { context in
            if failWillMigrate { throw CocoaError(.featureUnsupported) }
            let trips = try context.fetch(FetchDescriptor<TripsV1.Trip>(sortBy: [SortDescriptor(\.destination)]))
            MigrationLog.shared.add("will: \(trips.count) trips")
            var seen: Set<String> = []
            for trip in trips where !seen.insert(trip.name).inserted {
                context.delete(trip)
            }
            try context.save()
        },
        didMigrate: { context in
            let trips = try context.fetch(FetchDescriptor<TripsV2.Trip>())
            MigrationLog.shared.add("did: \(trips.count) trips")
            for trip in trips { trip.notes = "checked" }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: TripsV2.self, toVersion: TripsV3.self)
}

/// A plan without the step from version 1.
enum IncompletePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsV1.self, TripsV2.self, TripsV3.self] }
    static var stages: [MigrationStage] { [TripsMigrationPlan.migrateV2toV3] }
}

@Suite(.serialized) struct MigrationPlanTests {
    private func writeV1(at url: URL) throws {
        let container = try ModelContainer(for: Schema(versionedSchema: TripsV1.self),
                                           configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(TripsV1.Trip(name: "Alps", destination: "Chamonix"))
        context.insert(TripsV1.Trip(name: "Alps", destination: "Zermatt"))
        context.insert(TripsV1.Trip(name: "Coast", destination: "Porto"))
        try context.save()
    }

    private func openV3(at url: URL, plan: any SchemaMigrationPlan.Type = TripsMigrationPlan.self) throws -> ModelContainer {
        try ModelContainer(for: Schema(versionedSchema: TripsV3.self), migrationPlan: plan,
                           configurations: ModelConfiguration(url: url))
    }

    @Test("A store written with version 1 opens at version 3: the custom stage's closures run, then the lightweight stage")
    func customThenLightweight() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        try writeV1(at: url)
        _ = MigrationLog.shared.take()
        let container = try openV3(at: url)
        #expect(MigrationLog.shared.take() == ["will: 3 trips", "did: 2 trips"])
        #expect(container.migrationPlan.map(ObjectIdentifier.init) == ObjectIdentifier(TripsMigrationPlan.self))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripsV3.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Alps", "Coast"])
        #expect(trips.map(\.place) == ["Chamonix", "Porto"])
        #expect(trips.map(\.notes) == ["checked", "checked"])
        #expect(trips.map(\.rating) == [3, 3])
        // Version 3's uniqueness holds: a second "Coast" updates the existing record.
        context.insert(TripsV3.Trip(name: "Coast", place: "Lisbon"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripsV3.Trip>()) == 2)
    }

    @Test("A migrated store opens again without running any stage")
    func secondOpenRunsNothing() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        try writeV1(at: url)
        _ = try openV3(at: url)
        _ = MigrationLog.shared.take()
        let container = try openV3(at: url)
        #expect(MigrationLog.shared.take().isEmpty)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripsV3.Trip>()) == 2)
    }

    @Test("A store at version 2 runs only the stage from version 2")
    func startsAtTheStoresVersion() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        do {
            let container = try ModelContainer(for: Schema(versionedSchema: TripsV2.self),
                                               configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(TripsV2.Trip(name: "Lakes", destination: "Como"))
            try context.save()
        }
        _ = MigrationLog.shared.take()
        let container = try openV3(at: url)
        #expect(MigrationLog.shared.take().isEmpty)
        let trip = try #require(try ModelContext(container).fetch(FetchDescriptor<TripsV3.Trip>()).first)
        #expect(trip.place == "Como")
        #expect(trip.notes == nil)
    }

    @Test("A plan without a stage from the store's version fails with a clear error")
    func missingStage() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        try writeV1(at: url)
        #expect(throws: SwiftDataError.loadIssueModelContainer) { _ = try openV3(at: url, plan: IncompletePlan.self) }
    }

    @Test("An error thrown by willMigrate is rethrown and leaves the store at version 1")
    func failingStage() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Trips.store")
        try writeV1(at: url)
        failWillMigrate = true
        defer { failWillMigrate = false }
        #expect(throws: CocoaError.self) { _ = try openV3(at: url) }
        let container = try ModelContainer(for: Schema(versionedSchema: TripsV1.self),
                                           configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TripsV1.Trip>()) == 3)
    }

    @Test("A versioned schema's classes keep their own names as entity names")
    func entityNames() throws {
        #expect(Schema(versionedSchema: TripsV2.self).entities.map(\.name) == ["Trip"])
        #expect(Schema(versionedSchema: TripsV2.self).version == Schema.Version(2, 0, 0))
    }
}
