import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct MainQueueContextTests {
    @Test("a main-queue context runs performAndWait inline on the main queue and perform on the main queue")
    @MainActor
    func mainQueue() async throws {
        let stack = try TestStack()
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = stack.coordinator
        // The main queue, not the main thread: under an async main (as in tests) the
        // main queue runs on worker threads.
        let mainKey = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainKey, value: 1)
        let onMain = context.performAndWait { DispatchQueue.getSpecific(key: mainKey) == 1 }
        #expect(onMain)
        let ranOnMain = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            context.perform { done.resume(returning: DispatchQueue.getSpecific(key: mainKey) == 1) }
        }
        #expect(ranOnMain)
        let count = try await context.perform {
            let list = NSEntityDescription.insertNewObject(forEntityName: "ShoppingList", into: context)
            list.setValue("Main", forKey: "title")
            try context.save()
            return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ShoppingList"))
        }
        #expect(count == 1)
    }
}
