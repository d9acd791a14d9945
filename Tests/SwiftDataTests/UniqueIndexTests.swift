import CoreData
import CoreDataTestSupport
import Foundation
import SwiftData
import Testing

/// A model with compound uniqueness and indexes declared in its body.
@Model
final class Person {
    #Unique<Person>([\.email], [\.givenName, \.familyName])
    #Index<Person>([\.familyName], [\.givenName, \.familyName])

    var email: String
    var givenName: String
    var familyName: String
    var age: Int = 0

    init(email: String, givenName: String, familyName: String, age: Int = 0) {
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.age = age
    }
}

@Suite struct UniqueIndexTests {
    @Test("#Unique and #Index become the entity's uniqueness constraints and fetch indexes")
    func schema() throws {
        let entity = try #require(Schema([Person.self]).entitiesByName["Person"])
        #expect(entity.uniquenessConstraints == [["email"], ["givenName", "familyName"]])
        #expect(entity.indices == [["familyName"], ["givenName", "familyName"]])
        let container = try ModelContainer(for: Person.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        _ = container
    }

    @Test("A record with the same values as a #Unique constraint updates the existing one")
    func upsert() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(for: Person.self, configurations: ModelConfiguration(url: folder.file("People.store")))
        let context = ModelContext(container)
        context.insert(Person(email: "ada@example.com", givenName: "Ada", familyName: "Lovelace", age: 36))
        try context.save()
        let again = ModelContext(container)
        again.insert(Person(email: "ada@example.com", givenName: "Augusta", familyName: "King", age: 37))
        try again.save()
        let third = ModelContext(container)
        third.insert(Person(email: "other@example.com", givenName: "Augusta", familyName: "King", age: 38))
        try third.save()
        let people = try ModelContext(container).fetch(FetchDescriptor<Person>())
        #expect(people.count == 1)
        #expect(people.first?.age == 38)
    }

    @Test("The store has one SQLite index per #Index")
    func sqliteIndexes() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("People.store")
        do {
            let container = try ModelContainer(for: Person.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(Person(email: "a@example.com", givenName: "A", familyName: "B"))
            try context.save()
        }
        let indexes = try RawDatabase(url).indexes()
        let columns = Set(indexes.values.filter { !$0.unique }.map(\.columns))
        #expect(columns.contains(["ZFAMILYNAME"]))
        #expect(columns.contains(["ZGIVENNAME", "ZFAMILYNAME"]))
    }
}
