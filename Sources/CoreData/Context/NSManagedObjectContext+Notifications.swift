import Foundation

// MARK: - Notification names and userInfo keys (Apple's strings)

extension NSNotification.Name {
    public static let NSManagedObjectContextObjectsDidChange = NSNotification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    public static let NSManagedObjectContextWillSave = NSNotification.Name("NSManagedObjectContextWillSaveNotification")
    public static let NSManagedObjectContextDidSave = NSNotification.Name("NSManagedObjectContextDidSaveNotification")
}

public let NSInsertedObjectsKey = "inserted"
public let NSUpdatedObjectsKey = "updated"
public let NSDeletedObjectsKey = "deleted"
public let NSRefreshedObjectsKey = "refreshed"
public let NSInvalidatedObjectsKey = "invalidated"
public let NSInvalidatedAllObjectsKey = "invalidatedAll"

extension NSManagedObjectContext {
    public static let didChangeObjectsNotification = NSNotification.Name.NSManagedObjectContextObjectsDidChange
    public static let willSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextWillSave
    public static let didSaveObjectsNotification = NSNotification.Name.NSManagedObjectContextDidSave

    func post(_ name: NSNotification.Name, _ userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
