import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The container test suites written for Apple subclass: a SQLite store at `/dev/null` (in
/// memory, Apple's idiom for tests) or in a folder of its own.
final class MembersContainer: NSPersistentContainer, @unchecked Sendable {
    /// Keeps an on-disk store's folder for as long as the container lives.
    var folder: TemporaryDirectory?

    static func make(onDisk: Bool = false) throws -> MembersContainer {
        if onDisk {
            let folder = try TemporaryDirectory()
            let container = try make(at: folder.file("Shop.sqlite"))
            container.folder = folder
            return container
        }
        return try make(at: URL(fileURLWithPath: "/dev/null"))
    }

    /// A container on the store at `url` (another container may have it open too).
    static func make(at url: URL, model: NSManagedObjectModel = TestModel.make()) throws -> MembersContainer {
        let container = MembersContainer(name: "Shop", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}

/// Code written for Apple's deprecated context lock reaches it as such code does; the
/// protocol keeps the deprecation warning out of this build.
private protocol LegacyContextLocking: NSLocking, Sendable {
    func tryLock() -> Bool
}
extension NSManagedObjectContext: LegacyContextLocking {}

/// A value a closure run on another thread fills in (the test waits for it).
final class UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: written by one thread while the test waits on a semaphore.
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite struct ContextMembersTests {
    @Test("NSManagedObjectContextConcurrencyType and the .privateQueue/.mainQueue spellings make the same contexts")
    func concurrencyTypes() throws {
        let classic = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let modern = NSManagedObjectContext(.privateQueue)
        #expect(classic.concurrencyType == .privateQueueConcurrencyType)
        #expect(modern.concurrencyType == classic.concurrencyType)
        let main: NSManagedObjectContextConcurrencyType = .mainQueueConcurrencyType
        #expect(NSManagedObjectContext.ConcurrencyType.mainQueue.rawValue == main)
        #expect(NSManagedObjectContext.ConcurrencyType(rawValue: .privateQueueConcurrencyType) == .privateQueue)
        #expect(NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType.rawValue == 1)
        #expect(NSManagedObjectContextConcurrencyType(rawValue: 2) == .mainQueueConcurrencyType)
        #expect(NSManagedObjectContext(.mainQueue).concurrencyType == .mainQueueConcurrencyType)
    }

    @Test("userInfo is one mutable dictionary kept with the context")
    func userInfo() throws {
        let container = try MembersContainer.make()
        let context = container.newBackgroundContext()
        context.userInfo["importer"] = "nightly"
        context.userInfo.setObject(3, forKey: "batch" as NSString)
        #expect(context.userInfo["importer"] as? String == "nightly")
        #expect(context.userInfo === context.userInfo)
        #expect(context.userInfo.count == 2)
        #expect(container.newBackgroundContext().userInfo.count == 0)
    }

    @Test("lock(), tryLock() and unlock() exclude other threads, and the lock is recursive")
    func legacyLock() throws {
        let context: LegacyContextLocking = try MembersContainer.make().newBackgroundContext()
        /// `tryLock()` on another thread (a `sync` block may run on the calling thread).
        func tryLockElsewhere() -> Bool {
            let result = UncheckedBox(false)
            let done = DispatchSemaphore(value: 0)
            Thread {
                result.value = context.tryLock()
                if result.value { context.unlock() }
                done.signal()
            }.start()
            done.wait()
            return result.value
        }
        context.lock()
        #expect(context.tryLock()) // recursive on the owning thread
        #expect(!tryLockElsewhere())
        context.unlock()
        context.unlock()
        #expect(tryLockElsewhere())
        context.withLock { }
    }

    @Test("performAndWait: a Void block picks the plain overload, values and errors go through the generic one")
    func performAndWaitOverloads() throws {
        let container = try MembersContainer.make()
        let context = container.newBackgroundContext()
        var names: [String] = []
        context.performAndWait {
            let item = ShoppingItem(context: context)
            item.name = "Milk"
            names.append(item.name ?? "")
        }
        let count = try context.performAndWait { try context.count(for: ShoppingItem.fetchRequest()) }
        try context.performAndWait { try context.save() }
        let saved = context.performAndWait { () -> Bool in
            let hasChanges = context.hasChanges
            return !hasChanges
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) { try context.performAndWait { throw Refused() } }
        #expect(names == ["Milk"])
        #expect(count == 1)
        #expect(saved)
    }

    @Test("perform runs its block on the context's queue, after the caller goes on")
    func performRunsOnQueue() throws {
        let container = try MembersContainer.make()
        let context = container.newBackgroundContext()
        let done = DispatchSemaphore(value: 0)
        context.perform {
            _ = ShoppingItem(context: context)
            done.signal()
        }
        done.wait()
        #expect(context.performAndWait { context.insertedObjects.count } == 1)
    }

    @Test("the async perform returns its block's value and throws its error")
    func asyncPerform() async throws {
        let container = try MembersContainer.make()
        let context = container.newBackgroundContext()
        let inserted = await context.perform {
            ShoppingItem(context: context).name = "Tea"
            return context.insertedObjects.count
        }
        #expect(inserted == 1)
        let count = try await context.perform(schedule: .enqueued) {
            try context.save()
            return try context.fetch(ShoppingItem.fetchRequest()).count
        }
        #expect(count == 1)
    }
}
