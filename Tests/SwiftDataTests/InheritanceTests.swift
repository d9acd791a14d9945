import CoreData
import CoreDataTestSupport
import Foundation
@testable import SwiftData
import Testing

// Class inheritance between models, in the shape of Apple's 2025 sample (SampleTrips):
// a base trip and two kinds of trips that add their own properties.

@Model
class Journey {
    var name: String
    var destination: String
    var days: Int = 1
    var traveller: Traveller?

    init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }
}

@Model
class BusinessJourney: Journey {
    var perdiem: Double = 0
    var company: String

    init(name: String, destination: String, company: String, perdiem: Double) {
        self.company = company
        self.perdiem = perdiem
        super.init(name: name, destination: destination)
    }
}

@Model
class PersonalJourney: Journey {
    var reason: String

    init(name: String, destination: String, reason: String) {
        self.reason = reason
        super.init(name: name, destination: destination)
    }
}

/// Three levels: a subclass of a subclass.
@Model
final class ConferenceJourney: BusinessJourney {
    var talk: String?

    init(name: String, company: String, talk: String?) {
        self.talk = talk
        super.init(name: name, destination: "Conference", company: company, perdiem: 100)
    }
}

@Model
final class Traveller {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Journey.traveller) var journeys: [Journey] = []

    init(name: String) {
        self.name = name
    }
}

@Suite struct InheritanceTests {
    private static var types: [any PersistentModel.Type] { [
        Journey.self, BusinessJourney.self, PersonalJourney.self, ConferenceJourney.self, Traveller.self,
    ] }

    /// A container on disk with one journey of each class, saved.
    private func savedStore(_ folder: TemporaryDirectory) throws -> (ModelContainer, URL) {
        let url = folder.file("Journeys.store")
        let container = try ModelContainer(for: Schema(Self.types), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let traveller = Traveller(name: "Ada")
        context.insert(traveller)
        traveller.journeys = [
            Journey(name: "Weekend", destination: "Annecy"),
            BusinessJourney(name: "Audit", destination: "Lyon", company: "Acme", perdiem: 80),
            PersonalJourney(name: "Wedding", destination: "Porto", reason: "family"),
            ConferenceJourney(name: "WWDC", company: "Acme", talk: "Core Data on Linux"),
        ]
        try context.save()
        return (container, url)
    }

    @Test("A @Model subclass becomes a sub-entity of its superclass's entity")
    func subEntities() throws {
        let schema = Schema(Self.types)
        let journey = try #require(schema.entitiesByName["Journey"])
        let business = try #require(schema.entitiesByName["BusinessJourney"])
        #expect(business.superentity === journey)
        #expect(schema.entitiesByName["ConferenceJourney"]?.superentityName == "BusinessJourney")
        #expect(Set(journey.subentities.map(\.name)) == ["BusinessJourney", "PersonalJourney"])
        #expect(business.attributes.map(\.name) == ["perdiem", "company"])

        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let entities = container.persistentContainer.managedObjectModel.entitiesByName
        #expect(entities["BusinessJourney"]?.superentity?.name == "Journey")
        #expect(entities["ConferenceJourney"]?.superentity?.name == "BusinessJourney")
        // Inherited properties come from the superentity.
        #expect(Set(entities["ConferenceJourney"]?.attributesByName.keys.map { $0 } ?? [])
            == ["name", "destination", "days", "perdiem", "company", "talk"])
        #expect(entities["ConferenceJourney"]?.relationshipsByName["traveller"]?.inverseRelationship?.name == "journeys")
    }

    @Test("Listing only the subclass brings its superclass (and what it relates to) into the schema")
    func superclassJoinsSchema() {
        let schema = Schema([PersonalJourney.self])
        #expect(Set(schema.entities.map(\.name)) == ["Journey", "PersonalJourney", "Traveller"])
    }

