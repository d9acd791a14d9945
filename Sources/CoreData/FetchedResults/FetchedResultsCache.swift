import Foundation

/// The section caches of fetched results controllers, by cache name, for the life of the
/// process: each holds the request it was computed for (as a signature) and the sections'
/// names, index titles and object URIs.
final class FetchedResultsCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is guarded by `lock`.
    static let shared = FetchedResultsCache()

    /// One cached computation.
    struct Entry {
        /// What the sections were computed for: entity, predicate, sort, section key path.
        let signature: String
        let sections: [(name: String, indexTitle: String?, objects: [URL])]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    func entry(named name: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[name]
    }

    func store(_ entry: Entry, named name: String) {
        lock.lock()
        defer { lock.unlock() }
        entries[name] = entry
    }

    /// Forgets one cache, or every cache when `name` is nil.
    func remove(named name: String?) {
        lock.lock()
        defer { lock.unlock() }
        if let name { entries.removeValue(forKey: name) } else { entries.removeAll() }
    }

    /// The signature of a request: a cache computed for another one is not used.
    static func signature(of request: any FetchedResultsRequest, sectionNameKeyPath: String?) -> String {
        let sort = (request.sortDescriptors ?? []).map(SortKeyResolver.keyed).map {
            "\($0.key ?? "?") \($0.ascending ? "asc" : "desc")"
        }
        return [request.entityName ?? "?", request.includesSubentities ? "sub" : "nosub",
                request.predicate.map(PredicateFormatter.format) ?? "TRUEPREDICATE", sort.joined(separator: ","),
                sectionNameKeyPath ?? ""].joined(separator: "|")
    }

    /// A layout's entry, or nil when an object has no permanent ID yet.
    static func entry(for layout: FetchedResultsLayout, signature: String) -> Entry? {
        var sections: [(name: String, indexTitle: String?, objects: [URL])] = []
        for section in layout.sections {
            var uris: [URL] = []
            for object in section.members {
                guard !object.objectID.isTemporaryID else { return nil }
                uris.append(object.objectID.uriRepresentation())
            }
            sections.append((section.name, section.indexTitle, uris))
        }
        return Entry(signature: signature, sections: sections)
    }

    /// An entry's sections with the context's objects (faults where not registered), or
    /// nil when an object is no longer reachable through the context's coordinator.
    static func layout(from entry: Entry, in context: NSManagedObjectContext) -> FetchedResultsLayout? {
        guard let coordinator = context.persistentStoreCoordinator else { return nil }
        var sections: [FetchedResultsSection] = []
        for cached in entry.sections {
            var members: [NSManagedObject] = []
            for uri in cached.objects {
                guard let objectID = coordinator.managedObjectID(forURIRepresentation: uri),
                      let object = context.object(forSourceID: objectID) else { return nil }
                members.append(object)
            }
            sections.append(FetchedResultsSection(name: cached.name, indexTitle: cached.indexTitle, members: members))
        }
        return FetchedResultsLayout(sections: sections)
    }
}
