import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct NSBatchInsertRequestTests {
    /// The stored quakes by code, read by a new context (which `reader` keeps).
    private func quakes(_ stack: TestStack, _ reader: inout NSManagedObjectContext?) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        let context = stack.newContext()
        reader = context
        return try context.fetch(request)
    }

    @Test("Dictionaries become rows, with defaults for what they leave out, and every result type answers", arguments: allStoreTypes)
    func resultTypes(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let status = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a", "magnitude": 4.5]])
        let statusResult = try #require(try stack.context.execute(status) as? NSBatchInsertResult)
        #expect(statusResult.resultType == .statusOnly)
        #expect((statusResult.result as? NSNumber)?.boolValue == true)

        let counted = NSBatchInsertRequest(entity: stack.model.entitiesByName["Quake"]!,
                                           objects: [["code": "b"], ["code": "c", "place": "Quito"]])
        counted.resultType = .count
        #expect((try stack.context.execute(counted) as? NSBatchInsertResult)?.result as? Int == 2)

        let ids = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "d", "felt": true, "time": Date(timeIntervalSinceReferenceDate: 60)]])
        ids.resultType = .objectIDs
        let result = try #require(try stack.context.execute(ids) as? NSBatchInsertResult)
        let objectIDs = try #require(result.result as? [NSManagedObjectID])
        #expect(objectIDs.count == 1 && !objectIDs[0].isTemporaryID)
        let other = stack.newContext()
        let d = try other.existingObject(with: objectIDs[0])
        #expect(d.value(forKey: "code") as? String == "d")
        #expect(d.value(forKey: "felt") as? Bool == true)
        #expect(d.value(forKey: "time") as? Date == Date(timeIntervalSinceReferenceDate: 60))

        var reader: NSManagedObjectContext?
        let all = try quakes(stack, &reader)
        #expect(all.map { $0.value(forKey: "code") as? String } == ["a", "b", "c", "d"])
        #expect(all.allSatisfy { $0.value(forKey: "count") as? Int == 0 && $0.value(forKey: "source") as? String == "usgs" })
        #expect(all[0].value(forKey: "magnitude") as? Double == 4.5)
        #expect(all[2].value(forKey: "place") as? String == "Quito")

        // Keys came from the store's counter: a context's insert gets the next one.
        let e = stack.insert("Quake", ["code": "e"])
        try stack.context.save()
        #expect(Set(try quakes(stack, &reader).map(\.objectID)).count == 5)
        #expect(!objectIDs.contains(e.objectID))
    }

    @Test("A SQLite batch insert writes Z_ENT, Z_OPT = 1 and advances Z_PRIMARYKEY once")
    func sqliteRows() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: BatchModel.make())
        let request = NSBatchInsertRequest(entityName: "Aftershock", objects: (0..<3).map { ["code": "s\($0)", "parentCode": "p"] })
        _ = try stack.context.execute(request)
        let raw = try RawDatabase(stack.storeURL)
        let entityID = try #require(try raw.scalar("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Aftershock'") as? Int64)
        let rows = try raw.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZPARENTCODE FROM ZQUAKE ORDER BY Z_PK")
        #expect(rows.map { $0[0] as? Int64 } == [1, 2, 3])
        #expect(rows.allSatisfy { $0[1] as? Int64 == entityID && $0[2] as? Int64 == 1 && $0[3] as? String == "p" })
        #expect(try raw.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Quake'") as? Int64 == 3)
    }

    @Test("Handlers are called until they answer true; that last object is not inserted", arguments: allStoreTypes)
    func handlers(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        var n = 0
        let byDictionary = NSBatchInsertRequest(entityName: "Quake", dictionaryHandler: { dictionary in
            guard n < 3 else { return true }
            dictionary["code"] = "d\(n)"
            dictionary["magnitude"] = Double(n)
            n += 1
            return false
        })
        _ = try stack.context.execute(byDictionary)
        var m = 0
        let byObject = NSBatchInsertRequest(entity: stack.model.entitiesByName["Quake"]!, managedObjectHandler: { object in
            guard m < 2 else { return true }
            object.setValue("o\(m)", forKey: "code")
            object.setValue(m + 10, forKey: "count")
            m += 1
            return false
        })
        byObject.resultType = .count
        #expect((try stack.context.execute(byObject) as? NSBatchInsertResult)?.result as? Int == 2)
        var reader: NSManagedObjectContext?
        let all = try quakes(stack, &reader)
        #expect(all.map { $0.value(forKey: "code") as? String } == ["d0", "d1", "d2", "o0", "o1"])
        #expect(all.map { $0.value(forKey: "count") as? Int } == [0, 0, 0, 10, 11])
        #expect(all[2].value(forKey: "magnitude") as? Double == 2)
    }

    @Test("A uniqueness constraint upserts: the stored object (and one inserted earlier in the batch) takes the named values", arguments: allStoreTypes)
    func upsert(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        let held = stack.insert("Quake", ["code": "a", "magnitude": 1.0, "place": "Lima"])
        try stack.context.save()
        let request = NSBatchInsertRequest(entityName: "Quake", objects: [
            ["code": "a", "magnitude": 5.5], ["code": "b", "magnitude": 2.0], ["code": "b", "magnitude": 3.0],
        ])
        request.resultType = .objectIDs
        let ids = try #require((try stack.context.execute(request) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(ids.count == 3 && ids[0] == held.objectID && ids[1] == ids[2])
        var reader: NSManagedObjectContext?
        let all = try quakes(stack, &reader)
        #expect(all.count == 2)
        #expect(all[0].value(forKey: "magnitude") as? Double == 5.5)
        #expect(all[0].value(forKey: "place") as? String == "Lima")
        #expect(all[1].value(forKey: "magnitude") as? Double == 3.0)
        if storeType == NSSQLiteStoreType {
            let raw = try RawDatabase(stack.storeURL)
            #expect(try raw.scalar("SELECT Z_OPT FROM ZQUAKE WHERE ZCODE = 'a'") as? Int64 == 2)
        }
        // The context that holds the object sees the new value once it refreshes it: the
        // coordinator's row cache holds no stale row.
        #expect(held.value(forKey: "magnitude") as? Double == 1.0)
        stack.context.refresh(held, mergeChanges: false)
        #expect(held.value(forKey: "magnitude") as? Double == 5.5)
    }

    @Test("Bad input throws Apple's codes and writes nothing", arguments: allStoreTypes)
    func badInput(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        func code(_ request: NSBatchInsertRequest) -> Int? {
            do {
                _ = try stack.context.execute(request)
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code(NSBatchInsertRequest(entityName: "Nope", objects: [["code": "x"]])) == NSCoreDataError)
        #expect(code(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "x"], ["colour": "red"]])) == NSManagedObjectValidationError)
        #expect(code(NSBatchInsertRequest(entityName: "Book", objects: [["title": "x", "author": "y"]])) == NSManagedObjectValidationError)
        #expect(code(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "x"], ["code": 12]])) == NSManagedObjectValidationError)
        #expect(code(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "x"], ["magnitude": "high"]])) == NSManagedObjectValidationError)
        #expect(code(NSBatchInsertRequest(entityName: "Quake", objects: [["code": "x"], ["source": NSNull()]])) == NSValidationMissingMandatoryPropertyError)
        do {
            _ = try stack.context.execute(NSBatchInsertRequest(entityName: "Quake", objects: [["magnitude": "high"]]))
            Issue.record("a wrong type must throw")
        } catch {
            #expect((error as NSError).userInfo[NSValidationKeyErrorKey] as? String == "magnitude")
        }
        var reader: NSManagedObjectContext?
        #expect(try quakes(stack, &reader).isEmpty)
    }

    @Test("The coordinator's execute(_:with:) runs a batch insert for a context")
    func coordinatorExecute() throws {
        let stack = try TestStack(storeType: NSSQLiteStoreType, model: BatchModel.make())
        let request = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a"]])
        request.resultType = .count
        let result = try stack.coordinator.execute(request, with: stack.context) as? NSBatchInsertResult
        #expect(result?.result as? Int == 1)
        #expect(request.requestType == .batchInsertRequestType)
    }
}