    @Test("Fetching the superclass returns instances of every subclass, with their values")
    func polymorphicFetch() throws {
        let folder = try TemporaryDirectory()
        let (_, url) = try savedStore(folder)
        // A second container: everything comes back from the file.
        let container = try ModelContainer(for: Schema(Self.types), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let all = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
        #expect(all.map(\.name) == ["Audit", "WWDC", "Wedding", "Weekend"])
        let audit = try #require(all[0] as? BusinessJourney)
        #expect(audit.perdiem == 80)
        #expect(audit.company == "Acme")
        #expect(audit.destination == "Lyon")
        let wwdc = try #require(all[1] as? ConferenceJourney)
        #expect(wwdc.talk == "Core Data on Linux")
        #expect(wwdc.perdiem == 100)
        #expect((all[2] as? PersonalJourney)?.reason == "family")
        #expect(type(of: all[3]) == Journey.self)

        let business = try context.fetch(FetchDescriptor<BusinessJourney>(sortBy: [SortDescriptor(\.company)]))
        #expect(Set(business.map(\.name)) == ["Audit", "WWDC"])
        #expect(try context.fetchCount(FetchDescriptor<PersonalJourney>()) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Journey>()) == 4)

        let traveller = try #require(try context.fetch(FetchDescriptor<Traveller>()).first)
        #expect(Set(traveller.journeys.map { String(describing: type(of: $0)) })
            == ["Journey", "BusinessJourney", "PersonalJourney", "ConferenceJourney"])
    }

