import Foundation

/// The type of Apple's completion block for an untyped asynchronous fetch:
/// `NSAsynchronousFetchRequest<NSFetchRequestResult>`'s ``NSAsynchronousFetchRequest/completionBlock``.
public typealias NSPersistentStoreAsynchronousFetchResultCompletionBlock = (NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void

/// A fetch that runs in the background of its context's queue and reports through a
/// completion block, with a `Progress` that can cancel it.
///
/// ```swift
/// let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
/// let async = NSAsynchronousFetchRequest(fetchRequest: request) { result in
///     print(result.finalResult?.count ?? 0)
/// }
/// let result = try context.execute(async) as! NSAsynchronousFetchResult<NSManagedObject>
/// result.progress?.cancel()   // or cancel a parent progress made current before execute
/// ```
///
/// - Note: Apple parity: `ResultType` is unconstrained (see `NSFetchRequest`).
///
/// ## Topics
/// - ``init(fetchRequest:completionBlock:)``
/// - ``fetchRequest``
/// - ``completionBlock``
/// - ``estimatedResultCount``
open class NSAsynchronousFetchRequest<ResultType>: NSPersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured once, then only read by the fetch.

    /// The fetch to run.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// The block given to ``init(fetchRequest:completionBlock:)``, with its typed result.
    private let typedCompletionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    /// A hint for the progress' total; 0 means unknown.
    open var estimatedResultCount: Int = 0

    /// Wraps `request` for `NSManagedObjectContext.execute(_:)`; `block` receives the result.
    public init(fetchRequest request: NSFetchRequest<ResultType>,
                completionBlock block: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil) {
        fetchRequest = request
        typedCompletionBlock = block
        super.init()
    }

    /// The block called on the context's queue when the fetch finishes, fails or is
    /// cancelled, in Apple's untyped spelling
    /// (``NSPersistentStoreAsynchronousFetchResultCompletionBlock``).
    ///
    /// Calling it with a result of this request (as `NSAsynchronousFetchResult<any
    /// NSFetchRequestResult>`) hands the block given to the initializer the same result,
    /// typed: its objects, error and progress.
    open var completionBlock: NSPersistentStoreAsynchronousFetchResultCompletionBlock? {
        guard let block = typedCompletionBlock else { return nil }
        return { [self] untyped in
            if let typed = untyped as Any as? NSAsynchronousFetchResult<ResultType> {
                block(typed)
            } else {
                block(NSAsynchronousFetchResult(retyping: untyped, request: self))
            }
        }
    }

    /// A copy running a copy of the same fetch, with the same completion block.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let request = fetchRequest.copy() as? NSFetchRequest<ResultType> ?? fetchRequest
        let copy = NSAsynchronousFetchRequest(fetchRequest: request, completionBlock: typedCompletionBlock)
        copy.estimatedResultCount = estimatedResultCount
        copy.affectedStores = affectedStores
        return copy
    }

    /// Always ``NSPersistentStoreRequestType/fetchRequestType``.
    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// Runs the fetch on `context`'s queue; called by `NSManagedObjectContext.execute(_:)`.
    func startFetch(in context: NSManagedObjectContext) -> NSAsynchronousFetchResult<ResultType> {
        let result = NSAsynchronousFetchResult(request: self, context: context)
        context.perform { [self] in
            result.run()
            typedCompletionBlock?(result)
        }
        return result
    }
}

/// What `NSManagedObjectContext.execute(_:)` returns.
open class NSPersistentStoreResult: NSObject, @unchecked Sendable {
    // @unchecked Sendable: subclasses guard their state (see each).
}

/// The result of a request that runs asynchronously.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: `lock` guards the mutable state.
    let lock = NSLock()
    var error: Error?
    /// The context that executed the request.
    public let managedObjectContext: NSManagedObjectContext
    /// The request's progress: one unit, done when the fetch finishes; cancelling it (or
    /// a parent that was current when the request was executed) cancels the fetch.
    public let progress: Progress?

    init(context: NSManagedObjectContext, progress: Progress? = Progress(totalUnitCount: 1)) {
        managedObjectContext = context
        self.progress = progress
        super.init()
    }

    /// The error that stopped the request (`NSUserCancelledError` when cancelled).
    open var operationError: Error? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }

    /// Cancels the request if it has not finished.
    open func cancel() { progress?.cancel() }
}

/// The outcome of an ``NSAsynchronousFetchRequest``.
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    // @unchecked Sendable: `lock` guards `result`.
    /// The request this is the result of.
    public let fetchRequest: NSAsynchronousFetchRequest<ResultType>
    private var result: [ResultType]?

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext) {
        fetchRequest = request
        super.init(context: context)
    }

    /// The same outcome as `other` (context, progress, objects, error), typed for `request`.
    init<Other>(retyping other: NSAsynchronousFetchResult<Other>, request: NSAsynchronousFetchRequest<ResultType>) {
        fetchRequest = request
        super.init(context: other.managedObjectContext, progress: other.progress)
        result = other.finalResult?.compactMap { $0 as Any as? ResultType }
        error = other.operationError
    }

    /// The fetched objects; nil until the fetch finished, and when it failed or was
    /// cancelled.
    open var finalResult: [ResultType]? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }

    /// Fetches (on the context's queue), unless cancelled before or while fetching.
    func run() {
        func cancelled() -> Bool {
            guard progress?.isCancelled == true else { return false }
            lock.lock()
            error = CoreDataError.make(NSUserCancelledError, "The asynchronous fetch was cancelled.")
            lock.unlock()
            return true
        }
        if cancelled() { return }
        do {
            let objects = try managedObjectContext.fetch(fetchRequest.fetchRequest)
            if cancelled() { return }
            lock.lock()
            result = objects
            lock.unlock()
            progress?.completedUnitCount = 1
        } catch {
            lock.lock()
            self.error = error
            lock.unlock()
        }
    }
}

// MARK: - Executing requests

extension NSManagedObjectContext {
    /// Executes a request: an ``NSAsynchronousFetchRequest`` starts on the context's queue
    /// and returns its ``NSAsynchronousFetchResult`` at once.
    ///
    /// - Throws: `NSError` (`NSCoreDataError`) for a request type this context cannot run.
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        if let asynchronous = request as? any AsynchronousFetchStarting {
            return asynchronous.start(in: self)
        }
        throw CoreDataError.make(NSCoreDataError, "Unsupported request \(type(of: request)) for execute(_:).")
    }
}

/// Lets `execute(_:)` start an ``NSAsynchronousFetchRequest`` of any result type.
protocol AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult
}

extension NSAsynchronousFetchRequest: AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) -> NSPersistentStoreResult {
        startFetch(in: context)
    }
}
