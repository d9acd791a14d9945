import CoreData
import Foundation

/// Every object of the coordinator's stores as text, independent of `Z_PK`: its entity and
/// attribute values, then each relationship as the sorted texts of the objects it points at
/// (an ordered relationship in its order). Sorted, so two stores holding the same graph give
/// the same lines, whatever their keys: how migration tests compare a store with Apple's.
public func storeSnapshot(_ coordinator: NSPersistentStoreCoordinator) throws -> [String] {
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return try context.performAndWait {
        func identity(_ object: NSManagedObject) -> String {
            let attributes = object.entity.attributesByName.filter { !$0.value.isTransient }.keys.sorted()
            let values = attributes.map { "\($0)=\(object.value(forKey: $0).map { "\($0)" } ?? "nil")" }
            return "\(object.entity.name ?? "?")(\(values.joined(separator: ",")))"
        }
        var result: [String] = []
        for entity in coordinator.managedObjectModel.entities where !entity.isAbstract {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                var text = identity(object)
                for name in entity.relationshipsByName.keys.sorted() {
                    var members: [String] = []
                    switch object.value(forKey: name) {
                    case let one as NSManagedObject: members = [identity(one)]
                    case let set as Set<NSManagedObject>: members = set.map(identity).sorted()
                    case let set as NSSet: members = set.compactMap { ($0 as? NSManagedObject).map(identity) }.sorted()
                    case let ordered as NSOrderedSet: members = ordered.compactMap { ($0 as? NSManagedObject).map(identity) }
                    default: break
                    }
                    text += " \(name)->[\(members.joined(separator: "; "))]"
                }
                result.append(text)
            }
        }
        return result.sorted()
    }
}