    @Test("Subclass rows share the root entity's table, told apart by Z_ENT, as Apple stores them")
    func oneTablePerRoot() throws {
        let folder = try TemporaryDirectory()
        let (container, url) = try savedStore(folder)
        let coordinator = container.persistentContainer.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let raw = try RawDatabase(url)
        let tables = try raw.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0] as? String }
        #expect(tables.contains("ZJOURNEY"))
        #expect(!tables.contains { $0.hasPrefix("ZBUSINESS") || $0.hasPrefix("ZPERSONAL") || $0.hasPrefix("ZCONFERENCE") })
        let columns = try raw.columns("ZJOURNEY")
        for column in ["Z_ENT", "ZNAME", "ZPERDIEM", "ZCOMPANY", "ZREASON", "ZTALK"] {
            #expect(columns[column] != nil, "ZJOURNEY has no \(column)")
        }
        let entityNumbers = try raw.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
        let byName = Dictionary(entityNumbers.map { ($0[1] as? String ?? "", ($0[0] as? Int64 ?? 0, $0[2] as? Int64 ?? 0)) },
                                uniquingKeysWith: { a, _ in a })
        let journey = try #require(byName["Journey"])
        let business = try #require(byName["BusinessJourney"])
        #expect(business.1 == journey.0)
        #expect(byName["ConferenceJourney"]?.1 == business.0)
        let audit = try raw.rows("SELECT Z_ENT, ZPERDIEM FROM ZJOURNEY WHERE ZNAME = 'Audit'")
        #expect(audit.first?[0] as? Int64 == business.0)
        #expect(audit.first?[1] as? Double == 80)
    }

    @Test("The store opens through NSPersistentContainer with a Core Data model of the same hierarchy")
    func coreDataReadsHierarchy() throws {
        let folder = try TemporaryDirectory()
        let (container, url) = try savedStore(folder)
        let model = container.persistentContainer.managedObjectModel
        let coordinator = container.persistentContainer.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let coreData = NSPersistentContainer(name: "Journeys", managedObjectModel: model)
        coreData.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var loadError: Error?
        coreData.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let request = NSFetchRequest<NSManagedObject>(entityName: "BusinessJourney")
        request.predicate = NSPredicate(format: "perdiem > 90")
        let found = try coreData.viewContext.fetch(request)
        #expect(found.map { $0.entity.name } == ["ConferenceJourney"])
    }

    @Test("#Predicate with `is` and `as?` selects subclass models, in SQL when the type check is a conjunct")
    func typeChecksAndCasts() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try savedStore(folder)
        let context = ModelContext(container)
        func names(_ predicate: Predicate<Journey>) throws -> Set<String> {
            Set(try context.fetch(FetchDescriptor(predicate: predicate)).map(\.name))
        }
        let isBusiness = #Predicate<Journey> { $0 is BusinessJourney }
        let richBusiness = #Predicate<Journey> { journey in
            journey is BusinessJourney && (journey as? BusinessJourney)?.perdiem ?? 0 > 90
        }
        let castOnly = #Predicate<Journey> { journey in (journey as? PersonalJourney)?.reason == "family" }
        let either = #Predicate<Journey> { journey in journey is PersonalJourney || journey.name == "Weekend" }
        #expect(try names(isBusiness) == ["Audit", "WWDC"])
        #expect(try names(richBusiness) == ["WWDC"])
        #expect(try names(castOnly) == ["Wedding"])
        #expect(try names(either) == ["Wedding", "Weekend"])

        // The conjunct `is` narrows the fetch to the subclass's entity, answered in SQL.
        let plan = FetchPlan(FetchDescriptor(predicate: isBusiness), in: context)
        #expect(!plan.inMemory)
        #expect(plan.request.entity?.name == "BusinessJourney")
        let cast = #Predicate<Journey> { journey in
            journey is BusinessJourney && (journey as? BusinessJourney)?.company == "Acme"
        }
        #expect(!FetchPlan(FetchDescriptor(predicate: cast), in: context).inMemory)
        #expect(try names(cast) == ["Audit", "WWDC"])
        // Without the conjunct, the cast is evaluated in memory, with the same answer.
        #expect(FetchPlan(FetchDescriptor(predicate: castOnly), in: context).inMemory)
    }

    @Test("Predicates and sorts on a subclass over properties its superclasses declare run in SQL")
    func inheritedKeyPathsInSQL() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try savedStore(folder)
        let context = ModelContext(container)
        // `name` and `destination` are Journey's, `company` BusinessJourney's: two levels up.
        let acme = FetchDescriptor<ConferenceJourney>(
            predicate: #Predicate { $0.company == "Acme" && $0.name.starts(with: "WW") },
            sortBy: [SortDescriptor(\.destination), SortDescriptor(\.name)])
        let plan = FetchPlan(acme, in: context)
        #expect(!plan.inMemory)
        #expect(plan.request.sortDescriptors?.map(\.key) == ["destination", "name"])
        #expect(try context.fetch(acme).map(\.talk) == ["Core Data on Linux"])

        let business = FetchDescriptor<BusinessJourney>(
            predicate: #Predicate { $0.days == 1 && $0.destination != "Annecy" },
            sortBy: [SortDescriptor(\.name, order: .reverse)])
        #expect(!FetchPlan(business, in: context).inMemory)
        #expect(try context.fetch(business).map(\.name) == ["WWDC", "Audit"])
        #expect(try context.fetchCount(FetchDescriptor<PersonalJourney>(predicate: #Predicate { $0.destination == "Porto" })) == 1)
    }

    @Test("A subclass model's properties change, save and fetch back like any model's")
    func subclassChanges() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try savedStore(folder)
        let context = ModelContext(container)
        let audit = try #require(try context.fetch(FetchDescriptor<BusinessJourney>(
            predicate: #Predicate { $0.company == "Acme" && $0.perdiem < 90 })).first)
        audit.perdiem = 95
        audit.days = 3
        #expect(context.hasChanges)
        try context.save()
        let again = ModelContext(container)
        let fetched = try #require(try again.fetch(FetchDescriptor<BusinessJourney>(
            predicate: #Predicate { $0.perdiem == 95 })).first)
        #expect(fetched.name == "Audit")
        #expect(fetched.days == 3)
    }

    @Test("delete(model:where:includeSubclasses:) leaves subclass models alone when asked")
    func deleteWithoutSubclasses() throws {
        let folder = try TemporaryDirectory()
        let (container, _) = try savedStore(folder)
        let context = ModelContext(container)
        try context.delete(model: Journey.self, includeSubclasses: false)
        try context.save()
        #expect(Set(try context.fetch(FetchDescriptor<Journey>()).map(\.name)) == ["Audit", "Wedding", "WWDC"])
        try context.delete(model: BusinessJourney.self)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Journey>()).map(\.name) == ["Wedding"])
    }
}
