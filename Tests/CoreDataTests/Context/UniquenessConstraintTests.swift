import Foundation
import Testing
@testable import CoreData
import CoreDataTestSupport

private enum ConstraintModel {
    static func make() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            return attribute
        }
        let person = NSEntityDescription()
        person.name = "Person"
        person.properties = [attribute("email", .stringAttributeType), attribute("name", .stringAttributeType),
                             attribute("age", .integer64AttributeType)]
        person.uniquenessConstraints = [["email"]]
        let edition = NSEntityDescription()
        edition.name = "Edition"
        edition.properties = [attribute("title", .stringAttributeType), attribute("number", .integer64AttributeType),
                              attribute("pages", .integer64AttributeType)]
        edition.uniquenessConstraints = [["title", "number"]]
        let model = NSManagedObjectModel()
        model.entities = [person, edition]
        return model
    }
}

@Suite struct UniquenessConstraintTests {
    private func count(_ stack: TestStack, _ entity: String) throws -> Int {
        try stack.newContext().count(for: NSFetchRequest<NSManagedObject>(entityName: entity))
    }

    @Test("a duplicate of a stored value fails with NSManagedObjectConstraintMergeError carrying the conflict", arguments: allStoreTypes)
    func errorPolicy(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConstraintModel.make())
        let ann = stack.insert("Person", ["email": "a@x", "name": "Ann"])
        try stack.context.save()
        let copy = stack.insert("Person", ["email": "a@x", "name": "Anne"])
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])
        #expect(conflicts.count == 1)
        #expect(conflicts[0].constraint == ["email"])
        #expect(conflicts[0].databaseObject === ann)
        #expect(conflicts[0].conflictingObjects == [copy])
        #expect(conflicts[0].constraintValues["email"] as? String == "a@x")
        #expect(copy.isInserted)
        #expect(try count(stack, "Person") == 1)
    }

    @Test("duplicates among unsaved objects conflict with each other", arguments: allStoreTypes)
    func inMemoryDuplicates(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConstraintModel.make())
        let a = stack.insert("Person", ["email": "a@x"]), b = stack.insert("Person", ["email": "a@x"])
        let error = try #require(throws: NSError.self) { try stack.context.save() }
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])
        #expect(conflicts.first?.databaseObject == nil)
        #expect(Set(conflicts.first?.conflictingObjects ?? []) == [a, b])
    }

    @Test("compound constraints conflict only when every value matches", arguments: allStoreTypes)
    func compound(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConstraintModel.make())
        _ = stack.insert("Edition", ["title": "Dune", "number": 1])
        _ = stack.insert("Edition", ["title": "Dune", "number": 2])
        try stack.context.save()
        _ = stack.insert("Edition", ["title": "Dune", "number": 2])
        #expect(throws: NSError.self) { try stack.context.save() }
    }

    @Test("mergeByPropertyObjectTrump keeps the stored object and gives it the new values", arguments: allStoreTypes)
    func objectTrump(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConstraintModel.make())
        let ann = stack.insert("Person", ["email": "a@x", "name": "Ann", "age": 30])
        try stack.context.save()
        stack.context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        let copy = stack.insert("Person", ["email": "a@x", "name": "Anne"])
        try stack.context.save()
        #expect(copy.managedObjectContext == nil)
        #expect(ann.value(forKey: "name") as? String == "Anne")
        #expect(try count(stack, "Person") == 1)
        let other = stack.newContext()
        let stored = try other.existingObject(with: ann.objectID)
        #expect(stored.value(forKey: "name") as? String == "Anne")
        #expect((stored.value(forKey: "age") as? NSNumber)?.intValue == 30)
    }

    @Test("mergeByPropertyStoreTrump and rollback keep the stored values", arguments: allStoreTypes)
    func storeTrumpAndRollback(storeType: String) throws {
        let stack = try TestStack(storeType: storeType, model: ConstraintModel.make())
        let ann = stack.insert("Person", ["email": "a@x", "name": "Ann"])
        try stack.context.save()
        for policy in [NSMergeByPropertyStoreTrumpMergePolicy, NSRollbackMergePolicy] {
            stack.context.mergePolicy = policy
            _ = stack.insert("Person", ["email": "a@x", "name": "Anne", "age": 5])
            try stack.context.save()
            #expect(ann.value(forKey: "name") as? String == "Ann")
            #expect(try count(stack, "Person") == 1)
        }
    }
}
