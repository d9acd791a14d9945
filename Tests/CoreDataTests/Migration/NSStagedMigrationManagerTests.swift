import Foundation
import Testing
import CoreData
import CoreDataTestSupport

// Staged migration as Apple's WWDC23 sample uses it: three versions of an Aircraft model,
// a lightweight stage from V1 to V2 (adds the FlightData entity), then a custom stage from
// V2 to V3 whose handlers move each aircraft's flightData blob into FlightData objects
// before the attribute is dropped, and count them afterwards.

private let header = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22225" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

    """

private let flightDataEntity = """
        <entity name="FlightData" representedClassName="FlightData" syncable="YES" codeGenerationType="class">
            <attribute name="data" optional="YES" attributeType="Binary"/>
            <relationship name="aircraft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Aircraft" inverseName="flightParameters" inverseEntity="Aircraft"/>
        </entity>

    """

private let toFlightData = """
            <relationship name="flightParameters" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="FlightData" inverseName="aircraft" inverseEntity="FlightData"/>

    """

/// `Aircraft.xcdatamodeld` with the versions V1, V2, V3 (current), in `folder`.
private func writeAircraftModel(in folder: URL) throws -> URL {
    let bundle = folder.appendingPathComponent("Aircraft.xcdatamodeld")
    let v1 = header + """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="flightData" optional="YES" attributeType="Binary"/>
            </entity>
        </model>

        """
    let v2 = header + """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="flightData" optional="YES" attributeType="Binary"/>
        """ + "\n" + toFlightData + "    </entity>\n" + flightDataEntity + "</model>\n"
    let v3 = header + """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="flightCount" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        """ + "\n" + toFlightData + "    </entity>\n" + flightDataEntity + "</model>\n"
    try ModelFiles.writeVersion("V1", in: bundle, contents: v1)
    try ModelFiles.writeVersion("V2", in: bundle, contents: v2)
    try ModelFiles.writeVersion("V3", in: bundle, contents: v3)
    try ModelFiles.writeCurrentVersion("V3.xcdatamodel", in: bundle)
    return bundle
}

/// The app's container class, as Apple's sample subclasses it.
final class FlightContainer: NSPersistentContainer, @unchecked Sendable {}

/// What the stage handlers saw, in order.
private final class StageLog: @unchecked Sendable {
    // @unchecked Sendable: only the thread that adds the store writes it, and tests read it after.
    var entries: [String] = []
}

/// The model versions of one written bundle, and the stages of the sample.
private struct AircraftHistory {
    let folder: TemporaryDirectory
    let bundle: URL
    let v1: NSManagedObjectModel
    let v2: NSManagedObjectModel
    let v3: NSManagedObjectModel
    var storeURL: URL { folder.file("Flights.sqlite") }

    init() throws {
        folder = try TemporaryDirectory()
        bundle = try writeAircraftModel(in: folder.url)
        v1 = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("V1.xcdatamodel")))
        v2 = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("V2.xcdatamodel")))
        v3 = try #require(NSManagedObjectModel(contentsOf: bundle.appendingPathComponent("V3.xcdatamodel")))
    }

    /// A container for `model` on the test's store, with `manager` as its staged migration.
    func container(_ model: NSManagedObjectModel, manager: NSStagedMigrationManager? = nil) -> FlightContainer {
        let container = FlightContainer(name: "Flights", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: storeURL)
        if let manager { description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey) }
        container.persistentStoreDescriptions = [description]
        return container
    }

    func load(_ container: NSPersistentContainer) throws {
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
    }

    func unload(_ container: NSPersistentContainer) throws {
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
    }

    /// A V1 store with two aircraft carrying flight data and one without.
    func seedVersion1() throws {
        let container = container(v1)
        try load(container)
        let context = container.viewContext
        for (name, blob) in [("Skyhawk", Data([1, 2, 3])), ("Cub", Data([4, 5])), ("Glider", nil)] {
            let aircraft = NSEntityDescription.insertNewObject(forEntityName: "Aircraft", into: context)
            aircraft.setValue(name, forKey: "name")
            aircraft.setValue(blob, forKey: "flightData")
        }
        try context.save()
        try unload(container)
    }

    /// The sample's stages: V1 → V2 lightweight, V2 → V3 custom.
    func stages(log: StageLog, failing: Bool = false) -> [NSMigrationStage] {
        let lightweight = NSLightweightMigrationStage([v1.versionChecksum])
        lightweight.label = "V1 to V2: add FlightData"
        let custom = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(fileURL: bundle, versionChecksum: v2.versionChecksum),
            to: NSManagedObjectModelReference(fileURL: bundle, versionChecksum: v3.versionChecksum))
        custom.label = "V2 to V3: move flight data into FlightData"
        custom.willMigrateHandler = { manager, stage in
            guard let container = manager.container else { return }
            log.entries.append("will \(stage.label!) at \(container.managedObjectModel.versionChecksum == stage.currentModel.versionChecksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Aircraft")
                request.predicate = NSPredicate(format: "flightData != nil")
                for aircraft in try context.fetch(request) {
                    let flightData = NSEntityDescription.insertNewObject(forEntityName: "FlightData", into: context)
                    flightData.setValue(aircraft.value(forKey: "flightData"), forKey: "data")
                    flightData.setValue(aircraft, forKey: "aircraft")
                    aircraft.setValue(nil, forKey: "flightData")
                }
                try context.save()
            }
            if failing { throw NSError(domain: "FlightTests", code: 42) }
        }
        custom.didMigrateHandler = { manager, stage in
            guard let container = manager.container else { return }
            log.entries.append("did \(stage.label!) at \(container.managedObjectModel.versionChecksum == stage.nextModel.versionChecksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for aircraft in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Aircraft")) {
                    let count = (aircraft.value(forKey: "flightParameters") as? Set<NSManagedObject>)?.count ?? 0
                    aircraft.setValue(Int64(count), forKey: "flightCount")
                }
                try context.save()
            }
        }
        return [lightweight, custom]
    }

    /// Each aircraft as `name:flightCount:[flight data bytes]`, sorted.
    func aircraftRows(_ container: NSPersistentContainer) throws -> [String] {
        let context = container.viewContext
        return try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Aircraft")).map { aircraft in
            let blobs = ((aircraft.value(forKey: "flightParameters") as? Set<NSManagedObject>) ?? [])
                .compactMap { ($0.value(forKey: "data") as? Data).map { $0.map(String.init).joined(separator: ",") } }
            let count = (aircraft.value(forKey: "flightCount") as? NSNumber)?.int64Value ?? -1
            return "\(aircraft.value(forKey: "name") as? String ?? "?"):\(count):\(blobs.sorted())"
        }.sorted()
    }
}

@Suite("NSStagedMigrationManager")
struct NSStagedMigrationManagerTests {
    @Test("a V1 store reaches V3 through a lightweight stage and a custom stage whose handlers move data")
    func wholeChain() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        let log = StageLog()
        let manager = NSStagedMigrationManager(history.stages(log: log))
        let container = history.container(history.v3, manager: manager)
        try history.load(container)
        #expect(log.entries == ["will V2 to V3: move flight data into FlightData at true",
                                "did V2 to V3: move flight data into FlightData at true"])
        #expect(manager.container == nil)
        #expect(try history.aircraftRows(container) == ["Cub:1:[\"4,5\"]", "Glider:0:[]", "Skyhawk:1:[\"1,2,3\"]"])
        let metadata = container.persistentStoreCoordinator.persistentStores[0].metadata ?? [:]
        #expect(history.v3.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("a store already at V2 runs only the custom stage, one at V3 runs nothing")
    func startsWhereTheStoreIs() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        // Bring the store to V2 with plain lightweight migration.
        let atV2 = history.container(history.v2)
        try history.load(atV2)
        try history.unload(atV2)
        let log = StageLog()
        try history.load(history.container(history.v3, manager: NSStagedMigrationManager(history.stages(log: log))))
        #expect(log.entries.count == 2)
        let again = StageLog()
        let container = history.container(history.v3, manager: NSStagedMigrationManager(history.stages(log: again)))
        try history.load(container)
        #expect(again.entries.isEmpty)
        #expect(try history.aircraftRows(container).count == 3)
    }

    @Test("a handler that throws stops the migration with 134110 and leaves the store whole at V2")
    func failingHandler() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        let container = history.container(history.v3, manager: NSStagedMigrationManager(history.stages(log: StageLog(), failing: true)))
        let error = try #require(throws: NSError.self) { try history.load(container) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSMigrationError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == 42)
        // The lightweight stage and the handler's save were committed: the store opens as V2.
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: history.storeURL)
        #expect(history.v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        // Adding it again resumes at the custom stage.
        let log = StageLog()
        let resumed = history.container(history.v3, manager: NSStagedMigrationManager(history.stages(log: log)))
        try history.load(resumed)
        #expect(log.entries.count == 2)
        #expect(try history.aircraftRows(resumed) == ["Cub:1:[\"4,5\"]", "Glider:0:[]", "Skyhawk:1:[\"1,2,3\"]"])
    }

    @Test("a V3 store added with the V2 model fails with NSStagedMigrationBackwardMigrationError")
    func backward() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        try history.load(history.container(history.v3, manager: NSStagedMigrationManager(history.stages(log: StageLog()))))
        let older = history.container(history.v2, manager: NSStagedMigrationManager(history.stages(log: StageLog())))
        let error = try #require(throws: NSError.self) { try history.load(older) }
        #expect(error.code == NSStagedMigrationBackwardMigrationError)
    }

    @Test("a checksum no model has fails with NSManagedObjectModelReferenceNotFoundError, store untouched")
    func unknownChecksum() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        let before = try Data(contentsOf: history.storeURL)
        let stage = NSLightweightMigrationStage(["bm9zdWNobW9kZWw="])
        let error = try #require(throws: NSError.self) {
            try history.load(history.container(history.v3, manager: NSStagedMigrationManager([stage])))
        }
        #expect(error.code == NSManagedObjectModelReferenceNotFoundError)
        #expect(try Data(contentsOf: history.storeURL) == before)
    }

    @Test("a store whose version no stage names fails with 134130")
    func storeOutsideTheChain() throws {
        let history = try AircraftHistory()
        try history.seedVersion1()
        let stage = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: history.v2, versionChecksum: history.v2.versionChecksum),
            to: NSManagedObjectModelReference(model: history.v3, versionChecksum: history.v3.versionChecksum))
        let error = try #require(throws: NSError.self) {
            try history.load(history.container(history.v3, manager: NSStagedMigrationManager([stage])))
        }
        #expect(error.code == NSMigrationMissingSourceModelError)
    }
}
