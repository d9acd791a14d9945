import Foundation
import Testing
import CoreData
import CoreDataTestSupport

@Suite struct NSFetchedResultsControllerTests {
    static let dishes: [(String, String, Int64)] = [
        ("Risotto", "Italian", 4), ("Tacos", "Mexican", 5), ("Crêpes", "French", 3),
        ("Lasagne", "Italian", 5), ("Mole", "Mexican", 2),
    ]

    @Test("performFetch() cuts the sorted results into sections named by the key path, with index titles")
    func sections() throws {
        let stack = try Menu.stack()
        Menu.add(Self.dishes, to: stack.context)
        let controller = NSFetchedResultsController(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                                    sectionNameKeyPath: "cuisine", cacheName: nil)
        #expect(controller.fetchedObjects == nil)
        #expect(controller.sections == nil)
        try controller.performFetch()

        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["French", "Italian", "Mexican"])
        #expect(sections.map(\.numberOfObjects) == [1, 2, 2])
        #expect(sections.map(\.indexTitle) == ["F", "I", "M"])
        #expect(controller.titlesBySection == [["Crêpes"], ["Lasagne", "Risotto"], ["Mole", "Tacos"]])
        #expect(controller.fetchedObjects?.map(\.title) == ["Crêpes", "Lasagne", "Risotto", "Mole", "Tacos"])
        #expect(controller.sectionIndexTitles == ["F", "I", "M"])
        #expect(controller.section(forSectionIndexTitle: "M", at: 2) == 2)
        #expect(controller.sectionIndexTitle(forSectionName: "thai") == "T")
        #expect(controller.sectionNameKeyPath == "cuisine")
        #expect(controller.managedObjectContext === stack.context)
        #expect(controller.fetchRequest.entityName == "Dish")
    }

    @Test("without a section name key path there is one section named \"\", even with no results")
    func singleSection() throws {
        let stack = try Menu.stack()
        let empty = NSFetchedResultsController(fetchRequest: Menu.byTitle(), managedObjectContext: stack.context,
                                               sectionNameKeyPath: nil, cacheName: nil)
        try empty.performFetch()
        #expect(empty.sections?.map(\.name) == [""])
        #expect(empty.sections?.first?.numberOfObjects == 0)
        #expect(empty.fetchedObjects?.isEmpty == true)

        let sectioned = NSFetchedResultsController(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                                   sectionNameKeyPath: "cuisine", cacheName: nil)
        try sectioned.performFetch()
        #expect(sectioned.sections?.isEmpty == true)

        Menu.add(Self.dishes, to: stack.context)
        try empty.performFetch()
        #expect(empty.titlesBySection == [["Crêpes", "Lasagne", "Mole", "Risotto", "Tacos"]])
    }

    @Test("object(at:) and indexPath(forObject:) are each other's inverse; objects outside the results have no index path")
    func roundTrip() throws {
        let stack = try Menu.stack(NSSQLiteStoreType)
        Menu.add(Self.dishes, to: stack.context)
        let outside = Menu.add([("Pho", "Vietnamese", 1)], to: stack.context)[0]
        try stack.context.save()
        let request = Menu.request(predicate: NSPredicate(format: "rating >= 2"))
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                    sectionNameKeyPath: "cuisine", cacheName: nil)
        try controller.performFetch()
        for (s, section) in (controller.sections ?? []).enumerated() {
            for row in 0..<section.numberOfObjects {
                let path: IndexPath = [s, row]
                let dish = controller.object(at: path)
                #expect(section.objects?[row] as? Dish === dish)
                #expect(controller.indexPath(forObject: dish) == path)
            }
        }
        #expect(controller.object(at: [1, 1]).title == "Risotto")
        #expect(controller.indexPath(forObject: outside) == nil)
    }

    @Test("a delegate's sectionIndexTitleForSectionName, else a subclass's sectionIndexTitle(forSectionName:), names index entries")
    func indexTitles() throws {
        final class FullNames: NSFetchedResultsController<Dish> {
            override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
                String(sectionName.prefix(3))
            }
        }
        final class Abbreviations: NSObject, NSFetchedResultsControllerDelegate {
            func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                            sectionIndexTitleForSectionName sectionName: String) -> String? {
                sectionName.lowercased()
            }
        }
        let stack = try Menu.stack()
        Menu.add(Self.dishes, to: stack.context)
        let controller = FullNames(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                   sectionNameKeyPath: "cuisine", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["Fre", "Ita", "Mex"])
        #expect(controller.section(forSectionIndexTitle: "Ita", at: 1) == 1)

        let abbreviations = Abbreviations()
        controller.delegate = abbreviations
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["french", "italian", "mexican"])
    }

    @Test("a sort that does not keep each section together makes performFetch() throw Apple's message")
    func outOfOrderSections() throws {
        let stack = try Menu.stack()
        Menu.add(Self.dishes, to: stack.context)
        let controller = NSFetchedResultsController(fetchRequest: Menu.byTitle(), managedObjectContext: stack.context,
                                                    sectionNameKeyPath: "cuisine", cacheName: nil)
        let error = try #require(throws: NSError.self) { try controller.performFetch() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSCoreDataError)
        #expect(error.localizedDescription.contains("has an out of order section name 'Italian"))
        #expect(controller.sections == nil)
    }

    @Test("a fetch request without sort descriptors stops the program, as Apple's controller raises")
    func missingSortDescriptors() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try Menu.stack()
            let request = NSFetchRequest<Dish>(entityName: "Dish")
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("An instance of NSFetchedResultsController requires a fetch request with sort descriptors"))
    }

    @Test("object(at:) outside the results stops the program, as Apple's raises")
    func objectOutsideResults() async throws {
        await #expect(processExitsWith: .failure) {
            let stack = try Menu.stack()
            Menu.add([("Pho", "Vietnamese", 1)], to: stack.context)
            let controller = NSFetchedResultsController(fetchRequest: Menu.request(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "cuisine", cacheName: nil)
            try controller.performFetch()
            _ = controller.object(at: [0, 1])
        }
    }
}
