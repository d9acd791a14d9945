import Foundation
import Testing
import CoreData
import CoreDataTestSupport

/// The Person/Pet → Contact/Animal mapping, written in code as an app writes it.
private func zooMapping(policy: String = "CoreDataTests.MigrationRecordingPolicy") -> NSMappingModel {
    let people = NSEntityMapping()
    people.name = "PersonToContact"
    people.mappingType = .customEntityMappingType
    people.sourceEntityName = "Person"
    people.destinationEntityName = "Contact"
    people.entityMigrationPolicyClassName = policy
    people.sourceExpression = NSExpression(format:
        "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Person\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
    let fullName = NSPropertyMapping()
    fullName.name = "fullName"
    fullName.valueExpression = NSExpression(format: "FUNCTION($entityPolicy, \"fullNameFrom:last:\", $source.given, $source.family)")
    let age = NSPropertyMapping()
    age.name = "age"
    age.valueExpression = NSExpression(format: "$source.age")
    people.attributeMappings = [fullName, age]
    let animals = NSPropertyMapping()
    animals.name = "animals"
    animals.valueExpression = NSExpression(format:
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PetToAnimal\", $source.pets)")
    people.relationshipMappings = [animals]

    let pets = NSEntityMapping()
    pets.name = "PetToAnimal"
    pets.mappingType = .customEntityMappingType
    pets.sourceEntityName = "Pet"
    pets.destinationEntityName = "Animal"
    pets.entityMigrationPolicyClassName = policy
    pets.sourceExpression = NSExpression(format:
        "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Pet\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
    let name = NSPropertyMapping()
    name.name = "name"
    name.valueExpression = NSExpression(format: "$source.name")
    let length = NSPropertyMapping()
    length.name = "nameLength"
    length.valueExpression = NSExpression(format: "$source.name.length")
    pets.attributeMappings = [name, length]
    let keeper = NSPropertyMapping()
    keeper.name = "keeper"
    keeper.valueExpression = NSExpression(format:
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToContact\", $source.owner)")
    pets.relationshipMappings = [keeper]

    let mapping = NSMappingModel()
    mapping.entityMappings = [people, pets]
    return mapping
}

@Suite struct NSMigrationManagerTests {
    let folder: TemporaryDirectory
    let v1: NSManagedObjectModel
    let v2: NSManagedObjectModel
    let source: URL

    init() throws {
        folder = try TemporaryDirectory()
        (v1, v2) = try MigrationFixtures.bundle("Zoo", in: folder, v1: MigrationFixtures.zooV1, v2: MigrationFixtures.zooV2)
        source = folder.file("Zoo.sqlite")
        try MigrationFixtures.makeStore(at: source, model: v1, MigrationFixtures.fillZoo)
    }

    @Test("a custom mapping migrates objects, attributes and relationships through value expressions and a policy class")
    func customMapping() throws {
        let destination = folder.file("Zoo 2.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        manager.userInfo = ["log": MigrationCallLog()]
        try manager.migrateStore(from: source, type: .sqlite, mapping: zooMapping(), to: destination, type: .sqlite)
        #expect(manager.migrationProgress == 1)
        #expect(try MigrationFixtures.contents(of: destination, model: v2) == [
            "Animal name=Kit nameLength=3 keeper->[Bob Ray]",
            "Animal name=Rex nameLength=3 keeper->[Ann Lee]",
            "Animal name=Tom nameLength=3 keeper->[Ann Lee]",
            "Contact age=30 fullName=Ann Lee animals->[Rex,Tom]",
            "Contact age=nil fullName=Bob Ray animals->[Kit]",
        ])
        // The source store is still the v1 store.
        #expect(try MigrationFixtures.contents(of: source, model: v1).count == 5)
    }

    @Test("the policy's override points run in Apple's order, stage by stage, mapping by mapping")
    func overridePointOrder() throws {
        let log = MigrationCallLog()
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        manager.userInfo = ["log": log]
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, options: nil, with: zooMapping(),
                                 toDestinationURL: folder.file("Zoo 2.sqlite"), destinationType: NSSQLiteStoreType,
                                 destinationOptions: nil)
        #expect(log.folded == [
            "begin PersonToContact", "create PersonToContact ×2", "endInstanceCreation PersonToContact",
            "begin PetToAnimal", "create PetToAnimal ×3", "endInstanceCreation PetToAnimal",
            "createRelationships PersonToContact ×2", "endRelationshipCreation PersonToContact",
            "createRelationships PetToAnimal ×3", "endRelationshipCreation PetToAnimal",
            "performCustomValidation PersonToContact", "performCustomValidation PetToAnimal",
            "end PersonToContact", "PersonToContact: 2 → 2", "end PetToAnimal", "PetToAnimal: 3 → 3",
        ])
    }

    @Test("an inferred mapping model runs through the migration manager too")
    func inferredMapping() throws {
        let library = try TemporaryDirectory()
        let (l1, l2) = try MigrationFixtures.bundle("Library", in: library, v1: MigrationFixtures.libraryV1,
                                                    v2: MigrationFixtures.libraryV2)
        let url = library.file("Library.sqlite")
        try MigrationFixtures.makeStore(at: url, model: l1, MigrationFixtures.fillLibrary)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: l1, destinationModel: l2)
        #expect(mapping.entityMappingsByName["BookToBook"]?.attributeMappings?.first { $0.name == "title" }?
            .valueExpression?.description == "$source.title")
        let manager = NSMigrationManager(sourceModel: l1, destinationModel: l2)
        try manager.migrateStore(from: url, type: .sqlite, mapping: mapping, to: library.file("Out.sqlite"), type: .sqlite)
        #expect(try MigrationFixtures.contents(of: library.file("Out.sqlite"), model: l2) == [
            "Author name=Banks books->[Excession]",
            "Author name=Le Guin books->[Earthsea,Lathe]",
            "Book pages=nil title=Earthsea author->[Le Guin]",
            "Book pages=nil title=Excession author->[Banks]",
            "Book pages=nil title=Lathe author->[Le Guin]",
        ])
    }

    @Test("cancelMigrationWithError stops the migration with that error and leaves no destination store")
    func cancel() throws {
        let destination = folder.file("Zoo 2.sqlite")
        let bytes = fileBytes(source)
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        manager.userInfo = ["cancel": true]
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: zooMapping(), to: destination, type: .sqlite)
        }
        #expect(error?.domain == "MigrationTests" && error?.code == 7)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(fileBytes(source) == bytes)
    }

    @Test("a policy named without its module is found in the module of the models' entity classes")
    func unqualifiedPolicyName() throws {
        let zoo = try TemporaryDirectory()
        let classed = MigrationFixtures.zooV2.replacingOccurrences(
            of: "<entity name=\"Animal\">", with: "<entity name=\"Animal\" representedClassName=\"CoreDataTests.MigrationAnimal\">")
        let (z1, z2) = try MigrationFixtures.bundle("Zoo", in: zoo, v1: MigrationFixtures.zooV1, v2: classed)
        let url = zoo.file("Zoo.sqlite")
        try MigrationFixtures.makeStore(at: url, model: z1, MigrationFixtures.fillZoo)
        #expect(NSClassFromString("MigrationRecordingPolicy") == nil) // the bare name alone finds nothing
        let log = MigrationCallLog()
        let manager = NSMigrationManager(sourceModel: z1, destinationModel: z2)
        manager.userInfo = ["log": log]
        try manager.migrateStore(from: url, type: .sqlite, mapping: zooMapping(policy: "MigrationRecordingPolicy"),
                                 to: zoo.file("Zoo 2.sqlite"), type: .sqlite)
        #expect(log.folded.first == "begin PersonToContact")
        #expect(try MigrationFixtures.contents(of: zoo.file("Zoo 2.sqlite"), model: z2).count == 5)
    }

    @Test("a missing policy class fails with 134170 naming it, before anything is written")
    func missingPolicyClass() throws {
        let destination = folder.file("Zoo 2.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: zooMapping(policy: "CoreDataTests.NoSuchPolicy"),
                                     to: destination, type: .sqlite)
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSEntityMigrationPolicyError)
        #expect(error?.localizedDescription.contains("CoreDataTests.NoSuchPolicy") == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("a mapping model that names an entity the models lack fails with 134140")
    func mappingDoesNotFit() throws {
        let mapping = zooMapping()
        mapping.entityMappings[0].destinationEntityName = "Customer"
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: mapping,
                                     to: folder.file("Zoo 2.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(error?.localizedDescription.contains("Customer") == true)
    }

    @Test("a source store written with another model fails with 134150 and stays as it was")
    func wrongSourceModel() throws {
        let bytes = fileBytes(source)
        let manager = NSMigrationManager(sourceModel: v2, destinationModel: v2)
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: NSMappingModel(),
                                     to: folder.file("Zoo 2.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSMigrationManagerSourceStoreError)
        #expect(fileBytes(source) == bytes)
    }

    @Test("FUNCTION($entityPolicy, …) with a selector the policy does not answer fails with 134170")
    func unansweredSelector() throws {
        let mapping = zooMapping(policy: "CoreDataTests.MigrationUppercasingPolicy")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: mapping,
                                     to: folder.file("Zoo 2.sqlite"), type: .sqlite)
        }
        #expect(error?.code == NSEntityMigrationPolicyError)
        #expect(error?.localizedDescription.contains("fullNameFrom:last:") == true)
    }

    @Test("a migration writes into, and reads from, a store type an app registered (an atomic store)")
    func customStoreTypes() throws {
        NSPersistentStoreCoordinator.registerStoreClass(PlistAtomicStore.self, forStoreType: "MigrationPlistStore")
        let plist = folder.file("Zoo 2.plist")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, with: zooMapping(),
                                 toDestinationURL: plist, destinationType: "MigrationPlistStore")
        let stack = try CustomStack(type: "MigrationPlistStore", url: plist, model: v2)
        let names = try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Contact"))
                .map { "\($0.value(forKey: "fullName")!) \(($0.value(forKey: "animals") as? Set<NSManagedObject>)?.count ?? -1)" }
                .sorted()
        }
        #expect(names == ["Ann Lee 2", "Bob Ray 1"])
        // And back out of it, through the inferred mapping of an unchanged model.
        let back = NSMigrationManager(sourceModel: v2, destinationModel: v2)
        try back.migrateStore(from: plist, sourceType: "MigrationPlistStore",
                              with: try NSMappingModel.inferredMappingModel(forSourceModel: v2, destinationModel: v2),
                              toDestinationURL: folder.file("Zoo 3.sqlite"), destinationType: NSSQLiteStoreType)
        #expect(try MigrationFixtures.contents(of: folder.file("Zoo 3.sqlite"), model: v2).count == 5)
    }

    @Test("destination objects are validated before the save: a required attribute left empty fails with 1570")
    func validation() throws {
        let mapping = zooMapping()
        mapping.entityMappings[0].attributeMappings = mapping.entityMappings[0].attributeMappings?.filter { $0.name != "fullName" }
        let destination = folder.file("Zoo 2.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        }
        let codes = [error?.code] + ((error?.userInfo[NSDetailedErrorsKey] as? [NSError])?.map(\.code) ?? [])
        #expect(codes.contains(NSValidationMissingMandatoryPropertyError))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("the migration keys name the variables value expressions read")
    func keys() {
        #expect([NSMigrationManagerKey, NSMigrationSourceObjectKey, NSMigrationDestinationObjectKey,
                 NSMigrationEntityMappingKey, NSMigrationPropertyMappingKey, NSMigrationEntityPolicyKey]
                == ["manager", "source", "destination", "entityMapping", "propertyMapping", "entityPolicy"])
        #expect(ObjectIdentifier(NSPersistentStore.migrationManagerClass()) == ObjectIdentifier(NSMigrationManager.self))
    }
}
