import Foundation
import CoreData
import CoreDataTestSupport

/// A dish on a menu: the managed object the fetched results controller tests list, in
/// sections by cuisine.
final class Dish: NSManagedObject {
    @Managed var title: String?
    @Managed var cuisine: String?
    @Managed var rating: Int64
}

enum Menu {
    /// A model with the `Dish` entity.
    static func model() -> NSManagedObjectModel {
        let dish = entity("Dish", [attribute("title", .stringAttributeType),
                                   attribute("cuisine", .stringAttributeType),
                                   attribute("rating", .integer64AttributeType)])
        dish.managedObjectClassName = String(reflecting: Dish.self)
        let model = NSManagedObjectModel()
        model.entities = [dish]
        return model
    }

    /// A stack with the menu model (in memory unless told).
    static func stack(_ storeType: String = NSInMemoryStoreType) throws -> TestStack {
        try TestStack(storeType: storeType, model: model())
    }

    /// Inserts dishes, each as (title, cuisine, rating).
    @discardableResult
    static func add(_ dishes: [(String, String, Int64)], to context: NSManagedObjectContext) -> [Dish] {
        dishes.map { title, cuisine, rating in
            let dish = Dish(context: context)
            dish.title = title
            dish.cuisine = cuisine
            dish.rating = rating
            return dish
        }
    }

    /// Dishes by cuisine, then title.
    static func request(predicate: NSPredicate? = nil) -> NSFetchRequest<Dish> {
        let request = NSFetchRequest<Dish>(entityName: "Dish")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(key: "cuisine", ascending: true),
                                   NSSortDescriptor(key: "title", ascending: true)]
        return request
    }

    /// Dishes by title only.
    static func byTitle(predicate: NSPredicate? = nil) -> NSFetchRequest<Dish> {
        let request = NSFetchRequest<Dish>(entityName: "Dish")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return request
    }
}

/// A delegate that writes down every callback, the way table view code reacts to them.
final class ChangeRecorder: NSObject, NSFetchedResultsControllerDelegate {
    enum Event: Equatable, CustomStringConvertible {
        case willChange
        case didChange
        case section(String, Int, NSFetchedResultsChangeType)
        case object(String, IndexPath?, NSFetchedResultsChangeType, IndexPath?)

        var description: String {
            switch self {
            case .willChange: return "will"
            case .didChange: return "did"
            case let .section(name, index, type): return "section \(name) \(index) \(type.rawValue)"
            case let .object(title, old, type, new):
                return "object \(title) \(old.map { "\($0)" } ?? "-") \(type.rawValue) \(new.map { "\($0)" } ?? "-")"
            }
        }
    }

    var events: [Event] = []
    /// The controllers the callbacks received.
    var controllers: [NSFetchedResultsController<NSFetchRequestResult>] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        controllers.append(controller)
        events.append(.willChange)
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        events.append(.section(sectionInfo.name, sectionIndex, type))
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        events.append(.object((anObject as! Dish).title ?? "?", indexPath, type, newIndexPath))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append(.didChange)
    }
}

extension NSFetchedResultsController where ResultType == Dish {
    /// The titles of each section's dishes.
    var titlesBySection: [[String]] {
        (sections ?? []).map { ($0.objects as? [Dish] ?? []).map { $0.title ?? "?" } }
    }
}
