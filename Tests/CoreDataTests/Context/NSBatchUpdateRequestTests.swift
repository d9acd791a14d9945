import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct NSBatchUpdateRequestTests {
    private func seed(_ storeType: String) throws -> TestStack {
        let stack = try TestStack(storeType: storeType, model: BatchModel.make())
        for (i, code) in ["a", "b", "c", "d"].enumerated() {
            stack.insert("Quake", ["code": code, "magnitude": Double(i), "count": i, "place": "p\(i)"])
        }
        stack.insert("Aftershock", ["code": "e", "magnitude": 9.0, "count": 7])
        try stack.context.save()
        return stack
    }

    private func values(_ stack: TestStack, _ key: String) throws -> [String: Any] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        var result: [String: Any] = [:]
        let reader = stack.newContext()
        for object in try reader.fetch(request) {
            result[object.value(forKey: "code") as! String] = object.value(forKey: key) ?? NSNull()
        }
        withExtendedLifetime(reader) {}
        return result
    }

    @Test("A predicate selects the rows; every result type answers", arguments: allStoreTypes)
    func resultTypes(storeType: String) throws {
        let stack = try seed(storeType)
        let status = NSBatchUpdateRequest(entityName: "Quake")
        status.predicate = NSPredicate(format: "magnitude >= 2")
        status.propertiesToUpdate = ["felt": true]
        let statusResult = try #require(try stack.context.execute(status) as? NSBatchUpdateResult)
        #expect(statusResult.resultType == .statusOnlyResultType && (statusResult.result as? NSNumber)?.boolValue == true)
        let felt = try values(stack, "felt")
        #expect(felt["a"] is NSNull && felt["b"] is NSNull)
        #expect(felt["c"] as? Bool == true && felt["d"] as? Bool == true && felt["e"] as? Bool == true)

        let counted = NSBatchUpdateRequest(entity: stack.model.entitiesByName["Quake"]!)
        counted.predicate = NSPredicate(format: "code IN %@", ["a", "b"])
        counted.propertiesToUpdate = ["place": "Here"]
        counted.resultType = .updatedObjectsCountResultType
        #expect((try stack.context.execute(counted) as? NSBatchUpdateResult)?.result as? Int == 2)

        let ids = NSBatchUpdateRequest(entityName: "Quake")
        ids.propertiesToUpdate = [stack.model.entitiesByName["Quake"]!.attributesByName["place"]!: NSNull()]
        ids.predicate = NSPredicate(format: "code == 'c'")
        ids.resultType = .updatedObjectIDsResultType
        let updated = try #require((try stack.context.execute(ids) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        #expect(updated.count == 1)
        let places = try values(stack, "place")
        #expect(places["a"] as? String == "Here" && places["b"] as? String == "Here" && places["c"] is NSNull && places["d"] as? String == "p3")
        if storeType == NSSQLiteStoreType {
            let raw = try RawDatabase(stack.storeURL)
            let versions = try raw.rows("SELECT ZCODE, Z_OPT FROM ZQUAKE ORDER BY ZCODE").map { $0[1] as? Int64 }
            #expect(versions == [2, 2, 3, 2, 2])
        }
    }

    @Test("Expressions are evaluated on each row: arithmetic on key paths, other attributes, functions", arguments: allStoreTypes)
    func expressions(storeType: String) throws {
        let stack = try seed(storeType)
        let request = NSBatchUpdateRequest(entityName: "Quake")
        request.propertiesToUpdate = [
            "count": NSExpression(format: "count + 1"),
            "magnitude": NSExpression(format: "magnitude * 2"),
            "source": NSExpression(forKeyPath: "place"),
            "felt": NSExpression(forConstantValue: true),
        ]
        request.predicate = NSPredicate(format: "code != 'e'")
        _ = try stack.context.execute(request)
        #expect(try values(stack, "count") as NSDictionary == ["a": 1, "b": 2, "c": 3, "d": 4, "e": 7] as NSDictionary)
        #expect(try values(stack, "magnitude") as NSDictionary == ["a": 0.0, "b": 2.0, "c": 4.0, "d": 6.0, "e": 9.0] as NSDictionary)
        #expect(try values(stack, "source")["b"] as? String == "p1")

        // A function the SQL compiler does not know is evaluated in memory.
        let upper = NSBatchUpdateRequest(entityName: "Quake")
        upper.propertiesToUpdate = ["place": NSExpression(forFunction: "uppercase:", arguments: [NSExpression(forKeyPath: "place")])]
        upper.predicate = NSPredicate(format: "code == 'd'")
        upper.resultType = .updatedObjectsCountResultType
        #expect((try stack.context.execute(upper) as? NSBatchUpdateResult)?.result as? Int == 1)
        #expect(try values(stack, "place")["d"] as? String == "P3")
    }

    @Test("includesSubentities = false leaves sub-entity rows alone", arguments: allStoreTypes)
    func subentities(storeType: String) throws {
        let stack = try seed(storeType)
        let request = NSBatchUpdateRequest(entityName: "Quake")
        request.includesSubentities = false
        request.propertiesToUpdate = ["count": 100]
        request.resultType = .updatedObjectsCountResultType
        #expect((try stack.context.execute(request) as? NSBatchUpdateResult)?.result as? Int == 4)
        #expect(try values(stack, "count")["e"] as? Int == 7)
    }

    @Test("A context sees updated values once it refreshes; saving the stale object conflicts", arguments: allStoreTypes)
    func contextsAfterMerge(storeType: String) throws {
        let stack = try seed(storeType)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
        request.predicate = NSPredicate(format: "code == 'a'")
        let a = try #require(try stack.context.fetch(request).first)
        #expect(a.value(forKey: "count") as? Int == 0)

        let update = NSBatchUpdateRequest(entityName: "Quake")
        update.propertiesToUpdate = ["count": 42]
        update.resultType = .updatedObjectIDsResultType
        let ids = try #require((try stack.context.execute(update) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        #expect(ids.contains(a.objectID))

        // An edit of the stale object fails against the bumped version.
        a.setValue("Stale", forKey: "place")
        #expect(throws: (any Error).self) { try stack.context.save() }
        stack.context.rollback()

        // Apple's way: merge the result's IDs; the context refreshes the objects it holds.
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [stack.context])
        #expect(a.value(forKey: "count") as? Int == 42)
        a.setValue("Fresh", forKey: "place")
        try stack.context.save()
    }

    @Test("Bad input throws Apple's codes and writes nothing", arguments: allStoreTypes)
    func badInput(storeType: String) throws {
        let stack = try seed(storeType)
        func code(_ properties: [AnyHashable: Any]?, entity: String = "Quake") -> Int? {
            let request = NSBatchUpdateRequest(entityName: entity)
            request.propertiesToUpdate = properties
            do {
                _ = try stack.context.execute(request)
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code(["count": 1], entity: "Nope") == NSCoreDataError)
        #expect(code(["colour": "red"]) == NSManagedObjectValidationError)
        #expect(code(["author": NSNull()], entity: "Book") == NSManagedObjectValidationError)
        #expect(code(["count": "many"]) == NSManagedObjectValidationError)
        #expect(code(["count": 1, "magnitude": "big"]) == NSManagedObjectValidationError)
        #expect(code(["source": NSNull()]) == NSValidationMissingMandatoryPropertyError)
        #expect(code(["count": NSExpression(format: "place")]) == NSManagedObjectValidationError)
        #expect(code(nil) == NSCoreDataError)
        #expect(try values(stack, "count") as NSDictionary == ["a": 0, "b": 1, "c": 2, "d": 3, "e": 7] as NSDictionary)
    }

    @Test("Batch requests copy what they were given")
    func copies() throws {
        let update = NSBatchUpdateRequest(entityName: "Quake")
        update.predicate = NSPredicate(format: "count > 1")
        update.propertiesToUpdate = ["felt": true]
        update.includesSubentities = false
        update.resultType = .updatedObjectIDsResultType
        let updateCopy = try #require(update.copy() as? NSBatchUpdateRequest)
        #expect(updateCopy !== update && updateCopy.entityName == "Quake" && updateCopy.predicate == update.predicate)
        #expect(updateCopy.propertiesToUpdate?["felt"] as? Bool == true && !updateCopy.includesSubentities)
        #expect(updateCopy.resultType == .updatedObjectIDsResultType && updateCopy.requestType == .batchUpdateRequestType)

        let insert = NSBatchInsertRequest(entityName: "Quake", objects: [["code": "a"]])
        insert.resultType = .count
        let insertCopy = try #require(insert.copy() as? NSBatchInsertRequest)
        #expect(insertCopy.entityName == "Quake" && insertCopy.objectsToInsert?.count == 1 && insertCopy.resultType == .count)

        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
        fetch.fetchLimit = 3
        let delete = NSBatchDeleteRequest(fetchRequest: fetch)
        delete.resultType = .resultTypeCount
        let deleteCopy = try #require(delete.copy() as? NSBatchDeleteRequest)
        #expect(deleteCopy.fetchRequest.entityName == "Quake" && deleteCopy.fetchRequest.fetchLimit == 3)
        #expect(deleteCopy.resultType == .resultTypeCount)
    }
}
