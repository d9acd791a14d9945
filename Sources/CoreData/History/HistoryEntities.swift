import Foundation

/// The entity descriptions that describe history transactions and changes to fetch requests
/// (`NSPersistentHistoryTransaction.entityDescription`, `NSPersistentHistoryChange.entityDescription`):
/// their attributes name the keys a history fetch request's predicate can use.
enum HistoryEntities {
    /// `Transaction`: author, bundleID, contextName, processID, storeID, timestamp,
    /// transactionNumber.
    static let transaction: NSEntityDescription = {
        let entity = NSEntityDescription()
        entity.name = "Transaction"
        entity.managedObjectClassName = "NSPersistentHistoryTransaction"
        entity.properties = [
            attribute("author", .stringAttributeType), attribute("bundleID", .stringAttributeType),
            attribute("contextName", .stringAttributeType), attribute("processID", .stringAttributeType),
            attribute("storeID", .stringAttributeType), attribute("timestamp", .dateAttributeType),
            attribute("transactionNumber", .integer64AttributeType),
        ]
        return entity
    }()

    /// `Change`: changeID, changeType, changedEntity, changedObjectID, and the transaction's
    /// keys through `transaction`.
    static let change: NSEntityDescription = {
        let entity = NSEntityDescription()
        entity.name = "Change"
        entity.managedObjectClassName = "NSPersistentHistoryChange"
        entity.properties = [
            attribute("changeID", .integer64AttributeType), attribute("changeType", .integer64AttributeType),
            attribute("changedEntity", .undefinedAttributeType), attribute("changedObjectID", .objectIDAttributeType),
        ]
        return entity
    }()

    private static func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isTransient = type == .undefinedAttributeType
        return attribute
    }

    /// A fetch request for `entity`.
    static func fetchRequest(for entity: NSEntityDescription) -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = entity
        return request
    }
}

// MARK: - Keys a history predicate reads

extension NSPersistentHistoryTransaction: KeyValueReading {
    func predicateValue(forKey key: String) throws -> Any? {
        switch key {
        case "author": author
        case "bundleID": bundleID
        case "contextName": contextName
        case "processID": processID
        case "storeID": storeID
        case "timestamp": timestamp
        case "transactionNumber": transactionNumber
        case "changes": changes
        case "token": token
        default: throw PredicateEvaluationError.unknownKey(key)
        }
    }
}

extension NSPersistentHistoryChange: KeyValueReading {
    func predicateValue(forKey key: String) throws -> Any? {
        switch key {
        case "changeID": changeID
        case "changeType": changeType.rawValue
        case "changedEntity": changedObjectID.entity
        case "changedObjectID": changedObjectID
        case "tombstone": tombstone
        case "updatedProperties": updatedProperties
        case "transaction": transaction
        default: throw PredicateEvaluationError.unknownKey(key)
        }
    }
}
