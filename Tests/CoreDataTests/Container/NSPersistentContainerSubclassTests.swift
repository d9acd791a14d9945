import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The common `class AppContainer: NSPersistentContainer {}`: no initializer of its own (Swift 6
/// asks subclasses to restate `@unchecked Sendable`; see README, "Differences").
private final class AppContainer: NSPersistentContainer, @unchecked Sendable {}

/// A test container that keeps its stores in a folder of its own, the way test suites
/// written for Apple override `defaultDirectoryURL()`.
private final class ScratchContainer: NSPersistentContainer, @unchecked Sendable {
    static let folder = try! TemporaryDirectory()
    override class func defaultDirectoryURL() -> URL { folder.url.appendingPathComponent("Stores", isDirectory: true) }
}

/// A container that overrides the designated initializer: `init(name:)` must reach it.
private final class CountingContainer: NSPersistentContainer, @unchecked Sendable {
    nonisolated(unsafe) static var designatedCalls: [String] = []
    static let lock = NSLock()

    override init(name: String, managedObjectModel model: NSManagedObjectModel) {
        Self.lock.lock()
        Self.designatedCalls.append(name)
        Self.lock.unlock()
        super.init(name: name, managedObjectModel: model)
    }
}

@Suite struct NSPersistentContainerSubclassTests {
    @Test("a subclass with no initializer of its own is made by both initializers and is what they return")
    func plainSubclass() throws {
        let folder = try TemporaryDirectory()
        let container = AppContainer(name: "Shop", managedObjectModel: TestModel.make())
        #expect(type(of: container) == AppContainer.self)
        container.persistentStoreDescriptions[0].url = folder.file("Shop.sqlite")
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context).setValue("Weekly", forKey: "title")
            try context.save()
        }
        #expect(type(of: AppContainer(name: "NoSuchModel")) == AppContainer.self)
    }

    @Test("the class property defaultDirectoryURL answers what the class method does, a subclass's override included")
    func defaultDirectoryProperty() {
        #expect(NSPersistentContainer.defaultDirectoryURL == NSPersistentContainer.defaultDirectoryURL())
        #expect(ScratchContainer.defaultDirectoryURL == ScratchContainer.defaultDirectoryURL())
        #expect(ScratchContainer.defaultDirectoryURL != NSPersistentContainer.defaultDirectoryURL)
        let containerClass: NSPersistentContainer.Type = ScratchContainer.self
        #expect(containerClass.defaultDirectoryURL == ScratchContainer.defaultDirectoryURL())
    }

    @Test("an overridden defaultDirectoryURL() decides where the default store goes, through init(name:) too")
    func overriddenDirectory() throws {
        defer { ScratchContainer.folder.remove() }
        let expected = ScratchContainer.defaultDirectoryURL().appendingPathComponent("Shop.sqlite")
        let container = ScratchContainer(name: "Shop", managedObjectModel: TestModel.make())
        #expect(container.persistentStoreDescriptions.first?.url == expected)
        #expect(ScratchContainer(name: "Missing").persistentStoreDescriptions.first?.url
                == ScratchContainer.defaultDirectoryURL().appendingPathComponent("Missing.sqlite"))
        #expect(NSPersistentContainer.defaultDirectoryURL() != ScratchContainer.defaultDirectoryURL())

        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        #expect(FileManager.default.fileExists(atPath: expected.path))
        #expect(container.persistentStoreCoordinator.persistentStores.first?.url == expected)
    }

    @Test("init(name:) goes through the subclass's override of init(name:managedObjectModel:)")
    func convenienceReachesOverride() {
        let name = "Counted\(UUID().uuidString.prefix(8))"
        let container = CountingContainer(name: name)
        #expect(type(of: container) == CountingContainer.self)
        CountingContainer.lock.lock()
        let calls = CountingContainer.designatedCalls
        CountingContainer.lock.unlock()
        #expect(calls.contains(name))
        #expect(container.name == name)
    }

    @Test("a model that is not found still reaches loadPersistentStores' handler, through a subclass too")
    func missingModelThroughSubclass() {
        let container = AppContainer(name: "NoSuchModel\(UUID().uuidString.prefix(6))")
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var failure: NSError?
        container.loadPersistentStores { _, error in failure = error as NSError? }
        #expect(failure?.code == NSFileReadNoSuchFileError)
    }
}
