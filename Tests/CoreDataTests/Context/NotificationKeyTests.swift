import CoreData
import Foundation
import Testing

@Suite struct NotificationKeyTests {
    @Test("NotificationKey's raw values are the userInfo keys a context's notifications use")
    func notificationKeysMatchTheUserInfoKeys() {
        typealias Key = NSManagedObjectContext.NotificationKey
        let pairs: [(Key, String)] = [
            (.insertedObjects, NSInsertedObjectsKey), (.updatedObjects, NSUpdatedObjectsKey),
            (.deletedObjects, NSDeletedObjectsKey), (.refreshedObjects, NSRefreshedObjectsKey),
            (.invalidatedObjects, NSInvalidatedObjectsKey), (.invalidatedAllObjects, NSInvalidatedAllObjectsKey),
            (.insertedObjectIDs, NSInsertedObjectIDsKey), (.updatedObjectIDs, NSUpdatedObjectIDsKey),
            (.deletedObjectIDs, NSDeletedObjectIDsKey), (.refreshedObjectIDs, NSRefreshedObjectIDsKey),
            (.invalidatedObjectIDs, NSInvalidatedObjectIDsKey),
            (.queryGeneration, NSManagedObjectContextQueryGenerationKey),
        ]
        for (key, string) in pairs {
            #expect(key.rawValue == string)
            #expect(Key(rawValue: string) == key)
        }
    }

    @Test("The object-ID notifications and keys carry Apple's strings")
    func objectIDNotificationsUseApplesStrings() {
        #expect(NSManagedObjectContext.didSaveObjectIDsNotification.rawValue
                == "NSManagedObjectContextDidSaveObjectIDsNotification")
        #expect(NSManagedObjectContext.didMergeChangesObjectIDsNotification
                == .NSManagedObjectContextDidMergeChangesObjectIDs)
        #expect(NSInsertedObjectIDsKey == "inserted_objectIDs")
        #expect(NSNotification.Name.NSPersistentStoreCoordinatorStoresDidChange.rawValue
                == "NSPersistentStoreCoordinatorStoresDidChangeNotification")
        #expect([NSAddedPersistentStoresKey, NSRemovedPersistentStoresKey, NSUUIDChangedPersistentStoresKey]
                == ["added", "removed", "UUIDChanged"])
    }
}
