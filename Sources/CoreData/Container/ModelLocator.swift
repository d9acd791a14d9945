import Foundation

/// PLACEHOLDER until the model loader lands: finds no model.
enum ModelLocator {
    static func model(named name: String) throws -> NSManagedObjectModel {
        throw CoreDataError.make(NSCoreDataError, "No model named \(name) (model files are not supported yet).")
    }
}
