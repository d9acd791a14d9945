import CoreData
import Foundation
import SwiftData

// SwiftData against our Core Data API, same work, same process (README "Performance"):
// insert N objects and save once; fetch them back with a predicate and read every value.
// Usage: swiftdata-bench [N] [--runs K]     (N = 100 000, K = 3 measured runs after a warm-up)

@Model
final class Item {
    var ident: Int
    var price: Double
    var name: String
    var created: Date
    var done: Bool

    init(ident: Int, price: Double, name: String, created: Date, done: Bool) {
        self.ident = ident
        self.price = price
        self.name = name
        self.created = created
        self.done = done
    }
}

final class ManagedItem: NSManagedObject {
    @Managed var ident: Int64
    @Managed var price: Double
    @Managed var name: String?
    @Managed var created: Date?
    @Managed var done: Bool
}

func coreDataModel() -> NSManagedObjectModel {
    func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = false
        return attribute
    }
    let entity = NSEntityDescription()
    entity.name = "Item"
    entity.managedObjectClassName = String(reflecting: ManagedItem.self)
    entity.properties = [attribute("ident", .integer64AttributeType), attribute("price", .doubleAttributeType),
                         attribute("name", .stringAttributeType), attribute("created", .dateAttributeType),
                         attribute("done", .booleanAttributeType)]
    let model = NSManagedObjectModel()
    model.entities = [entity]
    return model
}

struct Row {
    let ident: Int
    let price: Double
    let name: String
    let created: Date
    let done: Bool
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 3
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count {
    runs = Int(arguments[index + 1]) ?? 3
    arguments.removeSubrange(index...index + 1)
}
let count = arguments.first.flatMap(Int.init) ?? 100_000
let rows = (0..<count).map { i in
    Row(ident: i, price: Double(i % 1000) / 10, name: "name\(i % 997)", created: Date(timeIntervalSinceReferenceDate: Double(i)),
        done: i % 3 == 0)
}
let priceLimit = 50.0
let prefix = "name1"
let expected = rows.filter { $0.price > priceLimit && $0.name.hasPrefix(prefix) }.count
ManagedItem.registerSubclass()

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// One run of both sides: (Core Data insert, Core Data fetch, SwiftData insert, SwiftData fetch).
func run(_ index: Int) throws -> [Double] {
    var times: [Double] = []
    // Core Data.
    let cdURL = folder.appendingPathComponent("coredata-\(index).sqlite")
    let container = NSPersistentContainer(name: "Bench", managedObjectModel: coreDataModel())
    container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: cdURL)]
    container.loadPersistentStores { _, error in if let error { fatalError("\(error)") } }
    let context = container.newBackgroundContext()
    try context.performAndWait {
        times.append(try seconds {
            for row in rows {
                let item = ManagedItem(context: context)
                item.ident = Int64(row.ident)
                item.price = row.price
                item.name = row.name
                item.created = row.created
                item.done = row.done
            }
            try context.save()
        })
    }
    let reader = container.newBackgroundContext()
    try reader.performAndWait {
        times.append(try seconds {
            let request = NSFetchRequest<ManagedItem>(entityName: "Item")
            request.predicate = NSPredicate(format: "price > %f AND name BEGINSWITH %@", priceLimit, prefix)
            var checksum = 0
            let items = try reader.fetch(request)
            for item in items {
                checksum &+= Int(item.ident) &+ Int(item.price) &+ (item.name?.count ?? 0) &+ (item.done ? 1 : 0)
                _ = item.created
            }
            guard items.count == expected, checksum != 0 else { fatalError("Core Data: wrong result") }
        })
    }
    // SwiftData.
    let sdURL = folder.appendingPathComponent("swiftdata-\(index).store")
    let modelContainer = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: sdURL))
    let modelContext = ModelContext(modelContainer)
    times.append(try seconds {
        for row in rows {
            modelContext.insert(Item(ident: row.ident, price: row.price, name: row.name, created: row.created, done: row.done))
        }
        try modelContext.save()
    })
    let fetchContext = ModelContext(modelContainer)
    times.append(try seconds {
        let descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.price > priceLimit && $0.name.starts(with: prefix) })
        var checksum = 0
        let items = try fetchContext.fetch(descriptor)
        for item in items {
            checksum &+= item.ident &+ Int(item.price) &+ item.name.count &+ (item.done ? 1 : 0)
            _ = item.created
        }
        guard items.count == expected, checksum != 0 else { fatalError("SwiftData: wrong result") }
    })
    return times
}

_ = try run(0)   // warm-up
var samples: [[Double]] = []
for index in 1...runs { samples.append(try run(index)) }
func median(_ column: Int, of samples: [[Double]]) -> Double {
    let sorted = samples.map { $0[column] }.sorted()
    return sorted[sorted.count / 2]
}
let (cdInsert, cdFetch, sdInsert, sdFetch) = (median(0, of: samples), median(1, of: samples), median(2, of: samples),
                                              median(3, of: samples))
print("swiftdata-bench: N = \(count), median of \(runs) runs (\(expected) rows match the predicate)")
func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
print(pad("workload", 34) + pad("CoreData s", 12) + pad("SwiftData s", 12) + pad("ratio", 8) + "target")
for (name, cd, sd) in [("insert N @Model + save", cdInsert, sdInsert), ("fetch with #Predicate, read all", cdFetch, sdFetch)] {
    let ratio = sd / cd
    print(pad(name, 34) + pad(String(format: "%.3f", cd), 12) + pad(String(format: "%.3f", sd), 12)
          + pad(String(format: "%.2fx", ratio), 8) + (ratio <= 1.5 ? "ok (<= 1.5x)" : "MISS (<= 1.5x)"))
}
