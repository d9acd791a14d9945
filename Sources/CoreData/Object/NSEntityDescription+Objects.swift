import Foundation

// MARK: - Entities and contexts

extension NSEntityDescription {

    /// The entity named `entityName` in the model of `context`'s coordinator.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.model?.entitiesByName[entityName]
    }

    /// Creates an object of the named entity and inserts it into `context`.
    ///
    /// - Note: Apple parity: an unknown entity name traps, as Apple raises
    ///   `NSInternalInconsistencyException`.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            coreDataMisuse("+entityForName: could not locate an entity named '\(entityName)' in this model.")
        }
        return entity.makeObject(insertInto: context)
    }

    /// An object of this entity's class, inserted into `context`.
    func makeObject(insertInto context: NSManagedObjectContext?) -> NSManagedObject {
        runtime.objectClass.init(entity: self, insertInto: context)
    }
}
