import Foundation

/// Runs a fetch request, cuts its results into sections, and keeps them up to date with
/// the changes of its managed object context, telling a delegate what changed: the model
/// behind a list of sections and rows.
///
/// The request must have sort descriptors; with a `sectionNameKeyPath`, its first sort
/// descriptor must keep the objects of each section together (sort by the section key
/// first). Once ``performFetch()`` has run and a ``delegate`` is set, every change event of
/// the context (``NSManagedObjectContext/processPendingChanges()``, `save()`, and
/// ``NSManagedObjectContext/mergeChanges(fromContextDidSave:)`` of another context's save)
/// updates the results and reaches the delegate.
///
/// ```swift
/// let request = NSFetchRequest<Book>(entityName: "Book")
/// request.sortDescriptors = [NSSortDescriptor(key: "genre", ascending: true),
///                            NSSortDescriptor(key: "title", ascending: true)]
/// let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                             sectionNameKeyPath: "genre", cacheName: nil)
/// controller.delegate = listDelegate
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(indexes: [0, 0]))
/// ```
///
/// - Note: Apple parity: `ResultType` is unconstrained (Apple's is `NSFetchRequestResult`),
///   so that `NSFetchedResultsController<NSFetchRequestResult>`, the type of every delegate
///   method's controller, compiles (see ``NSFetchRequestResult``). The controller fetches
///   managed objects only (`resultType` `.managedObjectResultType`). A cache lives as long
///   as the process, not in a file.
///
/// ## Topics
/// ### Creating a controller
/// - ``init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)``
/// - ``fetchRequest``
/// - ``managedObjectContext``
/// - ``sectionNameKeyPath``
/// - ``cacheName``
/// - ``deleteCache(withName:)``
/// ### Fetching
/// - ``performFetch()``
/// - ``fetchedObjects``
/// - ``object(at:)``
/// - ``indexPath(forObject:)``
/// ### Sections
/// - ``sections``
/// - ``sectionIndexTitles``
/// - ``section(forSectionIndexTitle:at:)``
/// - ``sectionIndexTitle(forSectionName:)``
/// ### Tracking changes
/// - ``delegate``
open class NSFetchedResultsController<ResultType>: NSObject, FetchedResultsCoreHolder {
    let core: FetchedResultsCore
    private let request: NSFetchRequest<ResultType>
    /// For a controller of another result type: the view of it that delegates receive.
    private var delegateView: NSFetchedResultsController<NSFetchRequestResult>?
    /// Whether this object is that view (it answers section index titles as the app's
    /// controller does).
    let isDelegateView: Bool

    /// Makes a controller for a fetch request in a context. Nothing is fetched until
    /// ``performFetch()``.
    ///
    /// - Parameters:
    ///   - fetchRequest: what to fetch; it needs at least one sort descriptor.
    ///   - context: the context to fetch in and to track.
    ///   - sectionNameKeyPath: the key path whose value names each object's section, or nil
    ///     for one section holding every object.
    ///   - name: the name of a cache of the computed sections, or nil for none.
    public init(fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
                sectionNameKeyPath: String?, cacheName name: String?) {
        request = fetchRequest
        core = FetchedResultsCore(request: fetchRequest, context: context,
                                  sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
        isDelegateView = false
        super.init()
        if let erased = self as? NSFetchedResultsController<NSFetchRequestResult> {
            core.delegateView = erased
        } else {
            let view = NSFetchedResultsController<NSFetchRequestResult>(viewOf: core)
            delegateView = view
            core.delegateView = view
        }
        core.ownerIndexTitle = { [weak self] name in
            self.map { $0.sectionIndexTitle(forSectionName: name) } ?? FetchedResultsCore.defaultIndexTitle(name)
        }
    }

    /// The type-erased view of another controller's core.
    private init(viewOf core: FetchedResultsCore) {
        self.core = core
        request = core.request.erased() as! NSFetchRequest<ResultType>
        isDelegateView = true
        super.init()
    }

    // MARK: - Configuration

    /// The fetch request the controller runs.
    ///
    /// - Note: Apple parity: in the view of a controller that delegates receive (see
    ///   ``NSFetchedResultsControllerDelegate``), a copy of your request made when the
    ///   controller was.
    open var fetchRequest: NSFetchRequest<ResultType> { request }
    /// The context the controller fetches in and tracks.
    open var managedObjectContext: NSManagedObjectContext { core.context }
    /// The key path that names the sections, or nil for a single section.
    open var sectionNameKeyPath: String? { core.sectionNameKeyPath }
    /// The name of the controller's section cache, or nil when it keeps none.
    ///
    /// ``performFetch()`` reads the cache of this name when it was computed for the same
    /// entity, predicate, sort and section key path (instead of fetching), and writes it
    /// otherwise. While the controller has a delegate, the cache follows the changes it
    /// tracks. Call ``deleteCache(withName:)`` when the data may have changed behind the
    /// controller's back.
    open var cacheName: String? { core.cacheName }

    /// The object told about changes to the results. While it is nil the controller does
    /// not track changes: the results stay as the last fetch left them. Held weakly.
    open var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { core.delegate }
        set { core.delegate = newValue }
    }

