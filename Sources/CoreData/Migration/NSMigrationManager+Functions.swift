import Foundation

// MARK: - What value expressions read from `$manager`

extension NSMigrationManager: PredicateFunctionTarget {
    /// `FUNCTION($manager, "selector:", …)`: the selectors Xcode's mapping models call.
    func predicateFunctionValue(selector: String, arguments: [Any?]) throws -> Any? {
        func string(_ index: Int) throws -> String {
            guard index < arguments.count, let text = arguments[index] as? String else {
                throw CoreDataError.make(NSMigrationError,
                    "FUNCTION($manager, \"\(selector)\", …) needs a string as argument \(index + 1).")
            }
            return text
        }
        func objects(_ index: Int) -> [NSManagedObject] {
            index < arguments.count ? Self.objects(in: arguments[index]) : []
        }
        switch selector {
        case "fetchRequestForSourceEntityNamed:predicateString:":
            let request = NSFetchRequest<NSManagedObject>(entityName: try string(0))
            let format = try string(1)
            if format != "TRUEPREDICATE" {
                request.predicate = try NSPredicate(validatingFormat: format, argumentArray: [])
            }
            return request
        case "destinationInstancesForEntityMappingNamed:sourceInstances:":
            return destinationInstances(forEntityMappingName: try string(0), sourceInstances: objects(1))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:":
            return sourceInstances(forEntityMappingName: try string(0), destinationInstances: objects(1))
        case "destinationInstancesForSourceRelationshipNamed:sourceInstances:":
            return destinationInstances(forSourceRelationshipNamed: try string(0), sourceInstances: objects(1))
        default:
            throw CoreDataError.make(NSMigrationError,
                "NSMigrationManager does not answer FUNCTION($manager, \"\(selector)\", …).")
        }
    }

    /// The destination objects made, by any entity mapping, from `sourceInstances` (the
    /// members of the current mapping's source relationship `name`), in their order.
    func destinationInstances(forSourceRelationshipNamed name: String, sourceInstances: [NSManagedObject]) -> [NSManagedObject] {
        let target = currentEntityMapping.destinationEntityName
            .flatMap { destinationModel.entitiesByName[$0]?.relationshipsByName[name]?.destinationEntity }
        var result: [NSManagedObject] = []
        for source in sourceInstances {
            for mapping in mappingModel.entityMappings ?? [] {
                for destination in destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: [source])
                where target.map({ destination.entity.isKindOf(entity: $0) }) ?? true {
                    result.append(destination)
                }
            }
        }
        return result
    }
}

extension NSMigrationManager: KeyValueReading {
    /// `$manager.<key>` in a value expression.
    func predicateValue(forKey key: String) throws -> Any? {
        switch key {
        case "sourceContext": return sourceContext
        case "destinationContext": return destinationContext
        case "sourceModel": return sourceModel
        case "destinationModel": return destinationModel
        case "mappingModel": return mappingModel
        case "currentEntityMapping": return currentEntityMapping
        case "migrationProgress": return NSNumber(value: migrationProgress)
        case "userInfo": return userInfo.map { NSDictionary(dictionary: $0) }
        case "usesStoreSpecificMigrationManager": return usesStoreSpecificMigrationManager
        default:
            throw PredicateEvaluationError.unknownKey(
                "[<NSMigrationManager> valueForUndefinedKey:]: this class is not key value coding-compliant for the key \(key).")
        }
    }
}
