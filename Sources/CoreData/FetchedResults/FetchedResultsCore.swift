import Foundation

/// The state and work of a fetched results controller, shared by the controller an app
/// made and the type-erased view of it that delegates receive: the request, the current
/// results, the delegate, and the observation of the context.
final class FetchedResultsCore: @unchecked Sendable {
    // @unchecked Sendable: used on its context's queue only, as Apple's controller is; the
    // context posts the notification the observer reacts to on that queue.
    let request: any FetchedResultsRequest
    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?

    /// The results of the last fetch, kept up to date while tracking; nil before
    /// `performFetch()`.
    var layout: FetchedResultsLayout?
    /// The entity the last fetch was for (tracking admits objects of it and, when the
    /// request includes subentities, of its subentities).
    var entity: NSEntityDescription?

    /// The delegate; the controller tracks changes only while there is one.
    weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        didSet { updateObservation() }
    }
    /// What delegate methods receive: the app's controller when it is typed
    /// `NSFetchedResultsController<NSFetchRequestResult>`, else a view of it.
    weak var delegateView: NSFetchedResultsController<NSFetchRequestResult>?
    /// The app's controller's `sectionIndexTitle(forSectionName:)` (which a subclass may
    /// override).
    var ownerIndexTitle: (String) -> String? = FetchedResultsCore.defaultIndexTitle
    /// Set by the delegate protocol's default implementations of the all-at-once
    /// callbacks: the delegate does not implement the one just called.
    var reachedDefaultCallback = false

    private var observers: [any NSObjectProtocol] = []

    init(request: any FetchedResultsRequest, context: NSManagedObjectContext,
         sectionNameKeyPath: String?, cacheName: String?) {
        self.request = request
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    /// The capitalized first letter of a section name; nil for an empty name.
    static func defaultIndexTitle(_ sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// A section's index title: the delegate's answer when there is a delegate (its
    /// default is the controller's), else the controller's.
    func indexTitle(forSectionName name: String) -> String? {
        if let delegate, let view = delegateView {
            return delegate.controller(view, sectionIndexTitleForSectionName: name)
        }
        return ownerIndexTitle(name)
    }

    // MARK: - Fetching

    /// Runs the request (or reads the cache) and cuts the results into sections.
    func performFetch() throws {
        guard let descriptors = request.sortDescriptors, !descriptors.isEmpty else {
            coreDataMisuse("An instance of NSFetchedResultsController requires a fetch request with sort descriptors")
        }
        guard request.resultType == .managedObjectResultType else {
            throw CoreDataError.make(NSCoreDataError,
                "NSFetchedResultsController fetches managed objects: its fetch request's resultType must be .managedObjectResultType.")
        }
        let entity = try request.entity(in: context)
        let signature = FetchedResultsCache.signature(of: request, sectionNameKeyPath: sectionNameKeyPath)
        if let cacheName, let entry = FetchedResultsCache.shared.entry(named: cacheName) {
            if entry.signature == signature, let cached = FetchedResultsCache.layout(from: entry, in: context) {
                finishFetch(cached, entity: entity)
                return
            }
            FetchedResultsCache.shared.remove(named: cacheName)
        }
        let objects = try request.managedObjects(in: context)
        let layout: FetchedResultsLayout
        do {
            layout = try FetchedResultsLayout.grouping(objects, sectionNameKeyPath: sectionNameKeyPath,
                                                       indexTitle: indexTitle(forSectionName:))
        } catch {
            throw error.nsError
        }
        finishFetch(layout, entity: entity)
        saveCache()
    }

    private func finishFetch(_ layout: FetchedResultsLayout, entity: NSEntityDescription) {
        self.layout = layout
        self.entity = entity
        updateObservation()
        if let delegate, let view = delegateView {
            reachedDefaultCallback = false
            delegate.controller(view, didChangeContentWith: snapshot(of: layout))
        }
    }

    /// Writes the current sections to the cache, when the controller has a cache name.
    func saveCache() {
        guard let cacheName, let layout else { return }
        let signature = FetchedResultsCache.signature(of: request, sectionNameKeyPath: sectionNameKeyPath)
        if let entry = FetchedResultsCache.entry(for: layout, signature: signature) {
            FetchedResultsCache.shared.store(entry, named: cacheName)
        } else {
            FetchedResultsCache.shared.remove(named: cacheName)
        }
    }

    /// The content as the snapshot callback gets it.
    func snapshot(of layout: FetchedResultsLayout) -> NSDiffableDataSourceSnapshotReference {
        NSDiffableDataSourceSnapshotReference(sections: layout.sections.map { section in
            (section.name, section.members.map(\.objectID))
        })
    }

    // MARK: - Observing the context

    /// Observes the context while there are results and a delegate to tell: its change
    /// events, and (with a cache) its saves, after which objects inserted since the last
    /// fetch have the permanent IDs a cache records.
    private func updateObservation() {
        let wanted = layout != nil && delegate != nil
        let center = NotificationCenter.default
        if wanted, observers.isEmpty {
            observers.append(center.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
            ) { [weak self] notification in
                self?.contextDidChange(notification)
            })
            if cacheName != nil {
                observers.append(center.addObserver(
                    forName: .NSManagedObjectContextDidSave, object: context, queue: nil
                ) { [weak self] _ in
                    self?.saveCache()
                })
            }
        } else if !wanted {
            for observer in observers { center.removeObserver(observer) }
            observers.removeAll()
        }
    }
}
