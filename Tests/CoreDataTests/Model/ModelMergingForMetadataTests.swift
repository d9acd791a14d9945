import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct ModelMergingForMetadataTests {
    /// Version 1 and 2 of a note model (2 adds `pinned`), and a separate tag model.
    private static func models() -> (v1: NSManagedObjectModel, v2: NSManagedObjectModel, tags: NSManagedObjectModel) {
        func notes(_ extra: [NSPropertyDescription]) -> NSManagedObjectModel {
            let model = NSManagedObjectModel()
            model.entities = [entity("Note", [attribute("text", .stringAttributeType)] + extra)]
            return model
        }
        let tags = NSManagedObjectModel()
        let tag = entity("Tag", [attribute("label", .stringAttributeType)])
        tags.entities = [tag]
        return (notes([]), notes([attribute("pinned", .booleanAttributeType)]), tags)
    }

    @Test("init(byMerging:forStoreMetadata:) picks the entity versions a store was made with and opens it")
    func picksMatchingVersions() throws {
        let (v1, v2, tags) = Self.models()
        let storeModel = try #require(NSManagedObjectModel(byMerging: [v1, tags]))
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: storeModel)
        stack.insert("Note", ["text": "hello"])
        try stack.context.save()
        let url = stack.storeURL
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)

        let (w1, w2, wTags) = Self.models()
        let merged = try #require(NSManagedObjectModel(byMerging: [w2, w1, wTags], forStoreMetadata: metadata))
        #expect(merged.entitiesByName.keys.sorted() == ["Note", "Tag"])
        #expect(merged.entitiesByName["Note"]?.propertiesByName["pinned"] == nil)
        #expect(merged.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        // The models passed in are untouched: their entities still belong to them.
        #expect(w1.entitiesByName["Note"]?.managedObjectModel === w1)
        #expect(merged.entitiesByName["Note"] !== w1.entitiesByName["Note"])

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: merged)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
        #expect(notes.map { $0.value(forKey: "text") as? String } == ["hello"])
        _ = v2
    }

    @Test("init(byMerging:forStoreMetadata:) answers nil when a stored entity version is missing")
    func nilWithoutMatch() throws {
        let (v1, v2, tags) = Self.models()
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: v1.entityVersionHashesByName
            .merging(tags.entityVersionHashesByName) { a, _ in a }]
        #expect(NSManagedObjectModel(byMerging: [v2, tags], forStoreMetadata: metadata) == nil)
        #expect(NSManagedObjectModel(byMerging: [v1], forStoreMetadata: metadata) == nil)
        #expect(NSManagedObjectModel(byMerging: [v1, tags], forStoreMetadata: [:]) == nil)
    }
}
