import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Persistent history carried through a lightweight migration: transactions keep their
// numbers (tokens stay valid), changes name the destination entities, updated properties
// and tombstones follow renamed attributes.

private final class HistoryShelfContainer: NSPersistentContainer, @unchecked Sendable {}

/// Version 1: Author(name) ←→ Book(title, preserved in history on deletion).
private func shelfModel1() -> NSManagedObjectModel {
    let title = attribute("title", .stringAttributeType)
    title.preservesValueInHistoryOnDeletion = true
    let author = entity("Author", [attribute("name", .stringAttributeType)])
    let book = entity("Book", [title])
    let books = relationship("books", to: book, toMany: true), writer = relationship("author", to: author)
    connect(books, writer)
    author.properties.append(books)
    book.properties.append(writer)
    let model = NSManagedObjectModel()
    model.entities = [author, book]
    return model
}

/// Version 2: a new entity that sorts first (every entity number moves), Book renamed
/// Volume, title renamed heading, and two new attributes around it (its bit and its
/// tombstone column move).
private func shelfModel2() -> NSManagedObjectModel {
    let heading = attribute("heading", .stringAttributeType)
    heading.renamingIdentifier = "title"
    heading.preservesValueInHistoryOnDeletion = true
    let edition = attribute("edition", .stringAttributeType)
    edition.preservesValueInHistoryOnDeletion = true
    let author = entity("Author", [attribute("name", .stringAttributeType)])
    let volume = entity("Volume", [edition, heading, attribute("pages", .integer32AttributeType)])
    volume.renamingIdentifier = "Book"
    let books = relationship("books", to: volume, toMany: true), writer = relationship("author", to: author)
    connect(books, writer)
    author.properties.append(books)
    volume.properties.append(writer)
    let model = NSManagedObjectModel()
    model.entities = [entity("Aardvark", [attribute("x", .stringAttributeType)]), author, volume]
    return model
}

private func shelf(_ url: URL, _ model: NSManagedObjectModel) throws -> HistoryShelfContainer {
    let container = HistoryShelfContainer(name: "Shelf", managedObjectModel: model)
    let description = NSPersistentStoreDescription(url: url)
    description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
    container.persistentStoreDescriptions = [description]
    var failure: Error?
    container.loadPersistentStores { _, error in failure = error }
    if let failure { throw failure }
    return container
}

private func transactions(after token: NSPersistentHistoryToken?, in context: NSManagedObjectContext) throws
    -> [NSPersistentHistoryTransaction] {
    try context.performAndWait {
        let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
        return result?.result as? [NSPersistentHistoryTransaction] ?? []
    }
}

/// Each change as `type entity pk`, in order.
private func describe(_ transaction: NSPersistentHistoryTransaction) -> [String] {
    (transaction.changes ?? []).map { change in
        let pk = change.changedObjectID.uriRepresentation().lastPathComponent
        return "\(change.changeType.rawValue) \(change.changedObjectID.entity.name ?? "?") \(pk)"
    }
}

private func unload(_ container: NSPersistentContainer) throws {
    let coordinator = container.persistentStoreCoordinator
    for store in coordinator.persistentStores { try coordinator.remove(store) }
}

@Suite struct LightweightMigrationHistoryTests {
    @Test("history survives a lightweight migration: numbers, tokens, entities, updated properties, tombstones")
    func historyCarriedOver() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Shelf.sqlite")
        let v1 = try shelf(url, shelfModel1())
        let context = v1.viewContext
        let ann = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        ann.setValue("Ann", forKey: "name")
        let a1 = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        a1.setValue("A1", forKey: "title")
        a1.setValue(ann, forKey: "author")
        let b1 = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        b1.setValue("B1", forKey: "title")
        try context.save()
        a1.setValue("A1b", forKey: "title")
        try context.save()
        let afterUpdate = v1.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        context.delete(b1)
        try context.save()
        let before = try transactions(after: nil, in: context)
        #expect(before.count == 3)
        try unload(v1)

