import Foundation
@testable import CoreData
import CoreDataTestSupport

/// People in teams, with pets (one-to-many) and clubs (many-to-many), with binary and URI
/// attributes among the scalar ones: the model the
/// differential predicate test and the query tests run over. `serial` is a unique number
/// that names each object the same way in every store.
enum DifferentialModel {
    static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, indexed: Bool = false) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            attribute.isIndexed = indexed
            return attribute
        }
        func relationship(_ name: String, _ destination: NSEntityDescription, toMany: Bool) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription()
            relationship.name = name
            relationship.destinationEntity = destination
            relationship.maxCount = toMany ? 0 : 1
            relationship.deleteRule = .nullifyDeleteRule
            return relationship
        }
        func connect(_ a: NSRelationshipDescription, _ b: NSRelationshipDescription) {
            a.inverseRelationship = b
            b.inverseRelationship = a
        }
        let person = NSEntityDescription(), team = NSEntityDescription()
        let pet = NSEntityDescription(), club = NSEntityDescription()
        person.name = "Person"; team.name = "Team"; pet.name = "Pet"; club.name = "Club"
        let personTeam = relationship("team", team, toMany: false)
        let teamPeople = relationship("people", person, toMany: true)
        connect(personTeam, teamPeople)
        let personPets = relationship("pets", pet, toMany: true)
        let petOwner = relationship("owner", person, toMany: false)
        connect(personPets, petOwner)
        let personClubs = relationship("clubs", club, toMany: true)
        let clubMembers = relationship("members", person, toMany: true)
        connect(personClubs, clubMembers)
        person.properties = [
            attribute("serial", .integer64AttributeType, indexed: true),
            attribute("name", .stringAttributeType, indexed: true),
            attribute("nickname", .stringAttributeType),
            attribute("age", .integer64AttributeType),
            attribute("score", .doubleAttributeType),
            attribute("active", .booleanAttributeType),
            attribute("born", .dateAttributeType),
            attribute("token", .UUIDAttributeType),
            attribute("avatar", .binaryDataAttributeType),
            attribute("homepage", .URIAttributeType),
            personTeam, personPets, personClubs,
        ]
        team.properties = [attribute("serial", .integer64AttributeType), attribute("title", .stringAttributeType),
                           attribute("rank", .integer64AttributeType), teamPeople]
        pet.properties = [attribute("serial", .integer64AttributeType), attribute("name", .stringAttributeType),
                          attribute("legs", .integer64AttributeType), petOwner]
        club.properties = [attribute("serial", .integer64AttributeType), attribute("name", .stringAttributeType),
                           clubMembers]
        let model = NSManagedObjectModel()
        model.entities = [person, team, pet, club]
        return model
    }

    /// Texts with case, diacritics, ß, CJK, LIKE/regex/SQL wildcards and the empty string.
    static let texts: [String?] = [
        "Ångström", "angstrom", "ANGSTRÖM", "naïve", "naive", "Éclair", "éclair", "Straße",
        "STRASSE", "Zoë", "zoe", "bob", "Bob", "alice", "Alice", "", "a.b%c_d", "日本語", "Łódź",
        "x*y?z", "[x]", "O'Brien", "50%", nil,
    ]

    /// Fills `context` with a reproducible graph from `seed`.
    static func populate(_ context: NSManagedObjectContext, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func maybe<T>(_ value: T) -> T? { random.next(6) == 0 ? nil : value }
        var serial: Int64 = 0
        func insert(_ entity: String) -> NSManagedObject {
            serial += 1
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            object.setValue(serial, forKey: "serial")
            return object
        }
        let teams = (0..<5).map { _ -> NSManagedObject in
            let team = insert("Team")
            team.setValue(texts[random.next(texts.count)], forKey: "title")
            team.setValue(maybe(Int64(random.next(5))), forKey: "rank")
            return team
        }
        let clubs = (0..<4).map { _ -> NSManagedObject in
            let club = insert("Club")
            club.setValue(texts[random.next(texts.count)], forKey: "name")
            return club
        }
        for _ in 0..<40 {
            let person = insert("Person")
            person.setValue(texts[random.next(texts.count)], forKey: "name")
            person.setValue(texts[random.next(texts.count)], forKey: "nickname")
            person.setValue(maybe(Int64(random.next(60)) - 5), forKey: "age")
            person.setValue(maybe(Double(random.next(200)) / 4 - 3), forKey: "score")
            person.setValue(maybe(random.next(2) == 0), forKey: "active")
            person.setValue(maybe(Date(timeIntervalSinceReferenceDate: Double(random.next(10)) * 86_400)), forKey: "born")
            person.setValue(maybe(uuids[random.next(uuids.count)]), forKey: "token")
            person.setValue(maybe(datas[random.next(datas.count)]), forKey: "avatar")
            person.setValue(maybe(urls[random.next(urls.count)]), forKey: "homepage")
            if random.next(5) != 0 { person.setValue(teams[random.next(teams.count)], forKey: "team") }
            for _ in 0..<random.next(4) {
                let pet = insert("Pet")
                pet.setValue(texts[random.next(texts.count)], forKey: "name")
                pet.setValue(maybe(Int64(random.next(5))), forKey: "legs")
                pet.setValue(person, forKey: "owner")
            }
            person.setValue(Set(clubs.filter { _ in random.next(3) == 0 }), forKey: "clubs")
        }
    }

    /// Binary values, the empty one included.
    static let datas = [Data(), Data([0]), Data([1, 2, 3]), Data([0xFF, 0x00, 0x7F])]

    /// URIs, some differing only in case or a trailing slash.
    static let urls = [
        URL(string: "https://example.com/")!, URL(string: "https://example.com")!,
        URL(string: "https://EXAMPLE.com/")!, URL(string: "file:///tmp/a%20b")!,
        URL(string: "mailto:ann@example.com")!,
    ]

    static let uuids = [
        UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
        UUID(uuidString: "F0000000-0000-0000-0000-000000000002")!,
    ]
}