    /// Forgets a section cache, or every cache when `name` is nil. Call it before
    /// changing the request of a controller with a cache.
    open class func deleteCache(withName name: String?) {
        FetchedResultsCache.shared.remove(named: name)
    }

    // MARK: - Fetching

    /// Runs the fetch request (or, with a cache computed for the same request, reads the
    /// cache) and computes the sections; from then on, with a delegate, changes are tracked.
    ///
    /// Apple's rule holds: a request without sort descriptors stops the program with
    /// Apple's message ("An instance of NSFetchedResultsController requires a fetch request
    /// with sort descriptors").
    ///
    /// - Throws: the fetch's errors; `NSCoreDataError` when the sort does not keep each
    ///   section together ("The fetched object at index … has an out of order section
    ///   name …"), or the request does not fetch managed objects.
    open func performFetch() throws {
        try core.performFetch()
    }

    /// The fetched objects, section after section; nil before ``performFetch()``.
    open var fetchedObjects: [ResultType]? {
        core.layout.map { $0.objects.map { $0 as! ResultType } }
    }

    /// The object at an index path (section, then row).
    ///
    /// An index path outside the results stops the program, as Apple's raises.
    open func object(at indexPath: IndexPath) -> ResultType {
        guard let layout = core.layout else {
            coreDataMisuse("object(at:) on an NSFetchedResultsController before performFetch()")
        }
        guard indexPath.count == 2, layout.sections.indices.contains(indexPath[0]) else {
            coreDataMisuse("no section at index \(indexPath.count > 0 ? indexPath[0] : -1)")
        }
        guard let object = layout.object(at: indexPath) else {
            coreDataMisuse("no object at index \(indexPath[1]) in section at index \(indexPath[0])")
        }
        return object as! ResultType
    }

    /// The index path of an object of the results, or nil when it is not one of them.
    open func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let object = object as? NSManagedObject else { return nil }
        return core.layout?.indexPath(of: object)
    }

    // MARK: - Sections

    /// The sections, in order; nil before ``performFetch()``. Without a section name key
    /// path there is one section, named `""`.
    open var sections: [any NSFetchedResultsSectionInfo]? {
        core.layout?.sections
    }

    // MARK: - The section index

    /// The index title of a section name: the capitalized first letter of the name (nil
    /// for an empty name). Override it to index sections another way; a delegate's
    /// ``NSFetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)``
    /// takes precedence.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        if isDelegateView { return core.ownerIndexTitle(sectionName) }
        return FetchedResultsCore.defaultIndexTitle(sectionName)
    }

    /// The titles of the section index: each section's index title, in section order,
    /// each title once. Empty before ``performFetch()``.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (core.layout?.sections ?? []).compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section to show for an entry of the section index: the first section whose
    /// index title is `title`.
    ///
    /// - Parameters:
    ///   - title: the index title the user chose.
    ///   - sectionIndex: its position in ``sectionIndexTitles``.
    ///
    /// A title that is not at `sectionIndex` in ``sectionIndexTitles`` stops the program
    /// with Apple's message ("Index title at … is not equal to '…'").
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let titles = sectionIndexTitles
        guard titles.indices.contains(sectionIndex), titles[sectionIndex] == title else {
            coreDataMisuse("Index title at \(sectionIndex) is not equal to '\(title)'")
        }
        return core.layout?.sections.firstIndex { $0.indexTitle == title } ?? sectionIndex
    }

    // MARK: - Equality

    /// Whether `object` is this controller, or the view of it that delegates receive.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? FetchedResultsCoreHolder else { return false }
        return other.core === core
    }

    /// The same for a controller and the view of it that delegates receive.
    open override var hash: Int { ObjectIdentifier(core).hashValue }
}
