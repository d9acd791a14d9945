import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

/// Reads of a SQLite store in WAL mode run on read-only connections of their own, outside
/// the coordinator's lock, so that contexts of one coordinator on different threads fetch
/// at once; writes stay ordered with them (issue 12: two contexts fetching at once).
@Suite struct CoordinatorConcurrentReadTests {
    @Test("while a SQLite read runs, another thread takes the coordinator's lock")
    func readReleasesTheLock() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        stack.insertItem("Milk")
        try stack.context.save()
        let coordinator = stack.coordinator
        let store = try #require(coordinator.persistentStores.first)
        let entity = try #require(stack.model.entitiesByName["ShoppingItem"])

        coordinator.lock()
        var lockedOutside: Bool?
        let count = try coordinator.readOutsideLock(store, { backend in
            lockedOutside = onAnotherThread {
                let got = coordinator.tryLock()
                if got { coordinator.unlock() }
                return got
            }
            return try backend.fetch(FetchPlan(entity: entity)).count
        })
        coordinator.unlock()
        #expect(count == 1)
        #expect(lockedOutside == true)
    }

    @Test("a store in memory is read under the lock")
    func inMemoryReadsUnderTheLock() throws {
        let stack = try TestStack(storeType: NSInMemoryStoreType)
        let store = try #require(stack.coordinator.persistentStores.first)
        stack.coordinator.lock()
        let lockedOutside = try stack.coordinator.readOutsideLock(store, { _ in
            onAnotherThread {
                let got = stack.coordinator.tryLock()
                if got { stack.coordinator.unlock() }
                return got
            }
        })
        stack.coordinator.unlock()
        #expect(!lockedOutside)
    }

    @Test("a save landing while a fault's row is read outside the lock wins: the fault and the row cache get the saved row")
    func saveDuringReadWins() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let item = stack.insertItem("Milk")
        try stack.context.save()
        let objectID = item.objectID
        let coordinator = stack.coordinator
        let store = try #require(coordinator.persistentStores.first)
        let pk = try #require(objectID.primaryKey)
        let writer = stack.newContext()
        let nameSlot = try #require(stack.model.entitiesByName["ShoppingItem"]?.attributesByName["name"]).slot
        func name(_ row: StoreRow?) -> String? {
            row.flatMap { $0.entity.attributesByName["name"]?.swiftValue(of: $0.values.value(at: nameSlot)) as? String }
        }

        coordinator.lock()
        var readFirst: String?
        var saved = false
        let row = try coordinator.readOutsideLock(store, { backend in
            let row = try backend.row(entity: objectID.entity, pk: pk)
            readFirst = readFirst ?? name(row)
            if !saved {
                saved = true
                // Another context renames the item and saves while this read is out.
                let done = DispatchSemaphore(value: 0)
                Thread {
                    writer.performAndWait {
                        let object = writer.object(with: objectID)
                        object.setValue("Bread", forKey: "name")
                        try? writer.save()
                    }
                    done.signal()
                }.start()
                #expect(done.wait(timeout: .now() + 30) == .success)
            }
            return row
        }, keep: { row in
            if let row { coordinator.setRowCacheEntry(row, for: coordinator.cacheKey(store, objectID.entity, pk)) }
        })
        coordinator.unlock()
        #expect(readFirst == "Milk")
        #expect(name(row) == "Bread")
        #expect(name(coordinator.rowCacheEntry(coordinator.cacheKey(store, objectID.entity, pk))) == "Bread")
        let fresh = stack.newContext()
        let bread = fresh.performAndWait { fresh.object(with: objectID).value(forKey: "name") as? String }
        #expect(bread == "Bread")
    }

    @Test("two contexts fetch and fire faults while a third saves: rows stay whole, and the cache ends at the last save")
    func readersAndAWriter() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType)
        let count = 200
        for index in 0..<count { stack.insert("ShoppingItem", ["name": "v0", "quantity": Int64(0), "price": Double(index)]) }
        try stack.context.save()
        let rounds = 20
        let writer = stack.newContext()
        let readers = [stack.newContext(), stack.newContext()]
        let failures = FailureLog()
        let group = DispatchGroup()
        for reader in readers {
            group.enter()
            Thread {
                defer { group.leave() }
                for _ in 0..<rounds {
                    reader.performAndWait {
                        do {
                            let items = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
                            if items.count != count { failures.add("fetched \(items.count) items") }
                            for item in items {
                                let quantity = item.value(forKey: "quantity") as? Int64 ?? -1
                                let name = item.value(forKey: "name") as? String
                                if name != "v\(quantity)" { failures.add("\(name ?? "nil") with quantity \(quantity)") }
                            }
                            reader.reset()
                        } catch {
                            failures.add("\(error)")
                        }
                    }
                }
            }.start()
        }
        group.enter()
        Thread {
            defer { group.leave() }
            writer.performAndWait {
                do {
                    let items = try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "ShoppingItem"))
                    for round in 1...rounds {
                        for item in items {
                            item.setValue(Int64(round), forKey: "quantity")
                            item.setValue("v\(round)", forKey: "name")
                        }
                        try writer.save()
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
        }.start()
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(failures.entries.isEmpty, "\(failures.entries.prefix(5))")

        // Faults of a new context fire from the row cache: it must hold the last save.
        let fresh = stack.newContext()
        let ids = try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "ShoppingItem")
            request.resultType = .managedObjectIDResultType
            return try fresh.fetch(request)
        }
        let names = fresh.performAndWait { Set(ids.map { fresh.object(with: $0).value(forKey: "name") as? String }) }
        #expect(names == ["v\(rounds)"])
    }
}

/// Failures seen by several threads.
private final class FailureLog: @unchecked Sendable {
    // @unchecked Sendable: `stored` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ entry: String) { lock.withLock { stored.append(entry) } }
    var entries: [String] { lock.withLock { stored } }
}
