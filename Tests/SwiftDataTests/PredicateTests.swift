import Foundation
@testable import SwiftData
import Testing

@Suite struct PredicateTests {
    /// A few dozen trips with varied values, saved, so that translated predicates run in SQL.
    private func stack() throws -> (ModelContext, [Trip]) {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        var random = SplitMix(seed: 15)
        let names = ["Alps", "alps", "Rome", "Roma", "Porto", "Prague", "Oslo", "Écrins", "", "Zürich"]
        let cities = [City(code: "OPO", name: "Porto"), City(code: "OSL", name: "Oslo"), City(code: "ROM", name: "")]
        var trips: [Trip] = []
        for index in 0..<60 {
            let trip = Trip(name: names[random.next(names.count)], destination: names[random.next(names.count)],
                            startDate: Date(timeIntervalSinceReferenceDate: Double(random.next(10)) * 86_400))
            trip.budget = Double(random.next(5)) * 100
            trip.isFavorite = random.next(2) == 0
            trip.rating = random.next(6) - 1
            trip.notes = random.next(3) == 0 ? nil : names[random.next(names.count)]
            trip.kind = [TripKind.business, .leisure, .family][random.next(3)]
            trip.city = random.next(4) == 0 ? nil : cities[random.next(cities.count)]
            if index % 7 == 0 { trip.stops = [Stop(title: "S\(index)", position: index)] }
            context.insert(trip)
            trips.append(trip)
        }
        try context.save()
        return (context, trips)
    }

    /// Predicates the store answers in SQL.
    static let translated: [(String, Predicate<Trip>)] = {
        let thirdDay = Date(timeIntervalSinceReferenceDate: 3 * 86_400)
        return [
        ("==", #Predicate { $0.name == "Rome" }),
        ("!=", #Predicate { $0.name != "Rome" }),
        ("<", #Predicate { $0.rating < 2 }),
        ("<=", #Predicate { $0.budget <= 200 }),
        (">", #Predicate { $0.startDate > thirdDay }),
        (">=", #Predicate { $0.rating >= 0 }),
        ("Bool", #Predicate { $0.isFavorite }),
        ("!Bool", #Predicate { !$0.isFavorite }),
        ("&&", #Predicate { $0.isFavorite && $0.rating > 1 }),
        ("||", #Predicate { $0.name == "Oslo" || $0.budget == 0 }),
        ("!(a && b)", #Predicate { !($0.isFavorite && $0.name == "Alps") }),
        ("optional == nil", #Predicate { $0.notes == nil }),
        ("optional != nil", #Predicate { $0.notes != nil }),
        ("optional == value", #Predicate { $0.notes == "Oslo" }),
        ("!(optional == value)", #Predicate { !($0.notes == "Oslo") }),
        ("contains", #Predicate { $0.name.contains("o") }),
        ("starts(with:)", #Predicate { $0.destination.starts(with: "P") }),
        ("in constant array", #Predicate { ["Rome", "Oslo"].contains($0.name) }),
        ("to-one ?.", #Predicate { $0.city?.name == "Porto" }),
        ("to-one ?. !=", #Predicate { $0.city?.name != "Porto" }),
        ("!(to-one ?. ==)", #Predicate { !($0.city?.name == "Porto") }),
        ("to-one == nil", #Predicate { $0.city == nil }),
        ("to-one ?. == nil", #Predicate { $0.city?.code == nil }),
        ("two key paths", #Predicate { $0.name == $0.destination }),
        ("true", #Predicate { _ in true }),
        ]
    }()

    /// Predicates evaluated in memory.
    static let inMemoryOnly: [(String, Predicate<Trip>)] = [
        ("arithmetic", #Predicate { $0.rating + 1 > 3 }),
        ("??", #Predicate { ($0.notes ?? "none") == "none" }),
        ("string count", #Predicate { $0.name.count > 4 }),
        ("to-many count", #Predicate { $0.stops.count > 0 }),
        ("to-many contains where", #Predicate { $0.stops.contains { $0.position > 20 } }),
        ("nested optional flatMap", #Predicate { $0.city.flatMap { $0.name.isEmpty } == true }),
    ]

    @Test("Common expressions translate to the store's predicate; others are left for memory")
    func translation() {
        for (label, predicate) in Self.translated {
            #expect(PredicateTranslator.translate(predicate) != nil, "\(label)")
        }
        for (label, predicate) in Self.inMemoryOnly {
            #expect(PredicateTranslator.translate(predicate) == nil, "\(label)")
        }
    }

    @Test("Differential: every predicate fetches exactly what Foundation's evaluate(_:) selects, saved or pending")
    func differential() throws {
        let (context, trips) = try stack()
        func check(_ label: String) throws {
            for (name, predicate) in Self.translated + Self.inMemoryOnly {
                let fetched = try context.fetch(FetchDescriptor(predicate: predicate))
                let expected = try trips.filter { trip in trip.isDeleted ? false : try predicate.evaluate(trip) }
                #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(expected.map(ObjectIdentifier.init)),
                        "\(label): \(name): fetched \(fetched.count), expected \(expected.count)")
                #expect(try context.fetchCount(FetchDescriptor(predicate: predicate)) == expected.count, "\(label): \(name)")
            }
        }
        try check("saved")
        // Pending changes: the context answers from its unsaved state too.
        for trip in trips.prefix(10) { trip.name = "Rome" }
        for trip in trips.suffix(5) { trip.city = nil }
        try check("pending")
    }

    @Test("A predicate left for memory still honours sort, offset and limit")
    func windowInMemory() throws {
        let (context, trips) = try stack()
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.rating + 1 > 2 },
                                               sortBy: [SortDescriptor(\.startDate), SortDescriptor(\.name)])
        descriptor.fetchOffset = 2
        descriptor.fetchLimit = 5
        let expected = trips.filter { $0.rating + 1 > 2 }.sorted {
            ($0.startDate, $0.name) < ($1.startDate, $1.name)
        }.dropFirst(2).prefix(5)
        let fetched = try context.fetch(descriptor)
        #expect(fetched.map(\.startDate) == expected.map(\.startDate))
        #expect(fetched.map(\.name) == expected.map(\.name))
    }

    @Test("persistentModelID in a predicate: the trips of one city")
    func modelConstant() throws {
        let (context, trips) = try stack()
        let found = try #require(try context.fetch(FetchDescriptor<City>(predicate: #Predicate { $0.code == "OPO" })).first)
        let porto = found.persistentModelID
        let predicate = #Predicate<Trip> { $0.city?.persistentModelID == porto }
        #expect(PredicateTranslator.translate(predicate) != nil)
        let portoTrips = try context.fetch(FetchDescriptor<Trip>(predicate: predicate))
        #expect(Set(portoTrips.map(ObjectIdentifier.init)) == Set(trips.filter { $0.city === found }.map(ObjectIdentifier.init)))
        #expect(!portoTrips.isEmpty)
    }
}

/// A small deterministic generator (the test data must not change between runs).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
