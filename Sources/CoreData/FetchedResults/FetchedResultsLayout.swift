import Foundation

/// A fetched results controller's results at one moment: the objects in order, cut into
/// sections, with each object's index path.
struct FetchedResultsLayout {
    /// The objects, in the fetch's order (sections one after another).
    let objects: [NSManagedObject]
    /// The sections, in order.
    let sections: [FetchedResultsSection]
    /// The index path of each object, by identity.
    let indexPaths: [ObjectIdentifier: IndexPath]

    /// Sections as given (a cache's, or grouped by ``grouping(_:sectionNameKeyPath:indexTitle:)``).
    init(sections: [FetchedResultsSection]) {
        self.sections = sections
        var objects: [NSManagedObject] = []
        var paths: [ObjectIdentifier: IndexPath] = [:]
        for (s, section) in sections.enumerated() {
            for (row, object) in section.members.enumerated() {
                paths[ObjectIdentifier(object)] = IndexPath(indexes: [s, row])
                objects.append(object)
            }
        }
        self.objects = objects
        self.indexPaths = paths
    }

    /// The section an object belongs to, by its value at `keyPath`: text as it is, nil as
    /// `""`, anything else by its description.
    static func sectionName(of object: NSManagedObject, keyPath: String) -> String {
        switch object.value(forKeyPath: keyPath) {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let value?: return String(describing: value)
        }
    }

    /// Sorted objects cut into sections: consecutive objects with the same section name
    /// form one. Without a key path every object is in one section named `""` (present
    /// even when there are no objects).
    ///
    /// - Throws: ``FetchedResultsOrderError`` when a section name comes back after another
    ///   one started: the sort does not keep each section's objects together.
    static func grouping(_ objects: [NSManagedObject], sectionNameKeyPath: String?,
                         indexTitle: (String) -> String?) throws(FetchedResultsOrderError) -> FetchedResultsLayout {
        guard let keyPath = sectionNameKeyPath else {
            return FetchedResultsLayout(sections: [
                FetchedResultsSection(name: "", indexTitle: indexTitle(""), members: objects),
            ])
        }
        var groups: [(name: String, members: [NSManagedObject])] = []
        var seen = Set<String>()
        for (index, object) in objects.enumerated() {
            let name = sectionName(of: object, keyPath: keyPath)
            if let last = groups.last, last.name == name {
                groups[groups.count - 1].members.append(object)
                continue
            }
            guard seen.insert(name).inserted else {
                throw FetchedResultsOrderError(index: index, sectionName: name)
            }
            groups.append((name, [object]))
        }
        return FetchedResultsLayout(sections: groups.map {
            FetchedResultsSection(name: $0.name, indexTitle: indexTitle($0.name), members: $0.members)
        })
    }

    /// The object at an index path, or nil when there is none.
    func object(at indexPath: IndexPath) -> NSManagedObject? {
        guard indexPath.count == 2, sections.indices.contains(indexPath[0]) else { return nil }
        let members = sections[indexPath[0]].members
        return members.indices.contains(indexPath[1]) ? members[indexPath[1]] : nil
    }

    /// The index path of an object of the results.
    func indexPath(of object: NSManagedObject) -> IndexPath? {
        indexPaths[ObjectIdentifier(object)]
    }

    /// Whether an object is among the results.
    func contains(_ object: NSManagedObject) -> Bool {
        indexPaths[ObjectIdentifier(object)] != nil
    }
}
