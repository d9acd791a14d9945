import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct NSPersistentContainerTests {
    func container(_ directory: URL, name: String = "Shop") -> NSPersistentContainer {
        let container = NSPersistentContainer(name: name, managedObjectModel: TestModel.make())
        container.persistentStoreDescriptions[0].url = directory.appendingPathComponent("\(name).sqlite")
        return container
    }

    @Test("loadPersistentStores creates the store; viewContext and background contexts share it")
    func loadsAndShares() async throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.file("nested/deeper")
        let container = container(directory)
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Shop.sqlite").path))
        let saved = try await container.performBackgroundTask { context in
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
            list.setValue("Weekly", forKey: "title")
            try context.save()
            return list.objectID
        }
        let view = container.viewContext
        #expect(view.concurrencyType == .mainQueueConcurrencyType)
        let list = try view.existingObject(with: saved)
        #expect(list.value(forKey: "title") as? String == "Weekly")
        #expect(container.newBackgroundContext().persistentStoreCoordinator === container.persistentStoreCoordinator)
    }

    @Test("a file that is not SQLite reaches the completion handler as an error and is left as it was")
    func notSQLite() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let url = directory.appendingPathComponent("Shop.sqlite")
        let bytes = Data("this is not a database, just some text that must survive".utf8)
        try bytes.write(to: url)
        var loadError: NSError?
        container(directory).loadPersistentStores { _, error in loadError = error as NSError? }
        let error = try #require(loadError)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test("a read-only store loads and refuses to save")
    func readOnly() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let first = container(directory)
        first.loadPersistentStores { _, error in #expect(error == nil) }
        let context = first.newBackgroundContext()
        try context.performAndWait {
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
            list.setValue("Weekly", forKey: "title")
            try context.save()
        }
        let second = container(directory)
        second.persistentStoreDescriptions[0].isReadOnly = true
        second.loadPersistentStores { _, error in #expect(error == nil) }
        let readOnly = second.newBackgroundContext()
        let lists = try readOnly.performAndWait { try readOnly.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingList")) }
        #expect(lists.count == 1)
        readOnly.performAndWait {
            lists[0].setValue("Changed", forKey: "title")
            #expect(throws: NSError.self) { try readOnly.save() }
        }
    }

    @Test("init(name:) without a model file reports every place it looked when loading")
    func missingModel() {
        let container = NSPersistentContainer(name: "NoSuchModel\(UUID().uuidString.prefix(6))")
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        #expect(loadError?.localizedDescription.contains("NoSuchModel") == true)
    }

    @Test("the default directory is under XDG_DATA_HOME (or ~/.local/share), named after the program")
    func defaultDirectory() {
        let url = NSPersistentContainer.defaultDirectoryURL()
        #expect(url.lastPathComponent == ProcessInfo.processInfo.processName)
        #expect(url.path.contains(".local/share") || ProcessInfo.processInfo.environment["XDG_DATA_HOME"] != nil)
    }

    @Test("store descriptions carry Apple's options")
    func descriptions() {
        let description = NSPersistentStoreDescription(url: FileManager.default.temporaryDirectory.appendingPathComponent("x.sqlite"))
        #expect(description.type == NSSQLiteStoreType)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        description.isReadOnly = true
        #expect(description.options[NSReadOnlyPersistentStoreOption] as? NSNumber == NSNumber(value: true))
    }
}
