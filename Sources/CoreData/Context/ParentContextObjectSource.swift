import Foundation

/// A child context's source: its parent context, asked on the parent's own queue
/// (`performAndWait`, re-entrant). Fetches and faults see the parent's unsaved changes; a
/// save becomes the parent's unsaved changes. The parent's side of these questions is in
/// NSManagedObjectContext+ChildRequests.swift.
final class ParentContextObjectSource: ObjectSource {
    let parent: NSManagedObjectContext

    init(_ parent: NSManagedObjectContext) {
        self.parent = parent
    }

    var coordinator: NSPersistentStoreCoordinator? { parent.persistentStoreCoordinator }
    var parentContext: NSManagedObjectContext? { parent }
    var writesToStores: Bool { false }
    var saveNotificationSender: AnyObject? { parent }

    func isChanged(bySaveOf saver: NSManagedObjectContext) -> Bool { saver === parent }

    // MARK: - Fetching

    /// The parent runs the query for object IDs (its unsaved changes included); the child
    /// registers faults for them.
    private func objectIDs(_ query: SourceQuery) throws -> [NSManagedObjectID] {
        let upward = NSFetchRequest<NSManagedObjectID>()
        upward.entity = query.entity
        upward.predicate = query.predicate
        upward.sortDescriptors = query.sortDescriptors
        upward.includesSubentities = query.includesSubentities
        upward.affectedStores = query.affectedStores
        upward.resultType = .managedObjectIDResultType
        upward.includesPendingChanges = true
        upward.fetchLimit = query.fetchLimit
        upward.fetchOffset = query.fetchOffset
        return try parent.performAndWait { try parent.fetch(upward) }
    }

    func fetchObjects(_ query: SourceQuery, into context: NSManagedObjectContext) throws -> SourceAnswer {
        let objects = try objectIDs(query).compactMap(context.object(forSourceID:))
        return SourceAnswer(objects: objects, isOrdered: true)
    }

    /// The parent counts with its own unsaved changes.
    func count(_ query: SourceQuery) throws -> Int? {
        let upward = NSFetchRequest<NSManagedObjectID>()
        upward.entity = query.entity
        upward.predicate = query.predicate
        upward.includesSubentities = query.includesSubentities
        upward.affectedStores = query.affectedStores
        upward.includesPendingChanges = true
        upward.fetchLimit = query.fetchLimit
        upward.fetchOffset = query.fetchOffset
        return try parent.performAndWait { try parent.count(for: upward) }
    }

    /// Prefetching reads the stores, which do not hold the parent's unsaved changes: a
    /// child's related objects fault through the parent instead.
    ///
    /// - Note: Apple parity: Apple's child contexts prefetch; ours fault the same objects in
    ///   one parent request per relationship as they are touched.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject], in context: NSManagedObjectContext) throws {}

    // MARK: - Objects

    /// The parent's current values (not only its saved ones): staleness does not apply.
    func row(for objectID: NSManagedObjectID, maxAge: TimeInterval) throws -> StoreRow? {
        try parent.snapshotRow(for: objectID)
    }

    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try parent.snapshotRow(for: objectID)
    }

    func relatedObjects(_ relationship: NSRelationshipDescription, of object: NSManagedObject,
                        into context: NSManagedObjectContext) throws -> [NSManagedObject] {
        try parent.relatedIDs(relationship, of: object.objectID).compactMap(context.object(forSourceID:))
    }

    func knowsObject(withTemporaryID objectID: NSManagedObjectID) -> Bool {
        parent.knowsObject(objectID)
    }

    func checkExistence(of objectID: NSManagedObjectID) throws -> StoreRow? {
        try parent.checkExistingObject(objectID)
        return nil
    }

    func permanentIDs(for objectIDs: [NSManagedObjectID]) throws -> [NSManagedObjectID] {
        try parent.permanentIDs(forTemporaryIDs: objectIDs)
    }

    // MARK: - Saving

    func save(_ changes: SaveChanges, from context: NSManagedObjectContext) throws {
        let batch = ChildSaveBatch(child: context, changes: changes)
        try batch.push(to: parent)
        try batch.commit()
    }
}
