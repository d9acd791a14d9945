import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct CoordinatorLockingAndMetadataTests {
    @Test("lock() holds other threads' coordinator work until unlock(); tryLock() fails while another thread holds it")
    func locking() throws {
        let stack = try TestStack()
        stack.insertItem("Milk")
        try stack.context.save()
        let coordinator = stack.coordinator
        let background = stack.newContext()

        coordinator.lock()
        // DispatchQueue.sync may run its block on the calling thread: ask from a thread of
        // its own.
        let otherThreadGotLock = onAnotherThread { coordinator.tryLock() }
        #expect(!otherThreadGotLock)
        #expect(coordinator.tryLock()) // recursive for the holding thread
        coordinator.unlock()

        let done = DispatchSemaphore(value: 0)
        let fetched = FetchedCount()
        DispatchQueue.global().async {
            background.performAndWait {
                fetched.value = (try? background.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))) ?? -1
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(fetched.value == nil)
        coordinator.unlock()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(fetched.value == 1)

        let acquired = onAnotherThread { () -> Bool in
            let got = coordinator.tryLock()
            if got { coordinator.unlock() }
            return got
        }
        #expect(acquired)
        func withLock<L: NSLocking>(_ lock: L, _ body: () -> Void) { lock.lock(); body(); lock.unlock() }
        withLock(coordinator) { stack.insertItem("Bread") }
        try stack.context.save()
    }

    @Test("the deprecated metadata spellings read and write a SQLite store's metadata, finding its type from the file")
    func deprecatedMetadataSpellings() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        stack.insertItem("Milk")
        try stack.context.save()
        let url = stack.storeURL
        let uuid = try #require(stack.coordinator.persistentStores.first?.identifier)

        let found = try NSPersistentStoreCoordinator.metadataForPersistentStore(with: url)
        #expect(found[NSStoreUUIDKey] as? String == uuid)
        #expect(found[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        let untyped = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: nil, at: url)
        #expect(untyped[NSStoreUUIDKey] as? String == uuid)

        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType as String?, at: url)
        metadata["appVersion"] = "2.1"
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: nil as String?, at: url)
        let reread = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(reread["appVersion"] as? String == "2.1")
        #expect(reread[NSStoreUUIDKey] as? String == uuid)

        let folder = try TemporaryDirectory()
        #expect(throws: (any Error).self) { try NSPersistentStoreCoordinator.metadataForPersistentStore(with: folder.file("none.sqlite")) }
        let text = folder.file("notes.txt")
        try Data("not a store".utf8).write(to: text)
        // No built-in type reads a text file; a custom store class registered by another
        // test may claim it (the deprecated call asks every registered type), but never as
        // SQLite.
        let claimed = try? NSPersistentStoreCoordinator.metadataForPersistentStore(with: text)
        #expect(claimed?[NSStoreTypeKey] as? String != NSSQLiteStoreType)
        if !NSPersistentStoreCoordinator.registeredStoreTypes.keys.contains(where: { $0 != NSSQLiteStoreType && $0 != NSInMemoryStoreType }) {
            #expect(claimed == nil)
        }
    }

    @Test("registerStoreClass(_:type:) registers a store class under a StoreType for every coordinator")
    func registerByStoreType() throws {
        let type = NSPersistentStore.StoreType(rawValue: "PlistAtomicStore.registeredByType")
        NSPersistentStoreCoordinator.registerStoreClass(PlistAtomicStore.self, type: type)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[type.rawValue] != nil)
        let folder = try TemporaryDirectory()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModel.make())
        let store = try coordinator.addPersistentStore(type: type, at: folder.file("store.plist"))
        #expect(store is PlistAtomicStore)
        NSPersistentStoreCoordinator.registerStoreClass(nil, type: type)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[type.rawValue] == nil)
    }
}

/// A count written by one thread and read by another.
private final class FetchedCount: @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Int?
    var value: Int? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
