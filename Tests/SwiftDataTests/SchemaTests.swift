import CoreData
import Foundation
@testable import SwiftData
import Testing

@Suite struct SchemaTests {
    private func model(_ types: any PersistentModel.Type...) throws -> NSManagedObjectModel {
        try ModelContainer(for: Schema(types), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            .persistentContainer.managedObjectModel
    }

    @Test("@Model writes a key-path table of every persisted property, without @Transient ones")
    func schemaMetadata() {
        let names = Trip.schemaMetadata.map(\.name)
        #expect(names == ["name", "destination", "startDate", "budget", "isFavorite", "notes", "rating", "kind",
                          "stops", "city"])
        #expect(Trip.schemaMetadata[0].keypath == \Trip.name)
        #expect(Trip.schemaMetadata.first { $0.name == "stops" }?.metadata is Schema.Relationship)
    }

    @Test("Each class is an entity named after the class, with Apple's attribute types")
    func entitiesAndAttributes() throws {
        let model = try model(Trip.self)
        #expect(Set(model.entitiesByName.keys) == ["Trip", "Stop", "City"])
        let trip = try #require(model.entitiesByName["Trip"])
        let attributes = trip.attributesByName
        #expect(attributes["name"]?.attributeType == .stringAttributeType)
        #expect(attributes["name"]?.isOptional == false)
        #expect(attributes["notes"]?.isOptional == true)
        #expect(attributes["startDate"]?.attributeType == .dateAttributeType)
        #expect(attributes["budget"]?.attributeType == .doubleAttributeType)
        #expect(attributes["isFavorite"]?.attributeType == .booleanAttributeType)
        #expect(attributes["rating"]?.attributeType == .integer64AttributeType)
        #expect(attributes["kind"]?.attributeType == .stringAttributeType)
        #expect(attributes["viewCount"] == nil)

        let photo = try #require(try self.model(Photo.self).entitiesByName["Photo"])
        #expect(photo.attributesByName["data"]?.attributeType == .binaryDataAttributeType)
        #expect(photo.attributesByName["data"]?.allowsExternalBinaryDataStorage == true)
        #expect(photo.attributesByName["title"]?.renamingIdentifier == "caption")
        #expect(photo.attributesByName["title"]?.versionHashModifier == "v2")
        #expect(photo.attributesByName["identifier"]?.attributeType == .UUIDAttributeType)
        #expect(photo.attributesByName["link"]?.attributeType == .URIAttributeType)
        #expect(photo.attributesByName["size"]?.attributeType == .integer32AttributeType)
        #expect(photo.attributesByName["ratio"]?.attributeType == .floatAttributeType)
    }

    @Test("Relationships pair with their inverses: named with inverse:, or the one pointing back")
    func relationships() throws {
        let model = try model(Trip.self)
        let trip = try #require(model.entitiesByName["Trip"])
        let stops = try #require(trip.relationshipsByName["stops"])
        #expect(stops.isToMany)
        #expect(stops.deleteRule == .cascadeDeleteRule)
        #expect(stops.destinationEntity?.name == "Stop")
        #expect(stops.inverseRelationship?.name == "trip")
        let city = try #require(trip.relationshipsByName["city"])
        #expect(!city.isToMany)
        #expect(city.deleteRule == .nullifyDeleteRule)
        #expect(city.inverseRelationship?.name == "trips")
        #expect(model.entitiesByName["City"]?.relationshipsByName["trips"]?.inverseRelationship === city)
    }

    @Test("@Attribute(.unique) becomes a uniqueness constraint")
    func unique() throws {
        let city = try #require(try model(City.self).entitiesByName["City"])
        #expect(city.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["code"]])
    }

    @Test("A property type with no store mapping fails at container creation with a clear error")
    func unsupportedType() {
        #expect(throws: SwiftDataError.unsupportedType) {
            _ = try ModelContainer(for: Unmappable.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
    }
}
