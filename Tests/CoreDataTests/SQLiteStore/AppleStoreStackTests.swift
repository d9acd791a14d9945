import Foundation
import Testing
@_spi(Tools) @testable import CoreData
import CoreDataTestSupport

/// Stores written by Apple's Core Data, read through the whole stack: coordinator,
/// context, faults, sub-entity instances, relationships.
@Suite struct AppleStoreStackTests {
    /// The test's copy of the store lives here until the test ends.
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    func open(_ store: String, bundle: String, version: String) throws -> (NSManagedObjectContext, NSPersistentStoreCoordinator) {
        let url = try Fixtures.copyStore(store, to: folder)
        let model = try ModelBundle.open(Fixtures.model(bundle)).model(forVersion: version)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, coordinator)
    }

    @Test("CoreDataPlus SampleModel_V1: a parent-entity fetch returns the concrete sub-entities")
    func sampleModelThroughContext() throws {
        let (context, _) = try open("alemar11_CoreDataPlus__SampleModel_V1.sqlite",
                                    bundle: "alemar11_CoreDataPlus__SampleModel.xcdatamodeld", version: "SampleModel")
        let cars = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car"))
        #expect(!cars.isEmpty)
        let entityNames = Set(cars.map { $0.entity.name ?? "" })
        #expect(entityNames.isSubset(of: ["Car", "SportCar", "ExpensiveSportCar"]))
        #expect(entityNames.count > 1)
        let onlyCars = NSFetchRequest<NSManagedObject>(entityName: "Car")
        onlyCars.includesSubentities = false
        #expect(try context.count(for: onlyCars) == cars.filter { $0.entity.name == "Car" }.count)
        for car in cars {
            #expect(car.value(forKey: "numberPlate") is String)
            if let owner = car.value(forKey: "owner") as? NSManagedObject {
                #expect((owner.value(forKey: "cars") as? Set<NSManagedObject>)?.contains(car) == true)
            }
        }
        let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        #expect(people.allSatisfy { $0.value(forKey: "id") is UUID })
    }

    @Test("objcio Moody: every mood reads its country and continent back")
    func moodyThroughContext() throws {
        let (context, _) = try open("objcio_core-data__Moody.moody.sqlite",
                                    bundle: "objcio_core-data__Migrations_Moody.xcdatamodeld", version: "Moody")
        let moods = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Mood"))
        #expect(!moods.isEmpty)
        for mood in moods {
            #expect(mood.value(forKey: "date") is Date)
        }
    }
}