        let v2 = try shelf(url, shelfModel2())
        let after = try transactions(after: nil, in: v2.viewContext)
        #expect(after.map(\.transactionNumber) == before.map(\.transactionNumber))
        #expect(after.map(describe) == before.map { describe($0).map { $0.replacingOccurrences(of: "Book", with: "Volume") } })
        let update = try #require(after[1].changes?.first)
        #expect(update.changeType == .update)
        #expect(update.updatedProperties?.map(\.name) == ["heading"])
        let deletion = try #require(after[2].changes?.first { $0.changeType == .delete })
        #expect(deletion.tombstone?["heading"] as? String == "B1")
        #expect(deletion.tombstone?["edition"] == nil)
        // A token taken before the migration still reads what followed it.
        #expect(try transactions(after: afterUpdate, in: v2.viewContext).map(\.transactionNumber) == [before[2].transactionNumber])
        // The inserted object's ID opens the migrated object.
        let inserted = try #require(after[0].changes?.first {
            $0.changedObjectID.entity.name == "Volume" && $0.changedObjectID != deletion.changedObjectID
        })
        let volume = try v2.viewContext.existingObject(with: inserted.changedObjectID)
        #expect(["A1b", "B1"].contains(volume.value(forKey: "heading") as? String))
        let raw = try RawDatabase(url)
        #expect(try raw.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") as? Int64 == 3)
        // Saving after the migration goes on numbering from there.
        NSEntityDescription.insertNewObject(forEntityName: "Aardvark", into: v2.viewContext).setValue("x", forKey: "x")
        try v2.viewContext.save()
        #expect(try transactions(after: nil, in: v2.viewContext).map(\.transactionNumber).last == before[2].transactionNumber + 1)
    }

    @Test("Apple's history (CoreDataPlus SampleModel2_V2: 126 changes) survives a migration that renumbers every entity")
    func appleHistoryRenumbered() throws {
        let folder = try TemporaryDirectory()
        let url = try Fixtures.copyStore("alemar11_CoreDataPlus__SampleModel2_V2.sqlite", to: folder)
        // Our version hash of the derived attribute Book.pagesCount differs from Apple's (a
        // known issue, see ModelCacheTests): the store's hashes are first set to those we
        // compute for its cached model, so that the model is found as the store's own.
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        metadata[NSStoreModelVersionHashesKey] = try NSManagedObjectModel(cachedInStoreAt: url).entityVersionHashesByName
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let rawBefore = try RawDatabase(url)
        let entitiesBefore = try rawBefore.rows("SELECT ZENTITY, COUNT(*) FROM ACHANGE GROUP BY ZENTITY ORDER BY ZENTITY")
            .map { "\($0[0] as? Int64 ?? -1):\($0[1] as? Int64 ?? -1)" }
        let original = try shelf(url, try NSManagedObjectModel(cachedInStoreAt: url))
        let before = try transactions(after: nil, in: original.viewContext)
        try unload(original)
        #expect(before.count == 1)
        #expect(before.first?.changes?.count == 126)

        let model = try NSManagedObjectModel(cachedInStoreAt: url)
        model.entities.append(entity("Aardvark", [attribute("x", .stringAttributeType)]))
        let migrated = try shelf(url, model)
        let after = try transactions(after: nil, in: migrated.viewContext)
        #expect(after.map(\.transactionNumber) == before.map(\.transactionNumber))
        #expect(after.map(describe) == before.map(describe))
        #expect(after.first?.author == before.first?.author)
        #expect(after.first?.bundleID == before.first?.bundleID)
        // Every change's entity number moved up by one (Aardvark is entity 1 now).
        let entitiesAfter = try RawDatabase(url).rows("SELECT ZENTITY, COUNT(*) FROM ACHANGE GROUP BY ZENTITY ORDER BY ZENTITY")
            .map { "\($0[0] as? Int64 ?? -1):\($0[1] as? Int64 ?? -1)" }
        #expect(entitiesAfter == entitiesBefore.map { pair in
            let parts = pair.split(separator: ":").map { Int64($0)! }
            return "\(parts[0] + 1):\(parts[1])"
        })
    }
}
