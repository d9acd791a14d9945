import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

@Suite struct FetchRequestCopyingTests {
    @Test("a copied fetch request fetches the same objects and changes without touching the original")
    func copyIsIndependent() throws {
        let stack = try TestStack()
        for name in ["Apples", "Bread", "Cheese"] { stack.insertItem(name) }
        try stack.context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")
        request.predicate = NSPredicate(format: "name != 'Bread'")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.fetchLimit = 10
        let copy = try #require(request.copy() as? NSFetchRequest<NSManagedObject>)
        #expect(copy !== request)
        #expect(copy.predicate == request.predicate && copy.fetchLimit == 10)
        #expect(try stack.context.fetch(copy).count == 2)
        copy.predicate = nil
        copy.fetchLimit = 1
        #expect(request.predicate != nil && request.fetchLimit == 10)
        #expect(try stack.context.fetch(copy).count == 1)
        #expect(try stack.context.fetch(request).count == 2)

        let plain = NSPersistentStoreRequest()
        plain.affectedStores = stack.coordinator.persistentStores
        let plainCopy = try #require(plain.copy() as? NSPersistentStoreRequest)
        #expect(plainCopy.affectedStores?.first === stack.coordinator.persistentStores.first)
    }

    @Test("results are NSObjectProtocol values, and NSFetchRequest<NSFetchRequestResult> still fetches")
    func resultProtocol() throws {
        let stack = try TestStack()
        let milk = stack.insertItem("Milk")
        try stack.context.save()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "ShoppingItem")
        let results = try stack.context.fetch(request)
        let first = try #require(results.first)
        let object: any NSObjectProtocol = first
        #expect(object.isEqual(milk))
        #expect(first.hash == milk.hash)
        request.resultType = .managedObjectIDResultType
        let ids = try stack.context.fetch(request)
        #expect(ids.first?.isEqual(milk.objectID) == true)
    }

    @Test("an asynchronous fetch's completionBlock is Apple's untyped block and reaches the typed one")
    func asynchronousCompletionBlock() throws {
        let stack = try TestStack()
        stack.insertItem("Milk")
        try stack.context.save()
        #expect(NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")).completionBlock == nil)

        let received = LockedBox<[String]>([])
        let typed = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem")) { result in
            received.value = result.finalResult?.compactMap { $0.value(forKey: "name") as? String } ?? []
        }
        let block: NSPersistentStoreAsynchronousFetchResultCompletionBlock = try #require(typed.completionBlock)
        let finished = try #require(try stack.context.execute(typed) as? NSAsynchronousFetchResult<NSManagedObject>)
        stack.context.performAndWait {}
        #expect(received.value == ["Milk"])
        received.value = []
        let untypedRequest = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "ShoppingItem"))
        block(NSAsynchronousFetchResult(retyping: finished, request: untypedRequest))
        #expect(received.value == ["Milk"])

        let copy = try #require(typed.copy() as? NSAsynchronousFetchRequest<NSManagedObject>)
        #expect(copy.fetchRequest !== typed.fetchRequest)
        #expect(copy.fetchRequest.entityName == "ShoppingItem")
        #expect(copy.completionBlock != nil)
    }
}

/// A value shared with a completion block.
private final class LockedBox<T>: @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
